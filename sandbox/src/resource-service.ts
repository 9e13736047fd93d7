import type { ResourceStatus } from './behaviour/host';
import type { FileInfo, ResourceType, StoredResource } from './model';
import type { Sandbox } from './sandbox';

export interface NewResource {
	title: string;
	type: ResourceType;
	description?: string | null;
	tags?: string[];
	cta_id?: string | null;
	track_visitors?: boolean;
	file?: FileInfo | null;
	/** Seed only: a later state and its times. */
	status?: ResourceStatus;
	created_at?: string;
	published_at?: string | null;
	archived_at?: string | null;
}

export function createResource(
	sandbox: Sandbox,
	accountId: string,
	input: NewResource,
): StoredResource {
	const createdAt = input.created_at ?? sandbox.nowIso();
	const resource: StoredResource = {
		id: sandbox.ids.next('res'),
		account_id: accountId,
		title: input.title,
		type: input.type,
		status: input.status ?? 'draft',
		description: input.description ?? null,
		tags: [...(input.tags ?? [])],
		cta_id: input.cta_id ?? null,
		track_visitors: input.track_visitors ?? true,
		preview_token: sandbox.ids.token(24),
		file: input.file ?? null,
		created_at: createdAt,
		updated_at: input.archived_at ?? input.published_at ?? createdAt,
		published_at: input.published_at ?? null,
		archived_at: input.archived_at ?? null,
		deleted: false,
	};
	sandbox.store.resources.set(resource.id, resource);
	return resource;
}
