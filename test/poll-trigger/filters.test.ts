// Only Source Channels and Only Previous Statuses (leadEvents/), in both sources of the poll trigger; the
// webhook trigger applies the same filters (test/trigger/filters.test.ts).
import { describeItems, pollSetup, poller, SOURCES, useSource } from './poll-bed';

const { sandbox, harness } = pollSetup();

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test('Only Source Channels: events of leads from other channels are dropped', async () => {
		const trigger = poller(harness(), { options: { sourceChannels: ['import', 'referral'] } });
		await trigger.activate();
		const imported = await sandbox.createLead({ source_channel: 'import' });
		await sandbox.createLead({ source_channel: 'api' });
		const referred = await sandbox.createLead({ source_channel: 'referral' });
		const { items } = await trigger.poll();
		expect(describeItems(items ?? [])).toEqual([
			`lead.created ${String(imported.id)}`,
			`lead.created ${String(referred.id)}`,
		]);
		expect(items?.map(({ json }) => json.source_channel)).toEqual(['import', 'referral']);
	});

	test('Only Previous Statuses: only changes away from those statuses; creations are dropped', async () => {
		const trigger = poller(harness(), {
			options: { previousStatuses: ['contacted'], sourceChannels: ['import'] },
		});
		await trigger.activate();
		const lead = await sandbox.createLead({ source_channel: 'import' });
		const other = await sandbox.createLead({ source_channel: 'api' });
		expect(await trigger.poll()).toEqual({});

		await sandbox.setLeadStatus(String(lead.id), 'contacted');
		await sandbox.setLeadStatus(String(other.id), 'contacted');
		expect(await trigger.poll()).toEqual({});

		await sandbox.setLeadStatus(String(lead.id), 'qualified');
		await sandbox.setLeadStatus(String(other.id), 'qualified');
		const { items } = await trigger.poll();
		expect(describeItems(items ?? [])).toEqual([
			`lead.status_updated ${String(lead.id)} contacted→qualified`,
		]);
	});
});
