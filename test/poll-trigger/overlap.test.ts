// Polls of one node that overlap: n8n starts a poll at its time even when the previous one still runs
// (2.8 and 2.41 keep no in-flight guard), and the durable scheduler's occurrences are not serialised either.
// A poll that starts while another runs must not emit what that one emits.
import {
	createLeads,
	describeItems,
	flat,
	pause,
	pollSetup,
	poller,
	recordedEvents,
	SCHEDULERS,
	SOURCES,
	setStatuses,
	useSource,
} from './poll-bed';

const { sandbox, harness } = pollSetup();

describe.each(SCHEDULERS)('%s', (_label, scheduler) => {
	describe.each(SOURCES)('source: %s', (source) => {
		beforeEach(async () => {
			await useSource(sandbox, source);
		});

		test('a poll started while another runs emits nothing that one emits; every event comes out once', async () => {
			const trigger = poller(harness(), {}, scheduler);
			await trigger.activate();
			const leads = await createLeads(sandbox, 30);
			await setStatuses(sandbox, leads.slice(0, 10), 'contacted');

			// A slow service: every list request takes 1.5 s, so the second poll starts mid-way through the first.
			await sandbox.setFaults({ latency_ms: 1500, methods: ['GET'] });
			const first = trigger.poll();
			await pause(400);
			const second = await trigger.poll();
			const outcomes = [await first, second];
			await sandbox.clearFaults();
			expect(outcomes.map((outcome) => outcome.error)).toEqual([undefined, undefined]);

			await trigger.pollUntilQuiet();
			const emitted = describeItems(flat(trigger.executions));
			expect(emitted).toEqual(await recordedEvents(sandbox, source));
			expect(emitted).toHaveLength(40);
		});
	});

	test('overlapping polls under 429s, 500s, dropped connections and latency: 0 duplicates, 0 lost', async () => {
		await useSource(sandbox, 'events');
		// n8n's timeout and budget scaled down (durable scheduler), so that a burst outlasts several polls
		const trigger = poller(
			harness(),
			{},
			scheduler.kind === 'durable'
				? { ...scheduler, pollTimeoutMs: 6_000, pollBudgetMs: 2_500 }
				: scheduler,
		);
		await trigger.activate();
		await sandbox.setFaults({
			rate_429: 0.25,
			rate_500: 0.25,
			drop_rate: 0.1,
			latency_ms: 300,
			methods: ['GET'],
			seed: 7,
		});
		// a poll every 700 ms for 7 s while leads are created: polls overlap and fail part-way
		const polls = [];
		for (let tick = 0; tick < 10; tick++) {
			polls.push(trigger.poll());
			await createLeads(sandbox, 2, 2);
			await pause(700);
		}
		await Promise.all(polls);
		await sandbox.clearFaults();
		await trigger.abandonedPollsEnded(); // polls the durable scheduler abandoned, their results dropped
		await trigger.pollUntilQuiet();

		const emitted = describeItems(flat(trigger.executions));
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted).toEqual(await recordedEvents(sandbox, 'events'));
		expect(emitted).toHaveLength(20);
	});
});
