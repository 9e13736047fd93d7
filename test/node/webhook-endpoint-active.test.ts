// Webhook Endpoint "Active" read from an expression: the text "true"/"false" is a boolean, anything
// else is refused before any request, naming the field and the item.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

describe('Webhook Endpoint: Active from an expression', () => {
	const CREATE = {
		resource: 'webhookEndpoint',
		operation: 'create',
		url: 'https://hooks.example.com/content-marketing',
		events: ['lead.created'],
	};

	async function storedActive(id: unknown): Promise<unknown> {
		return (await bed.api.get(`/v1/webhooks/${String(id)}`)).body.active;
	}

	test('Create: the text "true" and "false" are read as booleans', async () => {
		const result = await bed.run(
			{ ...CREATE, additionalFields: { active: '={{ $json.active }}' } },
			{
				input: [
					{ json: { active: 'true' } },
					{ json: { active: 'false' } },
					{ json: { active: ' TRUE ' } },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const created = jsonOf(result);
		expect(created.map((endpoint) => endpoint.active)).toEqual([true, false, true]);
		expect(
			await Promise.all(created.map(async (endpoint) => await storedActive(endpoint.id))),
		).toEqual([true, false, true]);
	});

	test('Update: the text "true" activates an inactive endpoint', async () => {
		const endpoint = (
			await bed.api.post('/v1/webhooks', {
				url: 'https://h.example.com/x',
				events: ['lead.created'],
				active: false,
			})
		).body;
		const result = await bed.run(
			{
				resource: 'webhookEndpoint',
				operation: 'update',
				webhookId: rl(String(endpoint.id)),
				updateFields: { active: '={{ $json.active }}' },
			},
			{ input: [{ json: { active: 'true' } }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].active).toBe(true);
		expect(await storedActive(endpoint.id)).toBe(true);
	});

	test('Get Many: the Active filter from the text "false" asks for inactive endpoints', async () => {
		await bed.api.post('/v1/webhooks', {
			url: 'https://a.example.com/x',
			events: ['lead.created'],
			active: false,
		});
		await bed.api.post('/v1/webhooks', {
			url: 'https://b.example.com/x',
			events: ['lead.created'],
		});
		await bed.clearRequests();
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			filters: { active: '={{ "false" }}' },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((endpoint: IDataObject) => endpoint.url)).toEqual([
			'https://a.example.com/x',
		]);
		const queries = (await bed.requests()).map((request) =>
			Object.fromEntries(new URLSearchParams(request.query)),
		);
		expect(queries).toEqual([expect.objectContaining({ active: 'false' })]);
	});

	const refused: Array<[name: string, parameters: INodeParameters, message: string]> = [
		[
			'Create: "yes"',
			{ ...CREATE, additionalFields: { active: '={{ "yes" }}' } },
			'Active: expected true or false, got "yes" [item 0]',
		],
		[
			'Create: 1',
			{ ...CREATE, additionalFields: { active: '={{ 1 }}' } },
			'Active: expected true or false, got 1 [item 0]',
		],
		[
			'Update: ""',
			{
				resource: 'webhookEndpoint',
				operation: 'update',
				webhookId: rl('wh_abc123'),
				updateFields: { active: '={{ "" }}' },
			},
			'Active: expected true or false, got nothing [item 0]',
		],
		[
			'Get Many: "no"',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: '={{ "no" }}' } },
			'Active: expected true or false, got "no" [item 0]',
		],
		[
			'Get Many: ""',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: '={{ "" }}' } },
			'Active: is empty; remove the filter or give a value [item 0]',
		],
	];

	test.each(refused)('refused: %s', async (_name, parameters, message) => {
		const result = await bed.run(parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(message);
		expect(await bed.requests()).toEqual([]);
	});
});
