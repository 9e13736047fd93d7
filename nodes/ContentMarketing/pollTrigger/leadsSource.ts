import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { LeadEvent } from './leadEvent';
import { INITIAL_STATUS, synthesizedEvent } from './leadEvent';
import { apiScanItems } from '../transport';
import type { Position } from './position';
import { advance, isNew, positionAt, START, timeOf } from './position';
import type { StatusMemory } from './statusMemory';
import { MAX_REMEMBERED_STATUSES, remember, statusKey } from './statusMemory';

export { MAX_REMEMBERED_STATUSES } from './statusMemory';

// The fallback for a service without GET /v1/events: what GET /v1/leads itself shows (docs/api-contract.md §14,
// "Fallback"). New leads by `created_at`; status changes by comparing each recently updated lead's status
// with the one remembered for it.

const LEADS_PATH = '/v1/leads';

export interface LeadsCursor {
	created: Position;
	updatedAt: string;
	statuses: StatusMemory;
}

function leadId(lead: IDataObject): string {
	return String(lead.id);
}

/** Newest first by `sort` (the list's keyset order, docs/api-contract.md §4). */
function newestFirst(sort: 'created_at' | 'updated_at'): IDataObject {
	return { sort, order: 'desc' };
}

/** "Now" in the leads list, with the statuses of the most recently updated leads remembered. */
export async function currentLeadsCursor(
	this: IPollFunctions,
	deadline?: number,
): Promise<LeadsCursor> {
	const node = this.getNode();
	let created: Position | undefined;
	// The newest lead sorts first (ties by id, docs/api-contract.md §4): one one-item page.
	await apiScanItems.call(
		this,
		LEADS_PATH,
		newestFirst('created_at'),
		(lead) => {
			timeOf(node, lead.created_at, 'created_at');
			created = positionAt(lead.created_at as string, leadId(lead));
			return 'stop';
		},
		{ pageSize: () => 1, deadline },
	);
	let updatedAt: string | undefined;
	const seen: Array<[string, string]> = [];
	await apiScanItems.call(
		this,
		LEADS_PATH,
		newestFirst('updated_at'),
		(lead) => {
			timeOf(node, lead.updated_at, 'updated_at');
			updatedAt ??= lead.updated_at as string;
			seen.push([statusKey(leadId(lead)), String(lead.status)]);
			return seen.length >= MAX_REMEMBERED_STATUSES ? 'stop' : 'continue';
		},
		{ deadline },
	);
	return {
		created: created ?? START,
		updatedAt: updatedAt ?? START.at,
		statuses: remember({}, seen),
	};
}

/**
 * Leads created after the position and not after `until`, oldest first, and the position after them.
 * Later ones are left for the next poll (they sort after everything this poll emits).
 */
async function createdAfter(
	this: IPollFunctions,
	position: Position,
	until: number,
	deadline?: number,
): Promise<{ events: LeadEvent[]; next: Position }> {
	const node = this.getNode();
	const boundary = Date.parse(position.at);
	const newestFirstEvents: LeadEvent[] = [];
	await apiScanItems.call(
		this,
		LEADS_PATH,
		newestFirst('created_at'),
		(lead) => {
			const time = timeOf(node, lead.created_at, 'created_at');
			if (time < boundary) return 'stop';
			if (time <= until && isNew(position, time, leadId(lead))) {
				newestFirstEvents.push(synthesizedEvent(node, lead, 'lead.created'));
			}
			return 'continue';
		},
		{ deadline },
	);
	const events = newestFirstEvents.reverse();
	let next = position;
	for (const event of events)
		next = advance(next, event.createdAt, event.time, leadId(event.data.lead as IDataObject));
	return { events, next };
}

/**
 * Status changes among the leads updated since `updatedAt` (that second included, as more updates may
 * land in it): a lead whose status differs from the remembered one, or (not remembered) a lead created
 * after the position in leads by `created_at` whose status is no longer the initial one. Other leads'
 * changes cannot be told apart.
 *
 * "Created after the position", not "created since `updatedAt`": a lead created in that very second may
 * have existed at the previous poll and been left out of the memory (more than MAX_REMEMBERED_STATUSES
 * leads updated in one second); taking it as `new` would emit a change made before that poll, even
 * before the activation. The position says which leads of the second the previous poll had already
 * listed (ids grow with time, docs/api-contract.md §14 "Fallback").
 */
async function statusChangesSince(
	this: IPollFunctions,
	cursor: LeadsCursor,
	deadline?: number,
): Promise<{ events: LeadEvent[]; updatedAt: string; statuses: StatusMemory }> {
	const node = this.getNode();
	const since = Date.parse(cursor.updatedAt);
	const events: LeadEvent[] = [];
	const seen: Array<[string, string]> = [];
	let updatedAt = cursor.updatedAt;
	await apiScanItems.call(
		this,
		LEADS_PATH,
		newestFirst('updated_at'),
		(lead) => {
			const time = timeOf(node, lead.updated_at, 'updated_at');
			if (time < since) return 'stop';
			if (seen.length === 0) updatedAt = lead.updated_at as string;
			const key = statusKey(leadId(lead));
			const status = String(lead.status);
			const createdSince = isNew(
				cursor.created,
				timeOf(node, lead.created_at, 'created_at'),
				leadId(lead),
			);
			const previous = cursor.statuses[key] ?? (createdSince ? INITIAL_STATUS : undefined);
			if (previous !== undefined && previous !== status) {
				events.push(synthesizedEvent(node, lead, 'lead.status_updated', previous));
			}
			if (seen.length < MAX_REMEMBERED_STATUSES) seen.push([key, status]);
			return 'continue';
		},
		{ deadline },
	);
	events.reverse();
	return { events, updatedAt, statuses: remember(cursor.statuses, seen) };
}

/**
 * Every lead event the leads list shows since the cursor, in time order (a creation before a change).
 * Status changes are read first: their newest `updated_at` bounds the creations taken (every lead's
 * `updated_at` is at least its `created_at`), so nothing emitted later can be older than what this poll
 * emits. A lead emitted as created and not seen by the status scan is remembered with the initial status,
 * so that its first change is seen.
 */
export async function leadEventsSince(
	this: IPollFunctions,
	cursor: LeadsCursor,
	deadline?: number,
): Promise<{ events: LeadEvent[]; next: LeadsCursor }> {
	const changes = await statusChangesSince.call(this, cursor, deadline);
	const created = await createdAfter.call(
		this,
		cursor.created,
		Date.parse(changes.updatedAt),
		deadline,
	);
	const unseen = created.events
		.map((event) => statusKey(leadId(event.data.lead as IDataObject)))
		.filter((key) => changes.statuses[key] === undefined)
		.map((key): [string, string] => [key, INITIAL_STATUS])
		.reverse();
	const rank = (event: LeadEvent) => (event.type === 'lead.created' ? 0 : 1);
	const events = [...created.events, ...changes.events].sort(
		(a, b) => a.time - b.time || rank(a) - rank(b),
	);
	return {
		events,
		next: {
			created: created.next,
			updatedAt: changes.updatedAt,
			statuses: remember(changes.statuses, unseen),
		},
	};
}

/** Manual mode: the most recently created (or, for status changes only, updated) lead that `wanted` accepts. */
export async function latestLeadEvent(
	this: IPollFunctions,
	types: string[],
	wanted: (event: LeadEvent) => boolean,
): Promise<LeadEvent | undefined> {
	const node = this.getNode();
	const type = types.includes('lead.created') ? 'lead.created' : 'lead.status_updated';
	const sort = type === 'lead.created' ? 'created_at' : 'updated_at';
	let found: LeadEvent | undefined;
	let read = 0;
	await apiScanItems.call(this, LEADS_PATH, newestFirst(sort), (lead) => {
		const event = synthesizedEvent(node, lead, type);
		if (wanted(event)) {
			found = event;
			return 'stop';
		}
		read++;
		return read >= 500 ? 'stop' : 'continue';
	});
	return found;
}
