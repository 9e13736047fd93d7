import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Where a poll resumes: a timestamp and the ids of the items at exactly that timestamp that were already
 * handled. Timestamps have second precision (docs/api-contract.md §1), so several items can share one; the ids at the
 * boundary let the next poll take the others without repeating these, whatever the ids' own order.
 */
export interface Position {
	at: string;
	ids: string[];
}

/** Before anything: every item is new. Used when the list was empty at the first poll. */
export const START: Position = { at: '1970-01-01T00:00:00Z', ids: [] };

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

/** Whether an item at `time` with `id` comes after the position (and so was not handled yet). */
export function isNew(position: Position, time: number, id: string): boolean {
	const boundary = Date.parse(position.at);
	return time > boundary || (time === boundary && !position.ids.includes(id));
}

/** The position after handling the item (items are handled in ascending time). */
export function advance(position: Position, at: string, time: number, id: string): Position {
	const boundary = Date.parse(position.at);
	if (time > boundary) return { at, ids: [id] };
	if (time === boundary) return { at: position.at, ids: [...position.ids, id] };
	return position;
}

/** `created_after` that still lists the boundary second (it is exclusive, docs/api-contract.md §14). */
export function secondBefore(at: string): string {
	return new Date(Date.parse(at) - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
