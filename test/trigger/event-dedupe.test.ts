import { randomUUID } from 'node:crypto';

import type { SeenIds } from '../../dist/nodes/ContentMarketing/trigger/eventDedupe';
import {
	DEDUPE_HORIZON_SECONDS,
	DEDUPE_MAX_IDS,
	claimEvent,
	forgetScope,
	toSeenIds,
} from '../../dist/nodes/ContentMarketing/trigger/eventDedupe';

/**
 * The de-duplication module alone, with n8n's static-data semantics played by hand: each call
 * loads the stored ids (a JSON copy of the row), and the save serializes the call's static data
 * whole, when n8n saves it, replacing the row (last write wins).
 */
const NOW = 1_800_000_000;

/** One n8n process (its own memory scope for the endpoint). */
const newProcess = () => `process-${randomUUID()}`;

/** The database row's `seen`, as a call loads it. */
class Row {
	seen: SeenIds = {};

	load(): SeenIds {
		return toSeenIds(JSON.parse(JSON.stringify(this.seen)), NOW);
	}

	/** What a call's save writes: its static data as it is now, or nothing if unchanged. */
	save(store: SeenIds | undefined): void {
		if (store !== undefined) this.seen = JSON.parse(JSON.stringify(store)) as SeenIds;
	}
}

const ids = (seen: SeenIds) => Object.keys(seen).sort();

describe('eventDedupe: claims', () => {
	test('a new id is accepted and handed back for storing; the same id again is a duplicate', () => {
		const scope = newProcess();
		const row = new Row();

		const first = claimEvent(scope, row.load(), 'evt_1', NOW);
		row.save(first.store);
		const again = claimEvent(scope, row.load(), 'evt_1', NOW);

		expect(first.duplicate).toBe(false);
		expect(row.seen).toEqual({ evt_1: NOW });
		expect(again).toEqual({ duplicate: true, store: undefined });
	});

	test('after a restart (empty memory) the stored ids still make a re-delivery a duplicate', () => {
		const row = new Row();
		row.save(claimEvent(newProcess(), row.load(), 'evt_1', NOW).store);

		const afterRestart = claimEvent(newProcess(), row.load(), 'evt_1', NOW + 60);

		expect(afterRestart.duplicate).toBe(true);
		expect(afterRestart.store).toBeUndefined();
	});

	test('ids stored by earlier versions (a plain list) are read as seen now', () => {
		expect(toSeenIds(['evt_a', 'evt_b', 3, ''], NOW)).toEqual({ evt_a: NOW, evt_b: NOW });
		expect(toSeenIds({ evt_a: 5, evt_b: 'x', evt_c: null }, NOW)).toEqual({ evt_a: 5 });
		expect(toSeenIds(undefined, NOW)).toEqual({});
	});
});

describe('eventDedupe: concurrent calls with last-write-wins saves', () => {
	test('two overlapping calls on one process: the later save still holds both ids', () => {
		const scope = newProcess();
		const row = new Row();
		const loadedByFirst = row.load();
		const loadedBySecond = row.load();

		const first = claimEvent(scope, loadedByFirst, 'evt_1', NOW);
		const second = claimEvent(scope, loadedBySecond, 'evt_2', NOW);
		row.save(second.store);
		// The first call saves last, from its stale load: its set is the process's live set.
		row.save(first.store);

		expect(ids(row.seen)).toEqual(['evt_1', 'evt_2']);
	});

	test('a save another process overwrote is repaired by the next call of the process that lost it', () => {
		const [a, b] = [newProcess(), newProcess()];
		const row = new Row();
		const loadedByA = row.load();
		const loadedByB = row.load();
		const onA = claimEvent(a, loadedByA, 'evt_a', NOW);
		const onB = claimEvent(b, loadedByB, 'evt_b', NOW);
		row.save(onB.store);
		row.save(onA.store);
		expect(ids(row.seen)).toEqual(['evt_a']);

		// B's next call, even a duplicate, puts back what the row lacks.
		const replayOnB = claimEvent(b, row.load(), 'evt_b', NOW + 1);
		row.save(replayOnB.store);

		expect(replayOnB.duplicate).toBe(true);
		expect(ids(row.seen)).toEqual(['evt_a', 'evt_b']);
		// Now a re-delivery on A, or on a restarted process, is caught from the row alone.
		expect(claimEvent(a, row.load(), 'evt_b', NOW + 10).duplicate).toBe(true);
		expect(claimEvent(newProcess(), row.load(), 'evt_a', NOW + 10).duplicate).toBe(true);
	});

	test('a merge keeps the earliest time of an id seen on both sides', () => {
		const scope = newProcess();
		const row = new Row();
		row.seen = { evt_1: NOW - 100 };
		claimEvent(scope, { evt_1: NOW - 50 } as SeenIds, 'evt_x', NOW);

		const result = claimEvent(scope, row.load(), 'evt_2', NOW);

		expect(result.store?.evt_1).toBe(NOW - 100);
	});
});

describe('eventDedupe: bounds and expiry', () => {
	test('an id older than the retry horizon expires; one just inside it is still a duplicate', () => {
		const row = new Row();
		row.seen = {
			evt_old: NOW - DEDUPE_HORIZON_SECONDS - 1,
			evt_recent: NOW - DEDUPE_HORIZON_SECONDS + 1,
		};

		const old = claimEvent(newProcess(), row.load(), 'evt_old', NOW);
		const recent = claimEvent(newProcess(), row.load(), 'evt_recent', NOW);

		expect(old.duplicate).toBe(false);
		expect(recent.duplicate).toBe(true);
	});

	test("the retry horizon covers the contract's schedule (10 s, 1 min, 10 min, 1 h, 6 h, 5 s per attempt)", () => {
		const lastAttempt = 10 + 60 + 600 + 3600 + 21600 + 6 * 5;
		expect(DEDUPE_HORIZON_SECONDS).toBeGreaterThan(lastAttempt);
	});

	test('at most DEDUPE_MAX_IDS ids are kept, the oldest dropped first', () => {
		const scope = newProcess();
		const full: SeenIds = {};
		// Stored newest first, so that insertion order and age disagree.
		for (let i = DEDUPE_MAX_IDS - 1; i >= 0; i--) full[`evt_${i}`] = NOW - 1000 + i * 0.1;

		const result = claimEvent(scope, full, 'evt_new', NOW);

		expect(result.duplicate).toBe(false);
		const kept = Object.keys(result.store ?? {});
		expect(kept).toHaveLength(DEDUPE_MAX_IDS);
		expect(kept).toContain('evt_new');
		expect(kept).not.toContain('evt_0');
		expect(kept).toContain('evt_1');
		forgetScope(scope);
	});

	test('a forgotten scope (endpoint deleted) starts from the stored ids only', () => {
		const scope = newProcess();
		claimEvent(scope, {} as SeenIds, 'evt_1', NOW);
		forgetScope(scope);

		expect(claimEvent(scope, {} as SeenIds, 'evt_1', NOW).duplicate).toBe(false);
	});
});
