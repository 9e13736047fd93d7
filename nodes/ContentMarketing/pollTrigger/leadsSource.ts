import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { LeadEvent } from './leadEvent';
import { INITIAL_STATUS, synthesizedEvent } from './leadEvent';
import { apiScanItems } from '../transport';
import type { Position } from './position';
import { advance, isNew, START, timeOf } from './position';

// The fallback for a service without GET /v1/events: what GET /v1/leads itself shows (docs/api-contract.md §14,
// "Fallback"). New leads by `created_at`; status changes by comparing each recently updated lead's status
// with the one remembered for it.

const LEADS_PATH = '/v1/leads';

/** Leads whose last seen status is remembered (the most recently updated ones). */
export const MAX_REMEMBERED_STATUSES = 1000;

export interface LeadsCursor {
	created: Position;
	updatedAt: string;
	statuses: Record<string, string>;
}

function leadId(lead: IDataObject): string {
	return String(lead.id);
}

/** Newest first by `sort` (the list's keyset order, docs/api-contract.md §4). */
function newestFirst(sort: 'created_at' | 'updated_at'): IDataObject {
	return { sort, order: 'desc' };
}

/** Moves the given leads to the newest end of the memory (given newest first) and drops the oldest. */
function remember(
	statuses: Record<string, string>,
	newestFirstSeen: Array<[string, string]>,
): Record<string, string> {
	const next = { ...statuses };
	for (const [id, status] of [...newestFirstSeen].reverse()) {
		delete next[id];
		next[id] = status;
	}
	const ids = Object.keys(next);
	for (const id of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED_STATUSES))) delete next[id];
	return next;
}

/** "Now" in the leads list, with the statuses of the most recently updated leads remembered. */
export async function currentLeadsCursor(this: IPollFunctions): Promise<LeadsCursor> {
	const node = this.getNode();
	let created: Position | undefined;
	await apiScanItems.call(this, LEADS_PATH, newestFirst('created_at'), (lead) => {
		const time = timeOf(node, lead.created_at, 'created_at');
		if (created === undefined) {
			created = { at: lead.created_at as string, ids: [leadId(lead)] };
			return 'continue';
		}
		if (time !== Date.parse(created.at)) return 'stop';
		created.ids.push(leadId(lead));
		return 'continue';
	});
	let updatedAt: string | undefined;
	const seen: Array<[string, string]> = [];
	await apiScanItems.call(this, LEADS_PATH, newestFirst('updated_at'), (lead) => {
		timeOf(node, lead.updated_at, 'updated_at');
		updatedAt ??= lead.updated_at as string;
		seen.push([leadId(lead), String(lead.status)]);
		return seen.length >= MAX_REMEMBERED_STATUSES ? 'stop' : 'continue';
	});
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
): Promise<{ events: LeadEvent[]; next: Position }> {
	const node = this.getNode();
	const boundary = Date.parse(position.at);
	const newestFirstEvents: LeadEvent[] = [];
	await apiScanItems.call(this, LEADS_PATH, newestFirst('created_at'), (lead) => {
		const time = timeOf(node, lead.created_at, 'created_at');
		if (time < boundary) return 'stop';
		if (time <= until && isNew(position, time, leadId(lead))) {
			newestFirstEvents.push(synthesizedEvent(node, lead, 'lead.created'));
		}
		return 'continue';
	});
	const events = newestFirstEvents.reverse();
	let next = position;
	for (const event of events)
		next = advance(next, event.createdAt, event.time, leadId(event.data.lead as IDataObject));
	return { events, next };
}

/**
 * Status changes among the leads updated since `updatedAt` (that second included, as more updates may
 * land in it): a lead whose status differs from the remembered one, or (not remembered) a lead created
 * since `updatedAt` whose status is no longer the initial one. Other leads' changes cannot be told apart.
 */
async function statusChangesSince(
	this: IPollFunctions,
	cursor: LeadsCursor,
): Promise<{ events: LeadEvent[]; updatedAt: string; statuses: Record<string, string> }> {
	const node = this.getNode();
	const since = Date.parse(cursor.updatedAt);
	const events: LeadEvent[] = [];
	const seen: Array<[string, string]> = [];
	let updatedAt = cursor.updatedAt;
	await apiScanItems.call(this, LEADS_PATH, newestFirst('updated_at'), (lead) => {
		const time = timeOf(node, lead.updated_at, 'updated_at');
		if (time < since) return 'stop';
		if (seen.length === 0) updatedAt = lead.updated_at as string;
		const id = leadId(lead);
		const status = String(lead.status);
		const createdSince = timeOf(node, lead.created_at, 'created_at') >= since;
		const previous = cursor.statuses[id] ?? (createdSince ? INITIAL_STATUS : undefined);
		if (previous !== undefined && previous !== status) {
			events.push(synthesizedEvent(node, lead, 'lead.status_updated', previous));
		}
		if (seen.length < MAX_REMEMBERED_STATUSES) seen.push([id, status]);
		return 'continue';
	});
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
): Promise<{ events: LeadEvent[]; next: LeadsCursor }> {
	const changes = await statusChangesSince.call(this, cursor);
	const created = await createdAfter.call(this, cursor.created, Date.parse(changes.updatedAt));
	const unseen = created.events
		.map((event) => leadId(event.data.lead as IDataObject))
		.filter((id) => changes.statuses[id] === undefined)
		.map((id): [string, string] => [id, INITIAL_STATUS])
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
