import type { IDataObject } from 'n8n-workflow';

import type { Position } from './position';
import type { StatusMemory } from './statusMemory';
import { packStatuses, unpackStatuses } from './statusMemory';
import { isObject } from '../helpers/values';

/**
 * What the node keeps in its static data (docs/api-contract.md §14, "State"). Every field either only
 * moves over events the node has handled, or is recomputed identically when a poll re-reads from an
 * older saved state: n8n may drop what a poll wrote (see activationState.ts), and then the next poll simply reads
 * the same events again.
 *
 * - `source: "events"`: `events` is the position in `GET /v1/events`.
 * - `source: "leads"` (the fallback): `created` is the position in leads by `created_at`; `updatedAt` the
 *   newest `updated_at` seen; `statuses` the last status seen of the most recently updated leads
 *   (statusMemory.ts, bounded).
 *
 * Saved, one position is at most a timestamp and an id; the memory of statuses at most 12 kB.
 */
export type PollState =
	| { source: 'events'; events: Position }
	| { source: 'leads'; created: Position; updatedAt: string; statuses: StatusMemory };

function readPosition(value: unknown): Position | undefined {
	if (!isObject(value) || typeof value.at !== 'string' || Number.isNaN(Date.parse(value.at)))
		return undefined;
	const position: Position = { at: value.at };
	if (typeof value.last === 'string') position.last = value.last;
	// A form saved states may still hold; dropped as soon as the position leaves its second.
	if (Array.isArray(value.ids))
		position.ids = value.ids.filter((id): id is string => typeof id === 'string');
	return position;
}

/** A saved state (the node's `cursor`, or its activation state), or undefined when there is none or it is unreadable. */
export function parseState(cursor: unknown): PollState | undefined {
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
		return { source: 'leads', created, updatedAt, statuses: unpackStatuses(cursor.statuses) };
	}
	return undefined;
}

/** The saved form of a state (plain JSON, statuses packed). */
export function savedState(state: PollState): IDataObject {
	if (state.source === 'events') return { source: 'events', events: { ...state.events } };
	return {
		source: 'leads',
		created: { ...state.created },
		updatedAt: state.updatedAt,
		statuses: packStatuses(state.statuses),
	};
}

/** The saved state, or undefined before the first poll (or when it is unreadable: start afresh). */
export function readState(data: IDataObject): PollState | undefined {
	return parseState(data.cursor);
}

/** Replaces the top-level value, which n8n's change tracking sees (it does not see nested changes). */
export function writeState(data: IDataObject, state: PollState): void {
	data.cursor = savedState(state);
}
