import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Where a poll resumes: a timestamp and the last item handled at exactly that timestamp. Timestamps have
 * second precision (docs/api-contract.md §1), so several items can share one. Lists order items of one
 * timestamp by id (§4) and an item recorded later never sorts before one already listed (§14), so the
 * items handled at `at` are exactly those whose id sorts at or before `last`: one id, however many items
 * share the second (the state stays small, docs/api-contract.md §14 "State").
 */
export interface Position {
	at: string;
	/** The id of the last item handled at `at`; none when no item at `at` was handled. */
	last?: string;
	/**
	 * The ids handled at `at`, a form saved states may still hold: read as handled too until the position
	 * leaves that second, never written.
	 */
	ids?: string[];
}

/** Before anything: every item is new. Used when the list was empty at the first poll. */
export const START: Position = { at: '1970-01-01T00:00:00Z' };

/** Milliseconds of a service timestamp; a missing or invalid one is an error, never a silent skip. */
export function timeOf(node: INode, value: unknown, field: string): number {
	const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (Number.isNaN(time)) {
		throw new NodeOperationError(node, `The service returned an item without a valid ${field}`, {
			description: `Got ${JSON.stringify(value)}`,
		});
	}
	return time;
}

/** The lists' order of ids within one timestamp (docs/api-contract.md §4): by their characters. */
function idOrder(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether an item at `time` with `id` comes after the position (and so was not handled yet). */
export function isNew(position: Position, time: number, id: string): boolean {
	const boundary = Date.parse(position.at);
	if (time !== boundary) return time > boundary;
	if (position.ids?.includes(id) === true) return false;
	return position.last === undefined || idOrder(id, position.last) > 0;
}

/** The position after handling the item (items are handled in the list's ascending order). */
export function advance(position: Position, at: string, time: number, id: string): Position {
	const boundary = Date.parse(position.at);
	if (time > boundary) return { at, last: id };
	if (time < boundary) return position;
	const last = position.last === undefined || idOrder(id, position.last) > 0 ? id : position.last;
	return position.ids === undefined ? { at: position.at, last } : { ...position, last };
}

/** The position right at the newest item of a list read newest first (its first item). */
export function positionAt(at: string, id: string): Position {
	return { at, last: id };
}

/** `created_after` that still lists the boundary second (it is exclusive, docs/api-contract.md §14). */
export function secondBefore(at: string): string {
	return new Date(Date.parse(at) - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
