// Webhook URL and event types are checked in the node (docs/api-contract.md §10, §13): refused before any
// request with the field and the item named, in the node's words rather than the service's.
import type { INodeParameters } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const CREATE = {
	resource: 'webhookEndpoint',
	operation: 'create',
	url: 'https://hooks.example.com/cm',
	events: ['lead.created'],
};
const UPDATE = {
	resource: 'webhookEndpoint',
	operation: 'update',
	webhookId: rl('wh_aaaaaaaaaaaaaaaa'),
};
const URL_EXPECTED =
	'URL: expected an http(s):// URL the service can deliver to (https://, or http:// for localhost, 127.0.0.1 or [::1] only)';

const refused: Array<[name: string, parameters: INodeParameters, message: string]> = [
	[
		'Create: http:// on a public host',
		{ ...CREATE, url: '={{ "http://hooks.example.com/cm" }}' },
		`${URL_EXPECTED} like https://hooks.example.com/cm, got "http://hooks.example.com/cm" [item 0]`,
	],
	[
		'Create: http:// on a private address',
		{ ...CREATE, url: 'http://10.0.0.5/cm' },
		'got "http://10.0.0.5/cm" [item 0]',
	],
	[
		'Create: no scheme',
		{ ...CREATE, url: '={{ "hooks.example.com/cm" }}' },
		'got "hooks.example.com/cm" [item 0]',
	],
	[
		'Create: another scheme',
		{ ...CREATE, url: 'ws://localhost/cm' },
		'got "ws://localhost/cm" [item 0]',
	],
	[
		'Create: over 2,048 characters',
		{ ...CREATE, url: `https://hooks.example.com/${'a'.repeat(2_030)}` },
		'URL: must be at most 2048 characters (got 2056) [item 0]',
	],
	[
		'Update: http:// on a public host',
		{ ...UPDATE, updateFields: { url: '={{ "http://hooks.example.com/cm" }}' } },
		'got "http://hooks.example.com/cm" [item 0]',
	],
	[
		'Create: an unknown event type',
		{ ...CREATE, events: '={{ ["lead.created", "lead.deleted"] }}' },
		'Events: expected one of lead.created, lead.status_updated, got "lead.deleted" [item 0]',
	],
	[
		'Create: the test event is not subscribable',
		{ ...CREATE, events: ['webhook.test'] },
		'Events: expected one of lead.created, lead.status_updated, got "webhook.test" [item 0]',
	],
	[
		'Create: unknown type in comma-separated text',
		{ ...CREATE, events: '={{ "lead.created, lead.updated" }}' },
		'got "lead.updated" [item 0]',
	],
	[
		'Update: an unknown event type',
		{ ...UPDATE, updateFields: { events: '={{ ["LEAD.CREATED"] }}' } },
		'Events: expected one of lead.created, lead.status_updated, got "LEAD.CREATED" [item 0]',
	],
	[
		'Get Many: an unknown event filter',
		{
			resource: 'webhookEndpoint',
			operation: 'getAll',
			filters: { event: '={{ "lead.deleted" }}' },
		},
		'Event: expected one of lead.created, lead.status_updated, got "lead.deleted" [item 0]',
	],
];

test.each(refused)('refused before any request: %s', async (_name, parameters, message) => {
	const result = await bed.run(parameters);
	expect(result.error?.name).toBe('NodeOperationError');
	expect(result.error?.message).toContain(message);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(await bed.requests()).toEqual([]);
});

test('the failing item is named: item 1 of 3 with Continue On Fail, the others are created', async () => {
	const result = await bed.run(
		{ ...CREATE, url: '={{ $json.url }}' },
		{
			continueOnFail: true,
			input: [
				{ json: { url: 'https://a.example.com/h' } },
				{ json: { url: 'http://a.example.com/h' } },
				{ json: { url: 'https://b.example.com/h' } },
			],
		},
	);
	const outputs = jsonOf(result);
	expect(outputs.map((json) => json.url ?? json.error)).toEqual([
		'https://a.example.com/h',
		`${URL_EXPECTED} like https://hooks.example.com/cm, got "http://a.example.com/h" [item 1]`,
		'https://b.example.com/h',
	]);
	expect((await bed.requests()).map((request) => request.method)).toEqual(['POST', 'POST']);
});

test('repeated event types are sent once', async () => {
	const result = await bed.run({
		...CREATE,
		events: '={{ ["lead.created", " lead.created", "lead.status_updated"] }}',
	});
	expect(result.error).toBeUndefined();
	expect(jsonOf(result)[0].events).toEqual(['lead.created', 'lead.status_updated']);
});

// The node's URL rule is the sandbox's: what one accepts the other accepts.
test.each([
	['https://hooks.example.com/cm', true],
	['https://10.0.0.5:8443/cm', true],
	['http://localhost:5678/webhook/abc', true],
	['http://127.0.0.1:5678/webhook/abc', true],
	['http://127.8.9.10/x', true],
	['http://[::1]:5678/webhook/abc', true],
	['http://hooks.example.com/cm', false],
	['http://192.168.1.10/cm', false],
	['ftp://hooks.example.com/cm', false],
	['https://', false],
])('%s: accepted by the node = %s, as by the sandbox', async (url, accepted) => {
	const result = await bed.run({ ...CREATE, url });
	expect(result.error === undefined).toBe(accepted);
	const direct = await bed.api.post('/v1/webhooks', { url, events: ['lead.created'] });
	expect(direct.status === 201).toBe(accepted);
});
