// Ties (many events in one second) and events created while a poll pages: neither missed nor repeated.
import type { IDataObject } from 'n8n-workflow';

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

const { sandbox, proxy, harness } = pollSetup();

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test('events sharing seconds, and events created between the pages of a poll, are emitted exactly once and in order', async () => {
		const trigger = poller(harness());
		await trigger.activate();
		const leads = await createLeads(sandbox, 250);
		const seconds = new Set(leads.map((lead) => lead.created_at));
		expect(seconds.size).toBeLessThan(leads.length);

		// While the poll reads its second page, 30 more leads are created and 20 change status.
		let created = false;
		proxy().hook = async (path) => {
			if (!created && path.includes('cursor=')) {
				created = true;
				await createLeads(sandbox, 30);
				for (const lead of leads.slice(0, 20))
					await sandbox.setLeadStatus(String(lead.id), 'contacted');
			}
			return 'forward';
		};
		const emitted = describeItems(flat(await trigger.pollUntilQuiet()));
		expect(created).toBe(true);

		expect(emitted).toEqual(await recordedEvents(sandbox, source));
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted).toHaveLength(250 + 30 + 20);
		// The position is a second and one id however many events share it (docs/api-contract.md §14 "State").
		const cursor = trigger.nodeStaticData.cursor as IDataObject;
		const positions = source === 'events' ? [cursor.events] : [cursor.created];
		for (const position of positions)
			expect(Object.keys(position as IDataObject)).toEqual(['at', 'last']);
		if (source === 'events')
			expect(JSON.stringify(trigger.nodeStaticData).length).toBeLessThan(120);
	});

	test('a poll in the same second as the last one takes the rest of that second, not what it already emitted', async () => {
		const trigger = poller(harness());
		await trigger.activate();
		const first = await createLeads(sandbox, 3, 1);
		const firstPoll = describeItems((await trigger.poll()).items ?? []);
		const second = await createLeads(sandbox, 3, 1);
		const secondPoll = describeItems((await trigger.poll()).items ?? []);
		expect(firstPoll).toEqual(first.map((lead) => `lead.created ${String(lead.id)}`));
		expect(secondPoll).toEqual(second.map((lead) => `lead.created ${String(lead.id)}`));
	});
});
