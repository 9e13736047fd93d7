import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

type TriggerContext = IHookFunctions | IWebhookFunctions;

export {
	LEAD_STATUSES,
	WEBHOOK_EVENT_TYPES as EVENT_TYPES,
} from '../ContentMarketing/helpers/vocabulary';

export interface LeadFilters {
	/** Empty: every status. */
	statuses: string[];
	/** Undefined: every source resource. */
	sourceResourceId: string | undefined;
}

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

/** The Events parameter as set (possibly empty). */
export function subscribedEvents(this: TriggerContext): string[] {
	return [...new Set(strings(this.getNodeParameter('events', [])))];
}

/** The Events parameter for registering an endpoint, which needs at least one type. */
export function selectedEvents(this: IHookFunctions): string[] {
	const events = subscribedEvents.call(this);
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event to listen to');
	}
	return events;
}

export function leadFilters(this: IWebhookFunctions): LeadFilters {
	const statuses = strings(this.getNodeParameter('options.statuses', []));
	const resource = this.getNodeParameter('options.sourceResource', '', { extractValue: true });
	const sourceResourceId =
		typeof resource === 'string' && resource.trim() !== '' ? resource.trim() : undefined;
	return { statuses, sourceResourceId };
}

export function simplifyOutput(this: IWebhookFunctions): boolean {
	return this.getNodeParameter('simple', true) !== false;
}

/** In-memory de-duplication scope: one per workflow, trigger node and endpoint. */
export function dedupeScope(this: TriggerContext, endpointId: string): string {
	return `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}\u0000${endpointId}`;
}
