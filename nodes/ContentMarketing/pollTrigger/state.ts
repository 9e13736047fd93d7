import type { IDataObject } from 'n8n-workflow';

import type { Position } from './position';
import { isObject } from '../helpers/values';

/**
 * What the node keeps in its static data. n8n saves it when a poll returns items and after the first
 * poll of an activation (or restart); nothing else is saved. Every field below therefore either only
 * moves together with emitted items, or is recomputed identically when a restart re-reads from the saved
 * state (docs/api-contract.md §14, "Polling").
 *
 * - `source: "events"`: `events` is the position in `GET /v1/events`.
 * - `source: "leads"` (the fallback): `created` is the position in leads by `created_at`; `updatedAt` the
 *   newest `updated_at` seen; `statuses` the last status seen of the most recently updated leads
 *   (lead id → status, oldest first, bounded).
 */
export type PollState =
	| { source: 'events'; events: Position }
	| { source: 'leads'; created: Position; updatedAt: string; statuses: Record<string, string> };

function readPosition(value: unknown): Position | undefined {
	if (!isObject(value) || typeof value.at !== 'string' || Number.isNaN(Date.parse(value.at)))
		return undefined;
	const ids = Array.isArray(value.ids)
		? value.ids.filter((id): id is string => typeof id === 'string')
		: [];
	return { at: value.at, ids };
}

function readStatuses(value: unknown): Record<string, string> {
	const statuses: Record<string, string> = {};
	if (!isObject(value)) return statuses;
	for (const [id, status] of Object.entries(value))
		if (typeof status === 'string') statuses[id] = status;
	return statuses;
}

/** The saved state, or undefined before the first poll (or when it is unreadable: start afresh). */
export function readState(data: IDataObject): PollState | undefined {
	const { cursor } = data;
	if (!isObject(cursor)) return undefined;
	if (cursor.source === 'events') {
		const events = readPosition(cursor.events);
		return events && { source: 'events', events };
	}
	if (cursor.source === 'leads') {
		const created = readPosition(cursor.created);
		const updatedAt = typeof cursor.updatedAt === 'string' ? cursor.updatedAt : undefined;
		if (created === undefined || updatedAt === undefined || Number.isNaN(Date.parse(updatedAt)))
			return undefined;
		return { source: 'leads', created, updatedAt, statuses: readStatuses(cursor.statuses) };
	}
	return undefined;
}

/** Replaces the top-level value, which n8n's change tracking sees (it does not see nested changes). */
export function writeState(data: IDataObject, state: PollState): void {
	data.cursor = state as unknown as IDataObject;
}
