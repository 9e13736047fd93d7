// Workflows saved by earlier versions keep working: their state (a position with the ids of its second, the
// fallback's statuses as an object) is read, nothing is repeated or skipped, and it is then saved compact.
import type { IDataObject } from 'n8n-workflow';

import { createLeads, describeItems, pollSetup, useSource } from './poll-bed';

const { sandbox, harness } = pollSetup();

const NODE = 'node:Poll Trigger';

test("events: an earlier version's { at, ids } position", async () => {
	await useSource(sandbox, 'events');
	await createLeads(sandbox, 6, 6);
	const listed = await sandbox.api.get<{ data: IDataObject[] }>('/v1/events?order=desc&limit=100');
	const newest = listed.body.data[0];
	const ids = listed.body.data
		.filter((event) => event.created_at === newest.created_at)
		.map((event) => String(event.id));
	const trigger = harness().poller({
		type: harness().typeName('contentTriggerMarketing'),
		parameters: { events: ['lead.created'], pollTimes: { item: [{ mode: 'everyMinute' }] } },
		staticData: {
			[NODE]: { cursor: { source: 'events', events: { at: newest.created_at, ids } } },
		},
	});
	expect(await trigger.activate('init')).toEqual({});
	// the next lead in a later second: the old ids are dropped once the position leaves theirs
	await sandbox.control.post('/_sandbox/clock/advance', { seconds: 2 });
	const lead = await sandbox.createLead();
	expect(describeItems((await trigger.poll()).items ?? [])).toEqual([
		`lead.created ${String(lead.id)}`,
	]);
	expect((trigger.nodeStaticData.cursor as IDataObject).events).toEqual({
		at: expect.any(String),
		last: expect.any(String),
	});
});

test("leads fallback: an earlier version's statuses object and { at, ids } position", async () => {
	await useSource(sandbox, 'leads');
	const [lead] = await createLeads(sandbox, 1);
	const trigger = harness().poller({
		type: harness().typeName('contentTriggerMarketing'),
		parameters: {
			events: ['lead.created', 'lead.status_updated'],
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		},
		staticData: {
			[NODE]: {
				cursor: {
					source: 'leads',
					created: { at: lead.created_at, ids: [String(lead.id)] },
					updatedAt: lead.updated_at,
					statuses: { [String(lead.id)]: 'new' },
				},
			},
		},
	});
	expect(await trigger.activate('init')).toEqual({});
	await sandbox.setLeadStatus(String(lead.id), 'contacted');
	expect(describeItems((await trigger.poll()).items ?? [])).toEqual([
		`lead.status_updated ${String(lead.id)} new→contacted`,
	]);
	expect(typeof (trigger.nodeStaticData.cursor as IDataObject).statuses).toBe('string');
});
