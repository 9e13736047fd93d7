import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();
let receiver: http.Server;
let receiverUrl: string;
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			received.push({ headers: req.headers, body });
			res.writeHead(req.url === '/fail' ? 500 : 200).end('ok');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
	receiver?.closeAllConnections();
	await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(() => {
	received.length = 0;
});

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

async function createEndpoint(fields: IDataObject = {}): Promise<IDataObject> {
	const { status, body } = await bed.api.post('/v1/webhooks', {
		url: `${receiverUrl}/hook`,
		events: ['lead.created'],
		...fields,
	});
	expect(status).toBe(201);
	return body;
}

describe('Webhook Endpoint: Create', () => {
	test('registers the endpoint and returns the one-time secret with a hint', async () => {
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://hooks.example.com/content-marketing',
			events: ['lead.created', 'lead.status_updated'],
			additionalFields: { description: 'n8n: new leads', active: false },
		});

		expect(result.error).toBeUndefined();
		const [endpoint] = jsonOf(result);
		expect(endpoint).toMatchObject({
			url: 'https://hooks.example.com/content-marketing',
			events: ['lead.created', 'lead.status_updated'],
			description: 'n8n: new leads',
			active: false,
			status: 'active',
		});
		expect(String(endpoint.id)).toMatch(/^wh_/);
		expect(String(endpoint.secret)).toMatch(/^whsec_/);
		expect(String(endpoint.secret_hint)).toContain('only in this answer');
		// The secret is not returned again.
		const again = await bed.api.get(`/v1/webhooks/${String(endpoint.id)}`);
		expect(again.body).not.toHaveProperty('secret');
	});

	test('events given by an expression as a comma-separated list', async () => {
		const result = await bed.run(
			{
				resource: 'webhookEndpoint',
				operation: 'create',
				url: '={{ $json.url }}',
				events: '={{ $json.events }}',
			},
			{
				input: [
					{ json: { url: 'https://a.example.com/h', events: 'lead.created, lead.status_updated' } },
				],
			},
		);
		expect(jsonOf(result)[0].events).toEqual(['lead.created', 'lead.status_updated']);
	});

	test.each([
		[
			'URL missing',
			{ url: '={{ "" }}', events: ['lead.created'] },
			/^URL: is required \[item 0\]$/,
		],
		[
			'URL not a URL',
			{ url: 'hooks.example.com', events: ['lead.created'] },
			/^URL: expected an http\(s\):\/\/ URL/,
		],
		[
			'URL with another scheme',
			{ url: 'ftp://hooks.example.com', events: ['lead.created'] },
			/^URL: expected an http\(s\):\/\/ URL/,
		],
		[
			'no events',
			{ url: 'https://a.example.com', events: '={{ [] }}' },
			/^Events: choose at least one event type \[item 0\]$/,
		],
		[
			'description too long',
			{
				url: 'https://a.example.com',
				events: ['lead.created'],
				additionalFields: { description: 'd'.repeat(501) },
			},
			/^Description: must be at most 500 characters/,
		],
	])('bad input: %s fails before any request', async (_name, parameters, message) => {
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			...parameters,
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(await bed.requests()).toEqual([]);
	});

	test('an event type the service does not know is refused by the node, naming the known ones', async () => {
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://a.example.com',
			events: ['lead.deleted'],
		});
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(
			'Events: expected one of lead.created, lead.status_updated, got "lead.deleted" [item 0]',
		);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Webhook Endpoint: Get, Get Many, Update, Delete', () => {
	test('Get returns the endpoint', async () => {
		const endpoint = await createEndpoint();
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookId: rl(String(endpoint.id)),
		});
		const { secret: _secret, ...withoutSecret } = endpoint;
		expect(jsonOf(result)[0]).toEqual(withoutSecret);
	});

	test('Get Many: Limit, Return All over pages, and filters', async () => {
		for (let index = 0; index < 25; index++) {
			await createEndpoint({
				url: `https://h${index}.example.com/x`,
				active: index % 5 !== 0,
				events: index % 2 ? ['lead.created'] : ['lead.status_updated'],
			});
		}
		await bed.control.delete('/_sandbox/requests');

		expect(
			(await bed.run({ resource: 'webhookEndpoint', operation: 'getAll', limit: 7 })).items,
		).toHaveLength(7);

		const all = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
		});
		expect(new Set(jsonOf(all).map((endpoint) => endpoint.id)).size).toBe(25);

		const inactive = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
			filters: { active: false },
		});
		expect(inactive.items).toHaveLength(5);
		const byEvent = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
			filters: { event: 'lead.created' },
		});
		expect(
			jsonOf(byEvent).every((endpoint) => (endpoint.events as string[]).includes('lead.created')),
		).toBe(true);
		expect(byEvent.items).toHaveLength(12);
		const byUrl = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
			filters: { url: 'https://h3.example.com/x' },
		});
		expect(jsonOf(byUrl).map((endpoint) => endpoint.url)).toEqual(['https://h3.example.com/x']);
	});

	test('Update changes only the given fields', async () => {
		const endpoint = await createEndpoint({ description: 'old' });
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookId: rl(String(endpoint.id)),
			updateFields: { active: false, events: ['lead.created', 'lead.status_updated'] },
		});
		expect(jsonOf(result)[0]).toMatchObject({
			id: endpoint.id,
			active: false,
			events: ['lead.created', 'lead.status_updated'],
			description: 'old',
			url: endpoint.url,
		});
	});

	test('Update without fields fails before any request', async () => {
		const endpoint = await createEndpoint();
		await bed.control.delete('/_sandbox/requests');
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'update',
			webhookId: rl(String(endpoint.id)),
			updateFields: {},
		});
		expect(result.error?.message).toBe(
			'Update Fields: add at least one field to update (URL, Events, Description or Active) [item 0]',
		);
		expect(await bed.requests()).toEqual([]);
	});

	test('Delete outputs { id, deleted: true } and the endpoint is gone', async () => {
		const endpoint = await createEndpoint();
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookId: rl(String(endpoint.id)),
		});
		expect(jsonOf(result)).toEqual([{ id: endpoint.id, deleted: true }]);
		expect((await bed.api.get(`/v1/webhooks/${String(endpoint.id)}`)).status).toBe(404);

		const again = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookId: rl(String(endpoint.id)),
		});
		expect(again.error?.message).toMatch(/\(not_found\) \[item 0\]$/);
	});

	test('an ID of another kind is refused before any request', async () => {
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'get',
			webhookId: rl('={{ "lead_abc" }}'),
		});
		expect(result.error?.message).toMatch(
			/^Webhook Endpoint: expected an ID like wh_\w+, got "lead_abc" \[item 0\]$/,
		);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Webhook Endpoint: Send Test Event', () => {
	test('delivers webhook.test to the endpoint and reports its answer', async () => {
		const endpoint = await createEndpoint({ active: false });
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'sendTest',
			webhookId: rl(String(endpoint.id)),
		});

		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			endpoint_id: endpoint.id,
			delivered: true,
			status_code: 200,
			endpoint_status: 'normal',
		});
		expect(received).toHaveLength(1);
		expect(JSON.parse(received[0].body)).toMatchObject({
			type: 'webhook.test',
			data: { test: true },
		});
		expect(received[0].headers['cm-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
	});

	test('a failing receiver is reported, not thrown', async () => {
		const endpoint = await createEndpoint({ url: `${receiverUrl}/fail` });
		const result = await bed.run({
			resource: 'webhookEndpoint',
			operation: 'sendTest',
			webhookId: rl(String(endpoint.id)),
		});
		expect(jsonOf(result)[0]).toMatchObject({
			delivered: false,
			status_code: 500,
			endpoint_status: 'unreachable',
		});
	});
});
