import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { LeadEvent } from './leadEvent';
import { readListedEvent } from './leadEvent';
import { apiScanItems } from '../transport';
import type { Position } from './position';
import { advance, isNew, positionAt, secondBefore, START } from './position';

const EVENTS_PATH = '/v1/events';

/**
 * Events read per poll at most (10 pages); a larger backlog continues at the next poll, oldest first.
 * Bounds the memory and the size of one execution.
 */
export const MAX_EVENTS_PER_POLL = 1000;

/** Pages the manual mode reads looking for the most recent matching event. */
export const MANUAL_SCAN_PAGES = 5;

/** With one event type selected the service filters; with both, every lead event is listed. */
function typeQuery(types: string[]): IDataObject {
	return types.length === 1 ? { type: types[0] } : {};
}

/**
 * "Now" in the events list: the newest event (START when there is none). The list sorts newest first by
 * (`created_at`, `id`) (docs/api-contract.md §14), so it is the first item of one one-item page.
 */
export async function currentEventsPosition(
	this: IPollFunctions,
	deadline?: number,
): Promise<Position> {
	let position: Position | undefined;
	await apiScanItems.call(
		this,
		EVENTS_PATH,
		{ order: 'desc' },
		(item) => {
			const event = readListedEvent(this.getNode(), item);
			position = positionAt(event.createdAt, event.id);
			return 'stop';
		},
		{ pageSize: () => 1, deadline },
	);
	return position ?? START;
}

/**
 * The events after `position`, oldest first, at most MAX_EVENTS_PER_POLL, and the position after them.
 * Events created while this pages sort after the ones read (docs/api-contract.md §14), so they are read later in this
 * poll or by the next one.
 */
export async function eventsAfter(
	this: IPollFunctions,
	position: Position,
	types: string[],
	deadline?: number,
): Promise<{ events: LeadEvent[]; next: Position }> {
	const events: LeadEvent[] = [];
	let next = position;
	const qs = { order: 'asc', created_after: secondBefore(position.at), ...typeQuery(types) };
	await apiScanItems.call(
		this,
		EVENTS_PATH,
		qs,
		(item) => {
			const event = readListedEvent(this.getNode(), item);
			if (!isNew(position, event.time, event.id)) return 'continue';
			if (events.length >= MAX_EVENTS_PER_POLL) return 'stop';
			events.push(event);
			next = advance(next, event.createdAt, event.time, event.id);
			return 'continue';
		},
		{ deadline },
	);
	return { events, next };
}

/** The most recent event for which `wanted` holds, among the last MANUAL_SCAN_PAGES pages. */
export async function latestEvent(
	this: IPollFunctions,
	types: string[],
	wanted: (event: LeadEvent) => boolean,
): Promise<LeadEvent | undefined> {
	let found: LeadEvent | undefined;
	let read = 0;
	await apiScanItems.call(this, EVENTS_PATH, { order: 'desc', ...typeQuery(types) }, (item) => {
		const event = readListedEvent(this.getNode(), item);
		if (wanted(event)) {
			found = event;
			return 'stop';
		}
		read++;
		return read >= MANUAL_SCAN_PAGES * 100 ? 'stop' : 'continue';
	});
	return found;
}
