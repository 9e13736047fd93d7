// Every poll ends within its budget (below n8n's poll timeout): retries stop there, nothing is emitted,
// the position is kept, and the next poll catches up. Under n8n 2.41's durable scheduler a poll still
// running at the timeout is abandoned (its results dropped); one that ends in time is not.
import type { PollScheduler } from '../harness';
import {
	createLeads,
	describeItems,
	flat,
	pollSetup,
	poller,
	recordedEvents,
	SOURCES,
	useSource,
} from './poll-bed';

const { sandbox, harness } = pollSetup();

/** n8n's poll timeout and the budget it offers, scaled down from 45 s / 36 s so that the test is short. */
const DURABLE: PollScheduler = { kind: 'durable', pollTimeoutMs: 8_000, pollBudgetMs: 3_000 };

const SLOW_FAILING: Array<[string, Record<string, unknown>]> = [
	['500 on every request (retries would add up to 61 s)', { rate_500: 1, latency_ms: 300 }],
	['429 on every request', { rate_429: 1, latency_ms: 300 }],
	['dropped connections', { drop_rate: 1, latency_ms: 300 }],
	['a request that hangs 15 s', { latency_ms: 15_000 }],
];

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test.each(SLOW_FAILING)(
		'%s: the poll fails within its budget, emits nothing, keeps its position; the next poll catches up',
		async (_name, faults) => {
			const trigger = poller(harness(), {}, DURABLE);
			await trigger.activate();
			await trigger.poll();
			await createLeads(sandbox, 12);
			const saved = trigger.nodeStaticData;

			await sandbox.setFaults({ ...faults, methods: ['GET'] });
			const failed = await trigger.poll();
			await sandbox.clearFaults();
			expect(failed.abandoned).toBeUndefined();
			expect(failed.error?.message).toEqual(expect.any(String));
			expect(trigger.executions).toHaveLength(0);
			expect(trigger.nodeStaticData).toEqual(saved);

			const emitted = describeItems(flat(await trigger.pollUntilQuiet()));
			expect(emitted).toEqual(await recordedEvents(sandbox, source));
			expect(emitted).toHaveLength(12);
		},
	);
});

test('a poll n8n abandoned (its timeout below the budget it offered) is dropped; the next polls emit each event once', async () => {
	await useSource(sandbox, 'events');
	// A misconfigured n8n: it offers 30 s but abandons after 2 s.
	const trigger = poller(
		harness(),
		{},
		{ kind: 'durable', pollTimeoutMs: 2_000, pollBudgetMs: 30_000 },
	);
	await trigger.activate();
	await createLeads(sandbox, 5);
	await sandbox.setFaults({ latency_ms: 2_500, methods: ['GET'] });
	expect(await trigger.poll()).toEqual({ abandoned: true });
	await sandbox.clearFaults();
	await trigger.abandonedPollsEnded(); // its results dropped
	const emitted = describeItems(flat(await trigger.pollUntilQuiet()));
	expect(emitted).toEqual(await recordedEvents(sandbox, 'events'));
	expect(emitted).toHaveLength(5);
});
