// An n8n restart reloads the static data n8n saved: what a poll emitted is not repeated, nothing is skipped,
// and polls that returned nothing (and so saved nothing) do not matter.
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

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test('restart after emitting: the first poll of the restart emits only what came since', async () => {
		const trigger = poller(harness());
		await trigger.activate();
		const before = await createLeads(sandbox, 5);
		expect((await trigger.poll()).items).toHaveLength(5);
		const during = await createLeads(sandbox, 3);
		await sandbox.setLeadStatus(String(before[0].id), 'lost');

		const first = await trigger.restart();
		expect(describeItems(first.items ?? [])).toEqual([
			...during.map((lead) => `lead.created ${String(lead.id)}`),
			`lead.status_updated ${String(before[0].id)} new→lost`,
		]);
		expect(await trigger.restart()).toEqual({});
		expect(describeItems(flat(trigger.executions))).toEqual(await recordedEvents(sandbox, source));
	});

	test('restart before anything was emitted: the "now" saved at activation still holds', async () => {
		await createLeads(sandbox, 2);
		const trigger = poller(harness());
		await trigger.activate();
		expect(await trigger.poll()).toEqual({});
		const after = await createLeads(sandbox, 2);
		const { items } = await trigger.restart();
		expect(describeItems(items ?? [])).toEqual(
			after.map((lead) => `lead.created ${String(lead.id)}`),
		);
	});

	test('polls that only saw filtered-out events saved nothing; after a restart they are read again and still emit nothing', async () => {
		const trigger = poller(harness(), { options: { statuses: ['qualified'] } });
		await trigger.activate();
		const saved = trigger.nodeStaticData;
		const leads = await createLeads(sandbox, 4);
		expect(await trigger.poll()).toEqual({});
		expect(trigger.nodeStaticData).toEqual(saved);

		expect(await trigger.restart()).toEqual({});
		await sandbox.setLeadStatus(String(leads[2].id), 'qualified');
		const { items } = await trigger.poll();
		expect(describeItems(items ?? [])).toEqual([
			`lead.status_updated ${String(leads[2].id)} new→qualified`,
		]);
		expect(trigger.executions).toHaveLength(1);
	});

	test('events pending at a restart are emitted by its first poll, and not again', async () => {
		const trigger = poller(harness());
		await trigger.activate();
		await createLeads(sandbox, 3);
		expect((await trigger.poll()).items).toHaveLength(3);
		await createLeads(sandbox, 2);
		await trigger.restart();
		expect(await trigger.poll()).toEqual({});
		expect(describeItems(flat(trigger.executions))).toEqual(await recordedEvents(sandbox, source));
	});
});
