// Leads created between the activation and the first scheduled poll come out exactly once, whatever n8n keeps
// of the activation poll: under the durable scheduler (n8n 2.41) the cursor of an activation poll that
// returned nothing is discarded, and with durable cursors off a scheduled poll that returned nothing saves
// nothing. The harness emulates both (test/harness/poll.ts).
import {
	createLeads,
	describeItems,
	flat,
	pollSetup,
	poller,
	recordedEvents,
	SCHEDULERS,
	setStatuses,
	SOURCES,
	useSource,
} from './poll-bed';

const { sandbox, harness } = pollSetup();

describe.each(SCHEDULERS)('%s', (_label, scheduler) => {
	describe.each(SOURCES)('source: %s', (source) => {
		beforeEach(async () => {
			await useSource(sandbox, source);
		});

		test('leads created right after the activation come out once; history does not', async () => {
			const old = await createLeads(sandbox, 3);
			await setStatuses(sandbox, old.slice(0, 1), 'contacted');
			const history = (await recordedEvents(sandbox, source)).length;
			const trigger = poller(harness(), {}, scheduler);

			expect(await trigger.activate()).toEqual({});
			const fresh = await createLeads(sandbox, 4);
			await setStatuses(sandbox, old.slice(1, 2), 'qualified');
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect(describeItems(first.items ?? [])).toEqual(
				(await recordedEvents(sandbox, source)).slice(history),
			);
			expect(first.items).toHaveLength(fresh.length + 1);

			// empty polls (whose changes n8n may drop), then more leads: each once
			expect(await trigger.poll()).toEqual({});
			expect(await trigger.poll()).toEqual({});
			await createLeads(sandbox, 2);
			await trigger.pollUntilQuiet();
			const emitted = describeItems(flat(trigger.executions));
			expect(emitted).toEqual((await recordedEvents(sandbox, source)).slice(history));
			expect(emitted).toHaveLength(7);
		});
	});
});

test("durable scheduler: the activation poll's cursor is discarded, its anchor in global static data is kept", async () => {
	await useSource(sandbox, 'events');
	await createLeads(sandbox, 2);
	const trigger = poller(harness(), {}, { kind: 'durable' });
	await trigger.activate();
	// what n8n 2.41 leaves after the activation poll returned null: an empty poller_state cursor ...
	expect(trigger.nodeStaticData).toEqual({});
	// ... and the workflow's static data, saved by the activation, with where the node started
	expect(trigger.staticData.global).toEqual({
		contentMarketingPollTriggerStart: {
			[trigger.name]: {
				nodeId: expect.any(String),
				state: expect.objectContaining({ source: 'events' }),
			},
		},
	});
	const lead = await sandbox.createLead();
	expect(describeItems((await trigger.poll()).items ?? [])).toEqual([
		`lead.created ${String(lead.id)}`,
	]);
	expect(trigger.nodeStaticData.cursor).toMatchObject({ source: 'events' });
});
