import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { LeadFilters } from '../ContentMarketingTrigger/params';

// The webhook trigger's parameters (same names, same meaning) read in a poll context; its own readers
// in ContentMarketingTrigger/params.ts are typed for webhook contexts only.

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

/** The Events parameter; at least one is needed. */
export function pollEventTypes(this: IPollFunctions): string[] {
	const events = [...new Set(strings(this.getNodeParameter('events', [])))];
	if (events.length === 0)
		throw new NodeOperationError(this.getNode(), 'Select at least one event to listen to');
	return events;
}

export function pollLeadFilters(this: IPollFunctions): LeadFilters {
	const statuses = strings(this.getNodeParameter('options.statuses', []));
	const resource = this.getNodeParameter('options.sourceResource', '', { extractValue: true });
	const sourceResourceId =
		typeof resource === 'string' && resource.trim() !== '' ? resource.trim() : undefined;
	return { statuses, sourceResourceId };
}

export function pollSimplify(this: IPollFunctions): boolean {
	return this.getNodeParameter('simple', true) !== false;
}
