// Only Source Channels and Only Previous Statuses in the webhook trigger, on deliveries from the sandbox; the
// poll trigger applies the same filters (test/poll-trigger/filters.test.ts).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Delivery, Harness, TriggerHarness } from '../harness';
import { FAST_RETRIES, harnessFor, triggerOf, useTriggerSandbox } from './trigger-bed';

const sandbox = useTriggerSandbox(FAST_RETRIES);
let harness: Harness;

beforeEach(async () => {
	harness = await harnessFor(sandbox, { serve: true });
});

afterEach(async () => {
	await sandbox.control.post('/_sandbox/reset');
	await harness.close();
});

async function activeTrigger(parameters: INodeParameters): Promise<TriggerHarness> {
	const trigger = triggerOf(harness, parameters);
	await trigger.activate('trigger');
	return trigger;
}

const reasonOf = (delivery: Delivery) =>
	(delivery.response?.webhookResponse as IDataObject | undefined)?.reason;

test('Only Source Channels: leads from other channels are acknowledged and dropped', async () => {
	const trigger = await activeTrigger({
		events: ['lead.created'],
		options: { sourceChannels: ['import', 'referral'] },
	});

	let next = trigger.nextDelivery();
	await sandbox.createLead({ source_channel: 'api' });
	const dropped = await next;
	expect(dropped.items).toHaveLength(0);
	expect(reasonOf(dropped)).toBe('filtered out');

	next = trigger.nextDelivery();
	const lead = await sandbox.createLead({ source_channel: 'import' });
	const kept = await next;
	expect(kept.items.map(({ json }) => [json.id, json.source_channel])).toEqual([
		[lead.id, 'import'],
	]);
});

test('Only Previous Statuses: only changes away from those statuses start the workflow', async () => {
	const trigger = await activeTrigger({
		events: ['lead.created', 'lead.status_updated'],
		options: { previousStatuses: ['contacted'] },
	});
	let next = trigger.nextDelivery();
	const lead = await sandbox.createLead();
	expect((await next).items).toHaveLength(0);

	next = trigger.nextDelivery();
	await sandbox.setLeadStatus(String(lead.id), 'contacted');
	expect((await next).items).toHaveLength(0);

	next = trigger.nextDelivery();
	await sandbox.setLeadStatus(String(lead.id), 'qualified');
	const kept = await next;
	expect(kept.items.map(({ json }) => [json.previous_status, json.status])).toEqual([
		['contacted', 'qualified'],
	]);
});
