// The first poll after activation records where "now" is; the next polls emit what came after, once.
import { describeItems, pollSetup, poller, recordedEvents, SOURCES, useSource } from './poll-bed';

const { sandbox, proxy, harness } = pollSetup();

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test('activation emits no history; the next poll emits only what happened since, once', async () => {
		const old = await sandbox.createLead();
		await sandbox.setLeadStatus(String(old.id), 'contacted');
		const trigger = poller(harness());

		expect(await trigger.activate()).toEqual({});
		expect(trigger.nodeStaticData.cursor).toMatchObject({ source });
		proxy().reset();
		expect(await trigger.poll()).toEqual({});
		// what the README's table counts per idle poll
		expect(proxy().paths.map((path) => path.split('?')[0])).toEqual(
			source === 'events' ? ['/v1/events'] : ['/v1/leads', '/v1/leads'],
		);

		const fresh = await sandbox.createLead();
		await sandbox.setLeadStatus(String(old.id), 'qualified');
		const { items } = await trigger.poll();
		expect(describeItems(items ?? [])).toEqual([
			`lead.created ${String(fresh.id)}`,
			`lead.status_updated ${String(old.id)} contacted→qualified`,
		]);
		expect(await trigger.poll()).toEqual({});
		expect(trigger.executions).toHaveLength(1);
	});

	test('the output has the webhook trigger shape; options filter and Simplify off gives the event body', async () => {
		const trigger = poller(harness(), { options: { statuses: ['qualified'] } });
		await trigger.activate();
		const lead = await sandbox.createLead({ company: 'Analytical Engines' });
		await sandbox.setLeadStatus(String(lead.id), 'qualified');
		const { items } = await trigger.poll();
		expect(items).toHaveLength(1);
		expect(items?.[0].json).toMatchObject({
			id: lead.id,
			email: lead.email,
			company: 'Analytical Engines',
			status: 'qualified',
			event_id: expect.any(String),
			event_type: 'lead.status_updated',
			previous_status: 'new',
			occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
		});

		const raw = poller(harness(), { simple: false, events: ['lead.created'] });
		await raw.activate();
		const next = await sandbox.createLead();
		const rawItems = (await raw.poll()).items ?? [];
		expect(rawItems.map(({ json }) => json)).toEqual([
			expect.objectContaining({ type: 'lead.created', api_version: 'v1', data: { lead: next } }),
		]);
	});

	test('status changes and creations come in the order they happened', async () => {
		const trigger = poller(harness());
		await trigger.activate();
		const a = await sandbox.createLead();
		await sandbox.control.post('/_sandbox/clock/advance', { seconds: 2 });
		await sandbox.setLeadStatus(String(a.id), 'contacted');
		await sandbox.control.post('/_sandbox/clock/advance', { seconds: 2 });
		const b = await sandbox.createLead();
		const items = (await trigger.poll()).items ?? [];
		expect(describeItems(items)).toEqual([
			`lead.created ${String(a.id)}`,
			`lead.status_updated ${String(a.id)} new→contacted`,
			`lead.created ${String(b.id)}`,
		]);
		expect(describeItems(items)).toEqual(await recordedEvents(sandbox, source));
	});
});
