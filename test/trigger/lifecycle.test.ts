import { NodeApiError } from 'n8n-workflow';

import type { Harness } from '../harness';
import { CREDENTIAL, useTriggerSandbox, harnessFor, recordFor, triggerOf } from './trigger-bed';

const PARAMETERS = { events: ['lead.created'] };

const sandbox = useTriggerSandbox();
let harness: Harness;

beforeEach(async () => {
	harness = await harnessFor(sandbox);
});

afterEach(async () => {
	await harness.close();
});

describe('Content Marketing Trigger: endpoint lifecycle', () => {
	test('activation registers exactly one endpoint and keeps its id and secret', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		const url = trigger.webhookUrl('trigger');

		await trigger.activate('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0]).toMatchObject({ url, events: ['lead.created'], active: true });
		expect(endpoints[0].description).toContain('Trigger');
		const record = recordFor(trigger, url);
		expect(record?.id).toBe(endpoints[0].id);
		expect(record?.secret).toMatch(/^whsec_/);
	});

	test('a second activation finds the endpoint (checkExists true) and registers none', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();

		expect(await trigger.checkExists('trigger')).toBe(true);
		await trigger.activate('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints.map((endpoint) => endpoint.id)).toEqual([first.id]);
	});

	test('a re-save with other events adopts the endpoint and patches its events, registering none', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();

		const resaved = triggerOf(
			harness,
			{ events: ['lead.created', 'lead.status_updated'] },
			{
				webhookId: trigger.node.webhookId,
				staticData: trigger.staticData,
			},
		);
		expect(await resaved.checkExists('trigger')).toBe(true);

		const endpoints = await sandbox.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0].id).toBe(first.id);
		expect([...endpoints[0].events].sort()).toEqual(['lead.created', 'lead.status_updated']);
	});

	test('a restart (fresh node instance, static data kept) registers none', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();

		const restarted = await harnessFor(sandbox);
		try {
			const again = triggerOf(restarted, PARAMETERS, {
				webhookId: trigger.node.webhookId,
				staticData: trigger.staticData,
			});
			expect(again.webhookUrl('trigger')).toBe(trigger.webhookUrl('trigger'));
			await again.activate('trigger');
			expect((await sandbox.endpoints()).map((endpoint) => endpoint.id)).toEqual([first.id]);
		} finally {
			await restarted.close();
		}
	});

	test('an active:false or events drift is patched back on activation', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();
		await sandbox.api.patch(`/v1/webhooks/${first.id}`, {
			active: false,
			events: ['lead.status_updated'],
		});

		await trigger.activate('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0]).toMatchObject({ id: first.id, active: true, events: ['lead.created'] });
	});

	test('an endpoint for this URL whose secret the node does not hold is deleted and replaced, never duplicated', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		const url = trigger.webhookUrl('trigger');
		const orphan = await sandbox.api.post<{ id: string }>('/v1/webhooks', {
			url,
			events: ['lead.created'],
		});
		expect(orphan.status).toBe(201);

		expect(await trigger.checkExists('trigger')).toBe(false);
		expect(await sandbox.endpoints(url)).toHaveLength(0);
		await trigger.create('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0].id).not.toBe(orphan.body.id);
		expect(recordFor(trigger, url)?.id).toBe(endpoints[0].id);
	});

	test('an endpoint deleted in the console is recreated on the next activation', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();
		await sandbox.api.delete(`/v1/webhooks/${first.id}`);

		await trigger.activate('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0].id).not.toBe(first.id);
		expect(recordFor(trigger, trigger.webhookUrl('trigger'))?.id).toBe(endpoints[0].id);
	});

	test('deactivation removes the endpoint and clears the static data', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');

		await trigger.deactivate('trigger');

		expect(await sandbox.endpoints()).toHaveLength(0);
		expect(trigger.nodeStaticData).toEqual({});
	});

	test('the test URL and the production URL each get their own endpoint, and both are removed', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		const testUrl = trigger.webhookUrl('manual');
		const productionUrl = trigger.webhookUrl('trigger');
		expect(testUrl).not.toBe(productionUrl);

		await trigger.activate('manual');
		await trigger.activate('trigger');

		const endpoints = await sandbox.endpoints();
		expect(endpoints.map((endpoint) => endpoint.url).sort()).toEqual(
			[productionUrl, testUrl].sort(),
		);
		expect(recordFor(trigger, testUrl)?.secret).not.toBe(recordFor(trigger, productionUrl)?.secret);

		await trigger.deactivate('manual');
		expect((await sandbox.endpoints()).map((endpoint) => endpoint.url)).toEqual([productionUrl]);
		await trigger.deactivate('trigger');
		expect(await sandbox.endpoints()).toHaveLength(0);
		expect(trigger.nodeStaticData).toEqual({});
	});

	test('deletion counts a 404 as already gone', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const [first] = await sandbox.endpoints();
		await sandbox.api.delete(`/v1/webhooks/${first.id}`);

		expect(await trigger.delete('trigger')).toBe(true);
		expect(trigger.nodeStaticData).toEqual({});
	});

	test('deletion reports any other failure and keeps the record', async () => {
		const trigger = triggerOf(harness, PARAMETERS);
		await trigger.activate('trigger');
		const url = trigger.webhookUrl('trigger');
		harness.setCredentials(CREDENTIAL, { apiKey: sandbox.keys.read_only, baseUrl: sandbox.url });

		await expect(trigger.delete('trigger')).rejects.toThrow(NodeApiError);
		expect(await sandbox.endpoints()).toHaveLength(1);
		expect(recordFor(trigger, url)?.id).toBe((await sandbox.endpoints())[0].id);

		harness.setCredentials(CREDENTIAL, { apiKey: sandbox.keys.full, baseUrl: sandbox.url });
		await trigger.deactivate('trigger');
		expect(await sandbox.endpoints()).toHaveLength(0);
	});

	test('activation without any event is refused before anything is registered', async () => {
		const trigger = triggerOf(harness, { events: [] });

		await expect(trigger.activate('trigger')).rejects.toThrow('Select at least one event');
		expect(await sandbox.endpoints()).toHaveLength(0);
	});
});
