// Fetch Test Event (manual mode): the most recent matching event; the cursor does not move.
import { describeItems, pollSetup, poller, recordedEvents, SOURCES, useSource } from './poll-bed';

const { sandbox, harness } = pollSetup();

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test('returns the most recent matching event and leaves the saved cursor and the next poll alone', async () => {
		const trigger = poller(harness(), { events: ['lead.created'], options: { statuses: ['new'] } });
		await trigger.activate();
		const saved = trigger.staticData;
		const a = await sandbox.createLead();
		const b = await sandbox.createLead();

		const items = await trigger.fetchTestEvent();
		expect(describeItems(items)).toEqual([`lead.created ${String(b.id)}`]);
		expect(items[0].json).toMatchObject({ id: b.id, event_type: 'lead.created', status: 'new' });
		expect(trigger.staticData).toEqual(saved);

		expect(describeItems((await trigger.poll()).items ?? [])).toEqual([
			`lead.created ${String(a.id)}`,
			`lead.created ${String(b.id)}`,
		]);
	});

	test('before any activation it reads the most recent event without recording a cursor', async () => {
		const lead = await sandbox.createLead();
		await sandbox.setLeadStatus(String(lead.id), 'qualified');
		const trigger = poller(harness(), { events: ['lead.status_updated'] });
		const items = await trigger.fetchTestEvent();
		expect(items.map(({ json }) => [json.event_type, json.id, json.status])).toEqual([
			['lead.status_updated', lead.id, 'qualified'],
		]);
		expect(trigger.staticData).toEqual({});
		expect(await recordedEvents(sandbox, source)).toHaveLength(2);
	});

	test('nothing matching: an error saying what to do, nothing recorded', async () => {
		await sandbox.createLead();
		const trigger = poller(harness(), { options: { statuses: ['converted'] } });
		const error = await trigger.fetchTestEvent().then(
			() => undefined,
			(thrown: unknown) => thrown as { message: string; description?: string },
		);
		expect(error?.message).toBe('No lead event matches the Events and Options of this trigger');
		expect(error?.description).toBe(
			'Create a lead (or change the status of one) in Content Marketing or widen Only Lead Statuses ' +
				'(set to Converted), then fetch a test event again.',
		);
		expect(trigger.staticData).toEqual({});
	});

	// The hint names the Events and Options that are set, with their values, and only those.
	test.each([
		[
			'Only Previous Statuses and Only Source Channels',
			{ options: { previousStatuses: ['lost'], sourceChannels: ['email', 'organic_search'] } },
			'Change the status of a lead in Content Marketing or widen Only Previous Statuses (set to Lost) ' +
				'and Only Source Channels (set to Email, Organic Search), then fetch a test event again.',
		],
		[
			'one event, Only Source Resource',
			{
				events: ['lead.status_updated'],
				options: { sourceResource: { __rl: true, mode: 'id', value: 'res_nothing1' } },
			},
			'Change the status of a lead in Content Marketing, select more Events or clear Only Source ' +
				'Resource (set to res_nothing1), then fetch a test event again.',
		],
		[
			'Lead Created only, with Only Previous Statuses',
			{ events: ['lead.created'], options: { previousStatuses: ['new'] } },
			'Only Previous Statuses is set (to New), so Lead Created events never match: select Lead Status ' +
				'Updated in Events or remove Only Previous Statuses, then fetch a test event again.',
		],
		[
			'both events, no options, no lead yet',
			{},
			'Create a lead (or change the status of one) in Content Marketing, then fetch a test event again.',
		],
	])('nothing matching, %s: the hint names what is set', async (_name, parameters, hint) => {
		if (Object.keys(parameters).length > 0) await sandbox.createLead({ source_channel: 'api' });
		const trigger = poller(harness(), parameters);
		await expect(trigger.fetchTestEvent()).rejects.toMatchObject({
			message: 'No lead event matches the Events and Options of this trigger',
			description: hint,
		});
	});

	test('no lead at all: the same error', async () => {
		const trigger = poller(harness(), { events: ['lead.status_updated'] });
		await expect(trigger.fetchTestEvent()).rejects.toMatchObject({
			message: 'No lead event matches the Events and Options of this trigger',
		});
	});
});
