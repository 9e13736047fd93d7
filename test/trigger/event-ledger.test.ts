import { randomUUID } from 'node:crypto';

import type { StoredDedupe } from '../../dist/nodes/ContentMarketing/trigger/eventLedger';
import {
	DEDUPE_HORIZON_SECONDS,
	JOURNAL_MAX_IDS,
	MEMORY_MAX_IDS,
	PENDING_STALE_SECONDS,
	acceptEvent,
	checkEvent,
	forgetScope,
	journalSeconds,
	noteRunWithoutCall,
	runsWithoutCallHeld,
} from '../../dist/nodes/ContentMarketing/trigger/eventLedger';
import type { JournalSegments } from '../../dist/nodes/ContentMarketing/trigger/eventJournal';
import { fingerprint } from '../../dist/nodes/ContentMarketing/trigger/eventJournal';

/**
 * The de-duplication module alone, with n8n's static-data semantics played by hand: each call
 * loads the stored journal (a JSON copy of the row), and the save serializes the call's static data
 * whole, when n8n saves it, replacing the row (last write wins).
 */
const NOW = 1_800_000_000;
/** CM-Delivery-Attempt of a first delivery and of the service's first retry (docs/api-contract.md §10). */
const FIRST = 1;
const RETRY = 2;

/** The HTTP response of a call n8n is still handling, and of one it has answered. */
const OPEN = { writableEnded: false };
const ENDED = { writableEnded: true };

/**
 * One call of the trigger for an event whose execution n8n stores at once: the check, then, for a new
 * event, its acceptance. `store` is what the call puts into static data (undefined: nothing).
 */
function checkThenAccept(
	scope: string,
	stored: StoredDedupe,
	eventId: string,
	attempt: number | undefined,
	nowSeconds: number,
): { duplicate: boolean; store: JournalSegments | undefined } {
	const check = checkEvent(scope, stored, eventId, attempt, nowSeconds, OPEN);
	if (check.verdict === 'in progress') return { duplicate: false, store: undefined };
	if (check.verdict === 'duplicate') return { duplicate: true, store: check.store };
	return { duplicate: false, store: acceptEvent(scope, eventId, attempt, nowSeconds) };
}

/** One n8n process (its own memory scope for the endpoint). */
const newProcess = () => `process-${randomUUID()}`;

/** The database row's journal, as a call loads it. */
class Row {
	recent: JournalSegments = {};

	load(): StoredDedupe {
		return { recent: JSON.parse(JSON.stringify(this.recent)) as unknown };
	}

	/** What a call's save writes: its static data as it is now, or nothing if unchanged. */
	save(store: JournalSegments | undefined): void {
		if (store === undefined) return;
		this.recent = JSON.parse(JSON.stringify(store)) as JournalSegments;
	}

	/** The fingerprints the row holds, with when each expires. */
	entries(): Map<string, number> {
		const found = new Map<string, number>();
		for (const [key, text] of Object.entries(this.recent))
			for (let at = 0; at < text.length; at += 8) found.set(text.slice(at, at + 8), Number(key));
		return found;
	}

	holds(...ids: string[]): boolean {
		const entries = this.entries();
		return ids.every((id) => entries.has(fingerprint(id)));
	}
}

describe('eventLedger: claims', () => {
	test('a new id is accepted and handed back for storing; the same id again is a duplicate', () => {
		const scope = newProcess();
		const row = new Row();

		const first = checkThenAccept(scope, row.load(), 'evt_1', FIRST, NOW);
		row.save(first.store);
		const again = checkThenAccept(scope, row.load(), 'evt_1', RETRY, NOW);

		expect(first.duplicate).toBe(false);
		expect(row.entries()).toEqual(new Map([[fingerprint('evt_1'), NOW + journalSeconds(FIRST)]]));
		expect(again.duplicate).toBe(true);
	});

	test('after a restart (empty memory) the stored journal still makes a re-delivery a duplicate', () => {
		const row = new Row();
		row.save(checkThenAccept(newProcess(), row.load(), 'evt_1', FIRST, NOW).store);

		const afterRestart = checkThenAccept(newProcess(), row.load(), 'evt_1', RETRY, NOW + 15);
		const unnumbered = checkThenAccept(newProcess(), row.load(), 'evt_1', undefined, NOW + 15);

		expect(afterRestart.duplicate).toBe(true);
		expect(unnumbered.duplicate).toBe(true);
	});

	test('a retry seen again extends its entry to cover the attempt after it', () => {
		const row = new Row();
		row.save(checkThenAccept(newProcess(), row.load(), 'evt_1', FIRST, NOW).store);

		const retry = checkThenAccept(newProcess(), row.load(), 'evt_1', RETRY, NOW + 15);
		row.save(retry.store);

		expect(retry.duplicate).toBe(true);
		expect(row.entries().get(fingerprint('evt_1'))).toBe(NOW + 15 + journalSeconds(RETRY));
		// The third attempt comes 1 min after the second failed: another restarted process catches it.
		expect(checkThenAccept(newProcess(), row.load(), 'evt_1', 3, NOW + 15 + 65).duplicate).toBe(
			true,
		);
	});

	test('an attempt 1 is never taken for a repeat of another process`s event, even one in the journal', () => {
		const row = new Row();
		row.save(checkThenAccept(newProcess(), row.load(), 'evt_1', FIRST, NOW).store);

		// Only a retry can repeat an event; an attempt 1 with the same id elsewhere is a copy of one
		// request, which only the process that received it can recognise.
		expect(checkThenAccept(newProcess(), row.load(), 'evt_1', FIRST, NOW + 1).duplicate).toBe(
			false,
		);
		const scope = newProcess();
		checkThenAccept(scope, row.load(), 'evt_2', FIRST, NOW);
		expect(checkThenAccept(scope, row.load(), 'evt_2', FIRST, NOW).duplicate).toBe(true);
	});
});

describe('eventLedger: an event counts as seen only once n8n stored its execution', () => {
	test('a retry while the first attempt is still being stored is "in progress"; once stored, a duplicate', () => {
		const scope = newProcess();
		const row = new Row();
		const first = checkEvent(scope, row.load(), 'evt_1', FIRST, NOW, OPEN);

		expect(first.verdict).toBe('new');
		expect(checkEvent(scope, row.load(), 'evt_1', RETRY, NOW + 2, OPEN).verdict).toBe(
			'in progress',
		);
		row.save(acceptEvent(scope, 'evt_1', FIRST, NOW + 3));
		expect(checkEvent(scope, row.load(), 'evt_1', RETRY, NOW + 4, OPEN).verdict).toBe('duplicate');
		expect(row.holds('evt_1')).toBe(true);
	});

	test('retries answered "in progress" move the schedule on: the entry made once stored covers the attempt after the latest', () => {
		const scope = newProcess();
		const row = new Row();
		expect(checkEvent(scope, row.load(), 'evt_1', FIRST, NOW, OPEN).verdict).toBe('new');
		expect(checkEvent(scope, row.load(), 'evt_1', 4, NOW + 20, OPEN).verdict).toBe('in progress');
		row.save(acceptEvent(scope, 'evt_1', FIRST, NOW + 30));

		// After a restart, attempt 5 comes long after an attempt 1's entry would have expired.
		const fifth = NOW + 30 + journalSeconds(FIRST) + 60;
		expect(fifth).toBeLessThan(NOW + 30 + journalSeconds(4));
		expect(checkEvent(newProcess(), row.load(), 'evt_1', 5, fifth, OPEN).verdict).toBe('duplicate');
	});

	test('when n8n answered without storing the execution, the retry runs the event', () => {
		const scope = newProcess();
		const row = new Row();
		checkEvent(scope, row.load(), 'evt_1', FIRST, NOW, ENDED);

		expect(checkEvent(scope, row.load(), 'evt_1', RETRY, NOW + 10, OPEN).verdict).toBe('new');
	});

	test('a first attempt n8n never finishes storing stops holding its retries back after PENDING_STALE_SECONDS', () => {
		const scope = newProcess();
		checkEvent(scope, { recent: {} }, 'evt_1', FIRST, NOW, OPEN);

		const at = NOW + PENDING_STALE_SECONDS;
		expect(checkEvent(scope, { recent: {} }, 'evt_1', RETRY, at - 1, OPEN).verdict).toBe(
			'in progress',
		);
		expect(checkEvent(scope, { recent: {} }, 'evt_1', RETRY, at, OPEN).verdict).toBe('new');
	});

	test('a pending event is in no journal another call saves: after a restart its retry runs', () => {
		const scope = newProcess();
		const row = new Row();
		checkEvent(scope, row.load(), 'evt_pending', FIRST, NOW, OPEN);
		// Another event of the same process is stored and saved while the first is pending.
		row.save(checkThenAccept(scope, row.load(), 'evt_other', FIRST, NOW + 1).store);

		expect(row.holds('evt_other')).toBe(true);
		expect(row.holds('evt_pending')).toBe(false);
		expect(checkEvent(newProcess(), row.load(), 'evt_pending', RETRY, NOW + 12, OPEN).verdict).toBe(
			'new',
		);
	});
});

describe('eventLedger: concurrent calls with last-write-wins saves', () => {
	test('two overlapping calls on one process: the later save still holds both ids', () => {
		const scope = newProcess();
		const row = new Row();
		const loadedByFirst = row.load();
		const loadedBySecond = row.load();

		const first = checkThenAccept(scope, loadedByFirst, 'evt_1', FIRST, NOW);
		const second = checkThenAccept(scope, loadedBySecond, 'evt_2', FIRST, NOW);
		row.save(second.store);
		// The first call saves last, from its stale load: its journal is the process's live copy.
		row.save(first.store);

		expect(row.holds('evt_1', 'evt_2')).toBe(true);
	});

	test('a save another process overwrote is repaired by the next call of the process that lost it', () => {
		const [a, b] = [newProcess(), newProcess()];
		const row = new Row();
		const loadedByA = row.load();
		const loadedByB = row.load();
		const onA = checkThenAccept(a, loadedByA, 'evt_a', FIRST, NOW);
		const onB = checkThenAccept(b, loadedByB, 'evt_b', FIRST, NOW);
		row.save(onB.store);
		row.save(onA.store);
		expect(row.holds('evt_a')).toBe(true);
		expect(row.holds('evt_b')).toBe(false);

		// B's next call, even a duplicate, puts back what the row lacks.
		const replayOnB = checkThenAccept(b, row.load(), 'evt_b', RETRY, NOW + 1);
		row.save(replayOnB.store);

		expect(replayOnB.duplicate).toBe(true);
		expect(row.holds('evt_a', 'evt_b')).toBe(true);
		// Now a re-delivery on A, or on a restarted process, is caught from the row alone.
		expect(checkThenAccept(a, row.load(), 'evt_b', RETRY, NOW + 10).duplicate).toBe(true);
		expect(checkThenAccept(newProcess(), row.load(), 'evt_a', RETRY, NOW + 10).duplicate).toBe(
			true,
		);
	});

	test('merging keeps the later expiry of an entry seen on both sides, and nothing is written when the row holds it all', () => {
		const [a, b] = [newProcess(), newProcess()];
		const row = new Row();
		row.save(checkThenAccept(a, row.load(), 'evt_1', FIRST, NOW).store);
		// B sees the retry (its entry now lasts longer) but its save is lost.
		checkThenAccept(b, row.load(), 'evt_1', RETRY, NOW + 15);

		const onB = checkThenAccept(b, row.load(), 'evt_2', FIRST, NOW + 16);
		row.save(onB.store);

		expect(row.entries().get(fingerprint('evt_1'))).toBe(NOW + 15 + journalSeconds(RETRY));
		expect(row.holds('evt_2')).toBe(true);
		// A repeat that extends nothing, on a process whose journal the row holds, writes nothing.
		expect(checkThenAccept(b, row.load(), 'evt_1', RETRY, NOW + 15)).toEqual({
			duplicate: true,
			store: undefined,
		});
		// A's journal lacked B's entries: it takes them in, and finds nothing the row lacks.
		expect(checkThenAccept(a, row.load(), 'evt_1', RETRY, NOW + 15).duplicate).toBe(true);
	});
});

describe('eventLedger: bounds and expiry', () => {
	test('a journal entry lasts until its next retry can no longer come; after that only the accepting process knows the id', () => {
		const row = new Row();
		const accepting = newProcess();
		row.save(checkThenAccept(accepting, row.load(), 'evt_1', FIRST, NOW).store);
		const expires = NOW + journalSeconds(FIRST);

		expect(checkThenAccept(newProcess(), row.load(), 'evt_1', RETRY, expires - 1).duplicate).toBe(
			true,
		);
		expect(checkThenAccept(newProcess(), row.load(), 'evt_1', RETRY, expires).duplicate).toBe(
			false,
		);
		expect(checkThenAccept(accepting, row.load(), 'evt_1', 3, expires + 60).duplicate).toBe(true);
	});

	test("journal entries cover the contract's next attempt (retry gap + 5 s) with slack, and memory the whole horizon", () => {
		const gaps = [10, 60, 600, 3600, 21600];
		gaps.forEach((gap, index) => expect(journalSeconds(index + 1)).toBeGreaterThan(gap + 5 + 30));
		expect(journalSeconds(undefined)).toBe(journalSeconds(1));
		const lastAttempt = 10 + 60 + 600 + 3600 + 21600 + 6 * 5;
		expect(DEDUPE_HORIZON_SECONDS).toBeGreaterThan(lastAttempt);
		const scope = newProcess();
		checkThenAccept(scope, {} as StoredDedupe, 'evt_old', FIRST, NOW - DEDUPE_HORIZON_SECONDS + 1);
		expect(checkThenAccept(scope, { recent: {} }, 'evt_old', 6, NOW).duplicate).toBe(true);
		// Past the horizon, and past the journal entry the repeat made (attempt 6: journalSeconds(6)).
		const later = NOW + journalSeconds(6) + 1;
		expect(checkThenAccept(scope, { recent: {} }, 'evt_old', 6, later).duplicate).toBe(false);
	});

	test('at most JOURNAL_MAX_IDS entries are stored, those expiring first dropped first', () => {
		const scope = newProcess();
		const row = new Row();
		for (let i = 0; i < JOURNAL_MAX_IDS + 10; i++) {
			// a few retries among them: their entries last longer and are kept
			const attempt = i < 5 ? RETRY : FIRST;
			row.save(
				checkThenAccept(scope, row.load(), `evt_${i}`, attempt, NOW + Math.floor(i / 100)).store,
			);
		}

		expect(row.entries().size).toBe(JOURNAL_MAX_IDS);
		expect(row.holds('evt_0', 'evt_4', `evt_${JOURNAL_MAX_IDS + 9}`)).toBe(true);
		expect(row.holds('evt_5')).toBe(false);
		expect(JSON.stringify(row.recent).length).toBeLessThan(JOURNAL_MAX_IDS * 8 + 2048);
		forgetScope(scope);
	});

	test('one process remembers at most MEMORY_MAX_IDS ids, the oldest forgotten first', () => {
		const scope = newProcess();
		for (let i = 0; i <= MEMORY_MAX_IDS; i++)
			checkThenAccept(scope, { recent: {} }, `evt_${i}`, FIRST, NOW);

		expect(checkThenAccept(scope, { recent: {} }, 'evt_1', FIRST, NOW).duplicate).toBe(true);
		expect(checkThenAccept(scope, { recent: {} }, 'evt_0', FIRST, NOW).duplicate).toBe(false);
		forgetScope(scope);
	});

	test('runs without a call are forgotten after the horizon, as claims are, though no call or activation takes them (a queue-mode worker)', () => {
		const node = `node-${randomUUID()}`;
		for (let i = 0; i < 1000; i++) noteRunWithoutCall(node, `evt_${i}`, NOW + i);
		expect(runsWithoutCallHeld(node)).toBe(1000);

		// The worker's next run, 8 hours after the 500th: the 500 before it are past the horizon.
		noteRunWithoutCall(node, 'evt_later', NOW + 500 + DEDUPE_HORIZON_SECONDS);
		expect(runsWithoutCallHeld(node)).toBe(501);
		noteRunWithoutCall(node, 'evt_last', NOW + 2000 + DEDUPE_HORIZON_SECONDS);
		expect(runsWithoutCallHeld(node)).toBe(2);
	});

	test('a forgotten scope (endpoint deleted) starts from the stored journal only', () => {
		const scope = newProcess();
		checkThenAccept(scope, { recent: {} }, 'evt_1', FIRST, NOW);
		forgetScope(scope);

		expect(checkThenAccept(scope, { recent: {} }, 'evt_1', RETRY, NOW).duplicate).toBe(false);
	});
});

describe('eventLedger: the cost of a claim does not grow with the ids remembered', () => {
	/**
	 * A process that accepted `count` events over the last 7 hours (all remembered: within the horizon),
	 * with their journal saved to the row as n8n would, then the same 200 new deliveries. What each of
	 * these claims writes (the row's JSON) is compared between 50 and 5,000 ids.
	 */
	function remembering(count: number) {
		const scope = newProcess();
		const row = new Row();
		const start = NOW - 7 * 3600;
		for (let i = 0; i < count; i++) {
			const at = start + Math.floor((i * 6 * 3600) / count);
			row.save(checkThenAccept(scope, row.load(), `evt_old_${count}_${i}`, FIRST, at).store);
		}
		return { scope, row };
	}

	test('bytes written per claim are the same with 5,000 remembered ids as with 50', () => {
		// The time per claim, few against many, is a figure: npx tsx bench/event-ledger.ts.
		const few = remembering(50);
		const many = remembering(5000);
		const fresh = Array.from({ length: 4000 }, (_, i) => `evt_new_${i}`);
		const bytes = { few: [] as number[], many: [] as number[] };
		const BATCH = 100;
		for (let b = 0; b < fresh.length / BATCH; b++) {
			for (const which of ['few', 'many'] as const) {
				const { scope, row } = which === 'few' ? few : many;
				let written = 0;
				for (let i = b * BATCH; i < (b + 1) * BATCH; i++) {
					const claim = checkThenAccept(
						scope,
						row.load(),
						fresh[i],
						FIRST,
						NOW + Math.floor(i / 200),
					);
					row.save(claim.store);
					written += JSON.stringify(claim.store ?? {}).length;
				}
				bytes[which].push(written);
			}
		}

		expect(bytes.many).toEqual(bytes.few);
		forgetScope(few.scope);
		forgetScope(many.scope);
	});
});
