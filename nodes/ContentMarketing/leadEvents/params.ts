import type { IHookFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Both triggers take the same parameters (leadEvents/description.ts): read once, in any of their contexts. */
export type TriggerContext = IHookFunctions | IWebhookFunctions | IPollFunctions;

export { LEAD_STATUSES, WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../helpers/vocabulary';

export interface LeadFilters {
	/** Empty: every status. */
	statuses: string[];
	/** Undefined: every source resource. */
	sourceResourceId: string | undefined;
	/** Empty: every source channel. */
	sourceChannels: string[];
	/** Empty: every event; otherwise only status changes away from one of these. */
	previousStatuses: string[];
}

function strings(value: unknown): string[] {
	return Array.isArray(value)
		? value.filter((entry): entry is string => typeof entry === 'string')
		: [];
}

/** The Events parameter as set (possibly empty). */
export function subscribedEvents(this: TriggerContext): string[] {
	return [...new Set(strings((this as IPollFunctions).getNodeParameter('events', [])))];
}

/** The Events parameter where at least one type is needed (registering an endpoint, polling). */
export function selectedEvents(this: TriggerContext): string[] {
	const events = subscribedEvents.call(this);
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event to listen to');
	}
	return events;
}

export function leadFilters(this: TriggerContext): LeadFilters {
	const context = this as IPollFunctions;
	const statuses = strings(context.getNodeParameter('options.statuses', []));
	const resource = context.getNodeParameter('options.sourceResource', '', { extractValue: true });
	const sourceResourceId =
		typeof resource === 'string' && resource.trim() !== '' ? resource.trim() : undefined;
	const sourceChannels = strings(context.getNodeParameter('options.sourceChannels', []));
	const previousStatuses = strings(context.getNodeParameter('options.previousStatuses', []));
	return { statuses, sourceResourceId, sourceChannels, previousStatuses };
}

export function simplifyOutput(this: TriggerContext): boolean {
	return (this as IPollFunctions).getNodeParameter('simple', true) !== false;
}
