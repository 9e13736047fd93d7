// What the leads-list fallback cannot see (README, docs/api-contract.md §14 "Fallback"), shown next to the events list.
import type { IDataObject } from 'n8n-workflow';

import {
	BYTES_PER_STATUS,
	MAX_REMEMBERED_STATUSES,
} from '../../dist/nodes/ContentMarketing/pollTrigger/statusMemory';
import { createLeads, describeItems, pollSetup, poller, useSource } from './poll-bed';

const { sandbox, harness } = pollSetup();

test('two status changes between polls: the events list emits both, the fallback only the last', async () => {
	const seen: Record<string, string[]> = {};
	for (const source of ['events', 'leads'] as const) {
		await useSource(sandbox, source);
		const trigger = poller(harness(), { events: ['lead.status_updated'] });
		await trigger.activate();
		const lead = await sandbox.createLead();
		await sandbox.setLeadStatus(String(lead.id), 'contacted');
		await sandbox.setLeadStatus(String(lead.id), 'qualified');
		seen[source] = describeItems((await trigger.poll()).items ?? []).map((line) =>
			line.replace(String(lead.id), 'L'),
		);
	}
	expect(seen).toEqual({
		events: ['lead.status_updated L new→contacted', 'lead.status_updated L contacted→qualified'],
		leads: ['lead.status_updated L new→qualified'],
	});
});

test('the fallback remembers the statuses of at most MAX_REMEMBERED_STATUSES leads; a change of a forgotten lead is not seen', async () => {
	await useSource(sandbox, 'leads');
	const leads = await createLeads(sandbox, MAX_REMEMBERED_STATUSES + 50, 20);
	await sandbox.setLeadStatus(String(leads[0].id), 'contacted');
	await sandbox.setLeadStatus(String(leads[leads.length - 1].id), 'contacted');
	const trigger = poller(harness(), { events: ['lead.status_updated'] });
	await trigger.activate();
	const cursor = trigger.nodeStaticData.cursor as IDataObject;
	expect((cursor.statuses as string).split(',')).toHaveLength(MAX_REMEMBERED_STATUSES);
	// the size bound of the saved state (statusMemory.ts): about 12 bytes per remembered lead
	expect(JSON.stringify(trigger.nodeStaticData).length).toBeLessThanOrEqual(
		MAX_REMEMBERED_STATUSES * BYTES_PER_STATUS + 300,
	);
	// the anchor (global static data) holds the same state once more, and nothing else grows
	expect(JSON.stringify(trigger.staticData).length).toBeLessThanOrEqual(
		2 * (MAX_REMEMBERED_STATUSES * BYTES_PER_STATUS + 300),
	);

	// leads[1] was created before the activation and is not among the 1,000 most recently updated (when
	// all the leads share one second, ids order them and it is still left out); leads[0], changed before
	// the activation, is listed again whenever it shares the newest second, and must not be emitted
	await sandbox.setLeadStatus(String(leads[1].id), 'lost');
	await sandbox.setLeadStatus(String(leads[leads.length - 2].id), 'lost');
	expect(describeItems((await trigger.poll()).items ?? [])).toEqual([
		`lead.status_updated ${String(leads[leads.length - 2].id)} new→lost`,
	]);
});
