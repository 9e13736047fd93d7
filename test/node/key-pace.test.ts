// One pace per API key in the process (transport/keyPace.ts, docs/performance.md "One pace per key"):
// executions sharing a key take turns instead of probing, a busy key costs time and not the item, a
// cancelled execution stops waiting, and a small execution is served while a big one runs. The sandbox's
// own rate limit (a rolling window per key) answers; times are real.
import type { INodeExecutionData } from 'n8n-workflow';

import { ApiProxy } from './api-proxy';
import { CREDENTIAL, errorText, NodeTestBed } from './node-test-bed';
import { virtualSleep } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });

const emails = (count: number, prefix: string): INodeExecutionData[] =>
	Array.from({ length: count }, (_, index) => ({
		json: { email: `${prefix}${index}@example.com` },
	}));
const create = { resource: 'lead', operation: 'create', email: '={{ $json.email }}' };
const statuses = async () => (await bed.requests()).map((request) => request.status);
const count = (list: Array<number | null>, status: number) =>
	list.filter((value) => value === status).length;

beforeEach(() => {
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
});

test('two executions on one key over its limit take turns: every lead created, few 429s', async () => {
	// 20 requests per rolling 2 s: 120 creates need 5 windows after the first.
	await bed.config({ rate_limit: { requests: 20, window_seconds: 2 } });
	const started = Date.now();
	const [first, second] = await Promise.all([
		bed.run(create, { input: emails(60, 'a') }),
		bed.run(create, { input: emails(60, 'b') }),
	]);
	const seconds = (Date.now() - started) / 1000;

	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	expect(first.items).toHaveLength(60);
	expect(second.items).toHaveLength(60);
	const seen = await statuses();
	await bed.config({ rate_limit: null });
	expect(await bed.allLeadIds()).toHaveLength(120);
	// Each execution pacing itself would meet the full window with up to 100 requests in flight each.
	expect(count(seen, 429)).toBeLessThanOrEqual(6);
	expect(count(seen, 201)).toBe(120);
	expect(seconds).toBeGreaterThanOrEqual(8);
	expect(seconds).toBeLessThan(30);
});

test('a 429 storm longer than 6 retries is waited out and the item succeeds, created once', async () => {
	const clock = virtualSleep();
	const proxy = await ApiProxy.start(bed.url);
	try {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: proxy.url });
		proxy.rules = {
			decide: (_request, index) =>
				index < 20
					? {
							status: 429,
							headers: { 'Retry-After': '3' },
							body: { error: { code: 'rate_limited', message: 'slow down' } },
						}
					: 'forward',
		};
		const result = await bed.run(create, { input: emails(1, 'storm') });

		expect(errorText(result)).toBe('');
		expect(result.items[0].json.email).toBe('storm0@example.com');
		expect(proxy.requests).toHaveLength(21);
		// One wait of Retry-After per 429: a minute of a busy key, 20 refusals, no count gave up.
		expect(clock.delays.filter((delay) => delay === 3000)).toHaveLength(20);
		expect(await bed.allLeadIds()).toHaveLength(1);
	} finally {
		clock.restore();
		await proxy.close();
	}
});

test('a small execution is served while a big one waits for the key: it does not queue behind it', async () => {
	// 10 requests per rolling second: 150 creates take the big execution about 15 s.
	await bed.config({ rate_limit: { requests: 10, window_seconds: 1 } });
	const bigStarted = Date.now();
	let bigEnded = 0;
	const big = bed.run(create, { input: emails(150, 'big') }).then((result) => {
		bigEnded = Date.now();
		return result;
	});
	await new Promise((resolve) => setTimeout(resolve, 3_000));

	const smallStarted = Date.now();
	const small = await bed.run({ resource: 'lead', operation: 'getAll', limit: 5 });
	const smallSeconds = (Date.now() - smallStarted) / 1000;

	expect(small.error).toBeUndefined();
	expect(small.items.length).toBeGreaterThan(0);
	// Round-robin: one turn of each waiting execution, about a window, not the big one's remaining 10 s.
	expect(smallSeconds).toBeLessThan(3);
	expect(bigEnded).toBe(0);

	const bigResult = await big;
	expect(bigResult.error).toBeUndefined();
	expect(bigResult.items).toHaveLength(150);
	expect((bigEnded - bigStarted) / 1000).toBeGreaterThan(8);
	expect(count(await statuses(), 429)).toBeLessThanOrEqual(10);
});

test('cancelling an execution that waits for its turn ends the wait at once; nothing more is sent', async () => {
	// The window is full for a minute after 5 requests (last in the file: the key's pace then knows it).
	await bed.config({ rate_limit: { requests: 5, window_seconds: 60 } });
	const filler = await bed.run(create, { input: emails(5, 'fill') });
	expect(filler.error).toBeUndefined();

	let cancelledAt = 0;
	const cancel = new Promise<void>((resolve) => {
		setTimeout(() => {
			cancelledAt = Date.now();
			resolve();
		}, 500);
	});
	const result = await bed.run(create, { input: emails(3, 'wait'), cancelOn: cancel });
	const stoppedAfter = Date.now() - cancelledAt;

	expect(cancelledAt).toBeGreaterThan(0);
	expect(stoppedAfter).toBeLessThan(1_000);
	expect(result.items).toHaveLength(0);
	const seen = await statuses();
	// The 5 creates, then at most the probe that learnt the window is full.
	expect(count(seen, 201)).toBe(5);
	expect(seen.length).toBeLessThanOrEqual(6);
});
