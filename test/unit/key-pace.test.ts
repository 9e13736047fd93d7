// The key's pace (transport/keyPace.ts, docs/performance.md "One pace per key") on its own, on a clock the
// test moves: the monotonic clock, the wall clock and n8n-workflow's `sleep` are replaced by one fake time,
// so waits, pauses and deadlines are reached by advancing it, never by waiting.
import * as utils from 'n8n-workflow/dist/cjs/utils';

import type { Turn } from '../../dist/nodes/ContentMarketing/transport/keyPace';
import { KeyPace, TurnExpiredError } from '../../dist/nodes/ContentMarketing/transport/keyPace';

/** The bound docs/performance.md promises: a probe holds the key at most 2 s. */
const PROBE_HOLD_MS = 2_000;
/** How late a wake may come in these tests (the fake clock's sleeps end on time). */
const SLACK_MS = 10;

/** One fake time for `performance.now`, `Date.now` and `sleep`; `pending` are the sleeps not yet over. */
class FakeClock {
	/** Both clocks start at the same epoch milliseconds, so a deadline reads the same on either. */
	time = Date.parse('2026-01-15T12:00:00Z');
	/** Added to the wall clock only (an NTP step). */
	wallStep = 0;
	readonly pending: Array<{ at: number; resolve: () => void }> = [];
	/** The most sleeps ever pending at once. */
	mostPending = 0;
	private readonly spies: jest.SpyInstance[] = [];

	install(): this {
		this.spies.push(
			jest.spyOn(performance, 'now').mockImplementation(() => this.time),
			jest.spyOn(Date, 'now').mockImplementation(() => this.time + this.wallStep),
			jest.spyOn(utils, 'sleep').mockImplementation(
				async (ms: number) =>
					await new Promise<void>((resolve) => {
						this.pending.push({ at: this.time + ms, resolve });
						this.mostPending = Math.max(this.mostPending, this.pending.length);
					}),
			),
		);
		return this;
	}

	restore(): void {
		for (const spy of this.spies) spy.mockRestore();
	}

	/** Unix seconds `ms` from now on the wall clock, as X-RateLimit-Reset says it. */
	resetIn(ms: number): string {
		return String(Math.ceil((this.time + this.wallStep + ms) / 1000));
	}

	/** Moves the time forward by `ms`, ending every sleep due on the way, in order. */
	async advance(ms: number): Promise<void> {
		const end = this.time + ms;
		for (;;) {
			await settle();
			const due = this.pending.filter((sleep) => sleep.at <= end).sort((a, b) => a.at - b.at)[0];
			if (due === undefined) break;
			this.pending.splice(this.pending.indexOf(due), 1);
			this.time = Math.max(this.time, due.at);
			due.resolve();
		}
		this.time = end;
		await settle();
	}
}

/** Lets every promise callback that can run, run. */
async function settle(): Promise<void> {
	for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}

/** A `take` whose outcome the test reads when it likes. */
function watch(promise: Promise<Turn>) {
	const state: { turn?: Turn; error?: unknown } = {};
	promise.then(
		(turn) => (state.turn = turn),
		(error: unknown) => (state.error = error),
	);
	return state;
}

const limited = (remaining: number, reset: string, limit = 20) => ({
	'x-ratelimit-limit': String(limit),
	'x-ratelimit-remaining': String(remaining),
	'x-ratelimit-reset': reset,
});

let clock: FakeClock;

beforeEach(() => {
	clock = new FakeClock().install();
});

afterEach(() => {
	clock.restore();
});

/** A pace alone on its key that has spent the window itself, which resets now. */
async function spentKey(limit = 20): Promise<KeyPace> {
	const pace = new KeyPace();
	for (let index = 0; index < limit; index++) {
		const turn = await pace.take({});
		pace.answered(turn, 201, limited(limit - 1 - index, clock.resetIn(0), limit));
	}
	return pace;
}

test('one timer per key: 200 requests waiting behind a probe, woken by every arrival and answer', async () => {
	// 200 answers so far: as many requests may be in flight at once.
	const pace = await spentKey(200);
	const who = {};
	const probe = await pace.take(who);
	const waiting: Array<ReturnType<typeof watch>> = [];
	// They arrive one by one, each waking the pace.
	for (let index = 0; index < 200; index++) {
		waiting.push(watch(pace.take(who, { expiresAt: Date.now() + 15 * 60_000 })));
		await clock.advance(1);
	}
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(0);

	// The probe's answer frees the window: every waiting request goes.
	pace.answered(probe, 201, limited(300, clock.resetIn(60_000), 1000));
	await clock.advance(0);
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(200);
	for (const request of waiting)
		pace.answered(request.turn!, 201, limited(500, clock.resetIn(60_000), 1000));
	await settle();

	expect(clock.mostPending).toBeLessThanOrEqual(1);
	expect(clock.pending.length).toBeLessThanOrEqual(1);
	// The one sleep was for the next turn: it runs out, and none follows.
	await clock.advance(60_000);
	expect(clock.pending).toHaveLength(0);
});

test('a waiter behind a 429 pause gives up at its deadline, not at the end of the pause', async () => {
	const pace = new KeyPace();
	const who = {};
	pace.pauseFor(3_000);
	const patient = watch(pace.take(who));
	await clock.advance(10);
	const hurried = watch(pace.take({}, { expiresAt: Date.now() + 300 }));

	await clock.advance(300 + SLACK_MS);
	expect(hurried.error).toBeInstanceOf(TurnExpiredError);
	expect(patient.turn).toBeUndefined();
	await clock.advance(3_000);
	expect(patient.turn).toBeDefined();
});

test('an answer without rate-limit headers (a proxy 502) keeps the key paced; a success without them lifts it', async () => {
	const pace = new KeyPace();
	const first = await pace.take({});
	// The key's first answer: this process alone on it, one request of two left until the reset.
	pace.answered(first, 201, limited(1, clock.resetIn(5_000), 2));
	// The window's last request gets a proxy's 502: no turn is due before the reset.
	const second = await pace.take({});
	pace.answered(second, 502, { 'content-type': 'text/html' });
	const waiting = Array.from({ length: 10 }, () => watch(pace.take({})));
	await clock.advance(1_000);
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(0);

	await clock.advance(5_000);
	const served = waiting.filter((request) => request.turn !== undefined);
	expect(served).toHaveLength(1);
	// The service answers without the headers: its limit was lifted.
	pace.answered(served[0].turn!, 200, {});
	await clock.advance(0);
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(10);
});

test("a 429 without rate-limit headers (a proxy's, before the service's limiter) costs its Retry-After, not the window", async () => {
	const pace = new KeyPace();
	// Five answers so far, this process alone on the key: as many requests may be in flight.
	for (let index = 0; index < 5; index++) {
		const turn = await pace.take({});
		pace.answered(turn, 201, limited(19 - index, clock.resetIn(50_000)));
	}
	const refused = await pace.take({});
	// The transport pauses the key for the 429's Retry-After, then reports the answer.
	pace.pauseFor(1_000);
	pace.answered(refused, 429, { 'retry-after': '1' });
	const waiting = Array.from({ length: 5 }, () => watch(pace.take({})));
	await clock.advance(500);
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(0);

	await clock.advance(500 + SLACK_MS);
	expect(waiting.filter((request) => request.turn !== undefined)).toHaveLength(5);
});

test(`a probe that hangs holds the key at most PROBE_HOLD_MS (${PROBE_HOLD_MS} ms)`, async () => {
	const pace = await spentKey(100);
	const probe = await pace.take({});
	const next = watch(pace.take({}));
	await clock.advance(PROBE_HOLD_MS + SLACK_MS);
	expect(next.turn).toBeDefined();
	// The late answer still counts.
	pace.answered(probe, 201, limited(5, clock.resetIn(60_000)));
	const after = watch(pace.take({}));
	await clock.advance(0);
	expect(after.turn).toBeDefined();
});

test('a wall clock stepped back an hour neither stalls the key nor moves a deadline', async () => {
	const pace = await spentKey();
	const probe = await pace.take({});
	pace.answered(probe, 201, limited(0, clock.resetIn(1_000)));
	clock.wallStep = -3_600_000;
	const next = watch(pace.take({}));
	const hurried = watch(pace.take({}, { expiresAt: performance.now() + 10_000 }));

	await clock.advance(1_000 + SLACK_MS);
	expect(next.turn).toBeDefined();
	expect(hurried.error).toBeUndefined();
});

test('a new pace sends one request, then at most one more in flight than it has had answers', async () => {
	const pace = new KeyPace();
	const first = await pace.take({});
	const others = Array.from({ length: 6 }, () => watch(pace.take({})));
	const sent = () => others.filter((request) => request.turn !== undefined);
	await clock.advance(SLACK_MS);
	expect(sent()).toHaveLength(0);

	pace.answered(first, 201, limited(19, clock.resetIn(60_000)));
	await clock.advance(0);
	expect(sent()).toHaveLength(2);
	// Two answers more: four in flight.
	for (const request of sent())
		pace.answered(request.turn!, 201, limited(17, clock.resetIn(60_000)));
	await clock.advance(0);
	expect(sent()).toHaveLength(6);
});

test('a share spent while the window has room: the next turn looks again at once, not at the reset', async () => {
	const pace = new KeyPace();
	const first = await pace.take({});
	// Other processes hold 14 of the window's 20: this process's share of the 5 left is none.
	pace.answered(first, 201, limited(5, clock.resetIn(60_000)));
	const look = watch(pace.take({}));
	await clock.advance(SLACK_MS);
	expect(look.turn).toBeDefined();

	// The others took the rest: the next turn waits for the reset.
	pace.answered(look.turn!, 201, limited(0, clock.resetIn(60_000)));
	const next = watch(pace.take({}));
	await clock.advance(30_000);
	expect(next.turn).toBeUndefined();
	await clock.advance(31_000 + SLACK_MS);
	expect(next.turn).toBeDefined();
});

/**
 * One key shared by processes (queue-mode workers), each with its own pace and `inFlight` requests at once,
 * the n-th starting `startsApart` ms after the first, against the service's limiter: `limit` requests per
 * rolling 60 s, a 429 counted for nothing (docs/api-contract.md §9). A request takes 10 ms to the service
 * and 10 ms back; a 429 is waited out and sent again first, as the transport does. The time is the fake
 * clock's, from the first request to the last answer.
 */
async function shareKey(options: {
	limit: number;
	parts: number[];
	inFlight: number;
	startsApart?: number;
}): Promise<{ calls: number; refused: number; seconds: number; minimum: number }> {
	const { limit, parts, inFlight, startsApart = 0 } = options;
	const hits: number[] = [];
	let calls = 0;
	let refused = 0;
	const serve = () => {
		const now = Date.now();
		while (hits.length > 0 && hits[0] <= now - 60_000) hits.shift();
		calls++;
		const allowed = hits.length < limit;
		if (allowed) hits.push(now);
		else refused++;
		const oldest = hits[0] ?? now;
		return {
			status: allowed ? 201 : 429,
			retryAfter: Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000)),
			headers: limited(limit - hits.length, String(Math.ceil((oldest + 60_000) / 1000)), limit),
		};
	};
	const start = Date.now();
	let done = 0;
	let last = start;
	/** One process: its own pace, `inFlight` requests at once, each sent again after a 429's pause. */
	const runProcess = async (count: number, index: number) => {
		if (index > 0) await utils.sleep(index * startsApart);
		const pace = new KeyPace();
		const who = {};
		let left = count;
		const worker = async () => {
			while (left > 0) {
				left--;
				for (let retry = false; ; retry = true) {
					const turn = await pace.take(who, { first: retry });
					await utils.sleep(10);
					const answer = serve();
					await utils.sleep(10);
					pace.answered(turn, answer.status, answer.headers);
					if (answer.status !== 429) break;
					pace.pauseFor(answer.retryAfter * 1000);
				}
				done++;
				last = Date.now();
			}
		};
		await Promise.all(Array.from({ length: inFlight }, worker));
	};
	const work = parts.reduce((sum, part) => sum + part, 0);
	const all = Promise.all(parts.map(runProcess));
	while (done < work) await clock.advance(100);
	await all;
	// The rolling window lets the first `limit` requests go at once and every further `limit` a window later.
	return {
		calls,
		refused,
		seconds: (last - start) / 1000,
		minimum: (Math.ceil(work / limit) - 1) * 60,
	};
}

test('two processes on one key (queue-mode workers) spend shares of its remainder: at most 5 % refused', async () => {
	const { calls, refused } = await shareKey({ limit: 60, parts: [75, 75], inFlight: 10 });

	expect(calls - refused).toBe(150);
	expect(refused / calls).toBeLessThanOrEqual(0.05);
});

test('four processes started one after another share the key: at most 5 % refused, within 1.15 × the minimum', async () => {
	// As figure P (docs/performance.md): 120 a minute, 300 creates, 20 in flight each; workers start 100 ms apart.
	const result = await shareKey({
		limit: 120,
		parts: [75, 75, 75, 75],
		inFlight: 20,
		startsApart: 100,
	});

	expect(result.calls - result.refused).toBe(300);
	expect(result.refused / result.calls).toBeLessThanOrEqual(0.05);
	expect(result.seconds).toBeLessThanOrEqual(1.15 * result.minimum);
});
