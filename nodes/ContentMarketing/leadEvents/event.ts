import type { IDataObject } from 'n8n-workflow';

import type { LeadFilters } from './params';
import { isObject } from '../helpers/values';

/** A delivery body (docs/api-contract.md §10): `{ id, type, created_at, api_version, account_id, data }`. */
export interface DeliveredEvent {
	id: string;
	type: string;
	body: IDataObject;
	data: IDataObject;
}

const MAX_EVENT_ID_LENGTH = 255;

/** Parses the verified raw body; undefined when it is not an event. */
export function parseEvent(rawBody: Buffer): DeliveredEvent | undefined {
	let body: unknown;
	try {
		body = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return undefined;
	}
	if (!isObject(body)) return undefined;
	const { id, type, data } = body;
	if (typeof id !== 'string' || id === '' || id.length > MAX_EVENT_ID_LENGTH) return undefined;
	if (typeof type !== 'string' || !isObject(data)) return undefined;
	return { id, type, body, data };
}

export function leadOf(event: DeliveredEvent): IDataObject | undefined {
	return isObject(event.data.lead) ? event.data.lead : undefined;
}

/**
 * Whether an event passes the trigger's Options: the status filter applies to the lead's status after the
 * event (`new` for a created lead), the previous-status filter to the event's `data.previous_status`
 * (docs/api-contract.md §10), which only a status change has.
 */
export function passesFilters(
	lead: IDataObject,
	filters: LeadFilters,
	previousStatus: unknown,
): boolean {
	if (filters.statuses.length > 0 && !filters.statuses.includes(String(lead.status))) return false;
	if (
		filters.previousStatuses.length > 0 &&
		(typeof previousStatus !== 'string' || !filters.previousStatuses.includes(previousStatus))
	)
		return false;
	if (
		filters.sourceChannels.length > 0 &&
		!filters.sourceChannels.includes(String(lead.source_channel))
	)
		return false;
	if (
		filters.sourceResourceId !== undefined &&
		lead.source_resource_id !== filters.sourceResourceId
	)
		return false;
	return true;
}

/** Simplified: the lead's fields plus the event's metadata. Raw: the whole payload. */
export function toOutput(event: DeliveredEvent, lead: IDataObject, simplify: boolean): IDataObject {
	if (!simplify) return event.body;
	const previous = event.data.previous_status;
	const occurredAt = event.body.created_at;
	return {
		...lead,
		event_id: event.id,
		event_type: event.type,
		previous_status: typeof previous === 'string' ? previous : null,
		occurred_at: typeof occurredAt === 'string' ? occurredAt : null,
	};
}

/** The event id of an item toOutput made: `event_id` when simplified, `id` when raw. */
export function eventIdOfItem(json: IDataObject): string | undefined {
	const id = json.event_id ?? json.id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}
