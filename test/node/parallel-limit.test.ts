// The adaptive limit of requests in flight (transport/concurrency.ts): slow start, additive increase,
// multiplicative decrease once per round trip, the cap, items idle while a request they share is out, and
// cancelled waits (the pause after a 429 is the key's: key-pace.test.ts).
import type { Sent } from '../../dist/nodes/ContentMarketing/transport/concurrency';
import { AdaptiveLimit } from '../../dist/nodes/ContentMarketing/transport/concurrency';

function okRound(limit: AdaptiveLimit, count = limit.current): void {
	const sent = Array.from({ length: count }, () => limit.sent());
	for (const request of sent) limit.answered(request, 'ok');
}

test('starts at 2, doubles per round trip of quick answers, and stops at the cap', () => {
	const limit = new AdaptiveLimit(50);
	expect(limit.current).toBe(2);
	okRound(limit);
	expect(limit.current).toBe(4);
	okRound(limit);
	expect(limit.current).toBe(8);
	for (let round = 0; round < 10; round++) okRound(limit);
	expect(limit.current).toBe(50);
});

test('a 429 halves the limit once for the requests that were in flight together, then it grows additively (about one per round trip)', () => {
	const limit = new AdaptiveLimit(64);
	for (let round = 0; round < 5; round++) okRound(limit);
	expect(limit.current).toBe(64);
	const inFlight = Array.from({ length: 64 }, () => limit.sent());
	for (const request of inFlight) limit.answered(request, 'rate_limited');
	expect(limit.current).toBe(32);
	okRound(limit);
	okRound(limit);
	expect(limit.current).toBe(33);
	// A 429 to a request sent after the decrease decreases again.
	limit.answered(limit.sent(), 'rate_limited');
	expect(limit.current).toBe(16);
});

test('a 5xx or broken connection decreases by a quarter; the limit never goes below 1', () => {
	const limit = new AdaptiveLimit(8);
	for (let round = 0; round < 3; round++) okRound(limit);
	limit.answered(limit.sent(), 'error');
	expect(limit.current).toBe(6);
	for (let i = 0; i < 20; i++) limit.answered(limit.sent(), 'rate_limited');
	expect(limit.current).toBe(1);
});

test('a round trip whose fastest answer is slow decreases by a tenth; one slow answer among quick ones does not', () => {
	const limit = new AdaptiveLimit(64);
	for (let round = 0; round < 5; round++) okRound(limit);
	expect(limit.current).toBe(64);
	// Answered a second after it was sent: slower than twice the fastest answer (0 ms here) + 100 ms.
	const late = (request: Sent): Sent => ({ ...request, at: request.at - 1_000 });
	const mixed = Array.from({ length: 64 }, () => limit.sent());
	limit.answered(late(mixed[0]), 'ok');
	for (const request of mixed.slice(1)) limit.answered(request, 'ok');
	okRound(limit);
	expect(limit.current).toBe(64);
	const slow = Array.from({ length: 64 }, () => limit.sent());
	for (const request of slow) limit.answered(late(request), 'ok');
	expect(limit.current).toBe(64);
	// The first answer of the next round trip closes the slow one.
	limit.answered(limit.sent(), 'ok');
	expect(limit.current).toBe(57);
});

test('the cap 1 keeps one request in flight; a second acquire waits for the release', async () => {
	const limit = new AdaptiveLimit(1);
	await limit.acquire();
	let second = false;
	const waiting = limit.acquire().then(() => {
		second = true;
	});
	await Promise.resolve();
	expect(second).toBe(false);
	limit.release();
	await waiting;
	expect(second).toBe(true);
	expect(limit.active).toBe(1);
});

test('requests waiting for a slot stop at once when the execution is cancelled; the others keep theirs', async () => {
	const limit = new AdaptiveLimit(1);
	const controller = new AbortController();
	await limit.acquire(controller.signal);
	const cancelled = [limit.acquire(controller.signal), limit.acquire(controller.signal)];
	const other = limit.acquire();
	controller.abort(new Error('cancelled'));
	for (const waiting of cancelled) await expect(waiting).rejects.toThrow('cancelled');
	limit.release();
	await other;
	expect(limit.active).toBe(1);
});

test('an item waiting for a request others share gives its slot back, still counts against the cap, and takes a slot again before a new item starts', async () => {
	const limit = new AdaptiveLimit(2);
	await limit.acquire();
	let answer: () => void = () => undefined;
	const shared = new Promise<string>((resolve) => (answer = () => resolve('read')));
	const idle = limit.idleWhile(shared);
	expect(limit.active).toBe(0);
	// Another item starts in the slot given back; a third would pass the cap while the first is idle.
	await limit.acquire();
	let third = false;
	const thirdStarts = limit.acquire().then(() => {
		third = true;
	});
	await Promise.resolve();
	expect(third).toBe(false);
	answer();
	await expect(idle).resolves.toBe('read');
	expect(limit.active).toBe(2);
	expect(third).toBe(false);
	limit.release();
	await thirdStarts;
	expect(limit.active).toBe(2);
});
