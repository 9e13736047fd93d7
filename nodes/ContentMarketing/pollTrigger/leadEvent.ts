import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DeliveredEvent } from '../leadEvents/event';
import { leadOf, passesFilters, toOutput } from '../leadEvents/event';
import type { LeadFilters } from '../leadEvents/params';
import { timeOf } from './position';
import { isObject } from '../helpers/values';

/** An event as the webhook delivers it (docs/api-contract.md §10 body), whichever source it came from. */
export interface LeadEvent extends DeliveredEvent {
	createdAt: string;
	/** Milliseconds of `createdAt`, for ordering. */
	time: number;
}

/** An item of `GET /v1/events` (docs/api-contract.md §14); a malformed one is an error, not skipped. */
export function readListedEvent(node: INode, item: IDataObject): LeadEvent {
	const { id, type, created_at: createdAt, data } = item;
	if (typeof id !== 'string' || id === '' || typeof type !== 'string' || !isObject(data)) {
		throw new NodeOperationError(node, 'The service listed an event without an id, type or data', {
			description: JSON.stringify(item).slice(0, 500),
		});
	}
	return {
		id,
		type,
		body: item,
		data,
		createdAt: createdAt as string,
		time: timeOf(node, createdAt, 'created_at'),
	};
}

/** docs/api-contract.md §5: every lead starts with this status. */
export const INITIAL_STATUS = 'new';

/**
 * An event made from a lead seen in `GET /v1/leads` (the fallback): the same body as a delivery, with an
 * id of our own (`<lead id>:created` or `<lead id>:status:<updated_at>`) and no `account_id`. The lead is
 * as the list shows it now, except that a creation carries the status every lead is created with (as a
 * delivery of `lead.created` does, and as Only Lead Statuses expects).
 */
export function synthesizedEvent(
	node: INode,
	lead: IDataObject,
	type: 'lead.created' | 'lead.status_updated',
	previousStatus?: string,
): LeadEvent {
	const field = type === 'lead.created' ? 'created_at' : 'updated_at';
	const createdAt = lead[field];
	const time = timeOf(node, createdAt, field);
	const id =
		type === 'lead.created'
			? `${String(lead.id)}:created`
			: `${String(lead.id)}:status:${String(createdAt)}`;
	const data: IDataObject = {
		lead: type === 'lead.created' ? { ...lead, status: INITIAL_STATUS } : lead,
	};
	if (type === 'lead.status_updated') data.previous_status = previousStatus ?? null;
	const body: IDataObject = { id, type, created_at: createdAt as string, api_version: 'v1', data };
	return { id, type, body, data, createdAt: createdAt as string, time };
}

/** The output item of the webhook trigger for this event, or undefined when the options filter it out. */
export function toItem(
	node: INode,
	event: LeadEvent,
	filters: LeadFilters,
	simplify: boolean,
): INodeExecutionData | undefined {
	const lead = leadOf(event);
	if (lead === undefined) {
		throw new NodeOperationError(node, `The service sent event ${event.id} without a lead`);
	}
	if (!passesFilters(lead, filters, event.data.previous_status)) return undefined;
	return { json: toOutput(event, lead, simplify) };
}
