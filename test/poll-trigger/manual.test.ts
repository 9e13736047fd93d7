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
		expect(error?.description).toMatch(/^Create a lead .* widen Only Lead Statuses/);
		expect(trigger.staticData).toEqual({});
	});

	test('no lead at all: the same error', async () => {
		const trigger = poller(harness(), { events: ['lead.status_updated'] });
		await expect(trigger.fetchTestEvent()).rejects.toMatchObject({
			message: 'No lead event matches the Events and Options of this trigger',
		});
	});
});
