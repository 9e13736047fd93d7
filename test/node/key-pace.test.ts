// One pace per API key in the process (transport/keyPace.ts, docs/performance.md "One pace per key"):
// executions sharing a key take turns instead of probing, a busy key costs time and not the item, a
// cancelled execution stops waiting, and a small execution is served while a big one runs. The sandbox's
// own rate limit (a rolling window per key) answers; times are real, and no test asserts one (the time
// against the limit's minimum is bench/figure-paces.mjs's figure).
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
	const [first, second] = await Promise.all([
		bed.run(create, { input: emails(60, 'a') }),
		bed.run(create, { input: emails(60, 'b') }),
	]);

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
	// 10 requests per rolling second: 150 creates take the big execution about 15 windows.
	await bed.config({ rate_limit: { requests: 10, window_seconds: 1 } });
	let bigDone = false;
	const big = bed.run(create, { input: emails(150, 'big') }).then((result) => {
		bigDone = true;
		return result;
	});
	// The big execution is being paced: its first windows are spent and its other creates wait.
	while (count(await statuses(), 201) < 30) await new Promise((resolve) => setImmediate(resolve));

	const before = (await bed.requests()).length;
	const small = await bed.run({ resource: 'lead', operation: 'getAll', limit: 5 });
	const log = await bed.requests();

	expect(small.error).toBeUndefined();
	expect(small.items.length).toBeGreaterThan(0);
	expect(bigDone).toBe(false);
	// Round-robin: the small execution's request goes within about one window of the key's requests, not
	// behind the big execution's waiting creates.
	const read = log.findIndex((request, index) => index >= before && request.method === 'GET');
	expect(read).toBeGreaterThanOrEqual(before);
	expect(read - before).toBeLessThanOrEqual(12);

	const bigResult = await big;
	expect(bigResult.error).toBeUndefined();
	expect(bigResult.items).toHaveLength(150);
	expect(count(await statuses(), 429)).toBeLessThanOrEqual(10);
});

test('cancelling an execution that waits for its turn ends the wait at once; nothing more is sent', async () => {
	// The window is full for a minute after 5 requests (last in the file: the key's pace then knows it).
	await bed.config({ rate_limit: { requests: 5, window_seconds: 60 } });
	const filler = await bed.run(create, { input: emails(5, 'fill') });
	expect(filler.error).toBeUndefined();

	let cancelled = false;
	const cancel = new Promise<void>((resolve) => {
		setTimeout(() => {
			cancelled = true;
			resolve();
		}, 500);
	});
	const result = await bed.run(create, { input: emails(3, 'wait'), cancelOn: cancel });

	expect(cancelled).toBe(true);
	expect(result.items).toHaveLength(0);
	// The fifth answer said the window is full: nothing was sent after it, not even at the window's reset
	// a minute later (a wait the cancellation did not end would send then).
	const seen = await statuses();
	expect(count(seen, 201)).toBe(5);
	expect(seen).toHaveLength(5);
});
