// The resources the behaviour tests track visitors on.
import { CTA_A, type SandboxClient } from '../support/sandbox-client';

export interface TrackedResourceOptions {
	title: string;
	/** Default `published` (only published resources are tracked). */
	status?: 'draft' | 'published';
	/** Default true. */
	track_visitors?: boolean;
	/** Default true: the resource has CTA A. */
	cta?: boolean;
}

/** An article of account A; its id. */
export async function trackedResource(
	sandbox: SandboxClient,
	options: TrackedResourceOptions,
): Promise<string> {
	const fields = {
		title: options.title,
		track_visitors: options.track_visitors ?? true,
		...(options.cta === false ? {} : { cta_id: CTA_A }),
	};
	return (await sandbox.createResource(fields, options.status ?? 'published')).id;
}
