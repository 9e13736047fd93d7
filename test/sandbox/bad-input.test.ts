// Spec "Errors: 400 invalid_params", docs/api-contract.md §1 and §3: bad input to every endpoint is 400 naming the field,
// and the store is unchanged.
import {
	expectError,
	useSandbox,
	type Lead,
	type Resource,
	type WebhookEndpoint,
} from '../support/sandbox-client';

const sandbox = useSandbox();

let lead: Lead;
let resource: Resource;
let webhook: WebhookEndpoint;

beforeAll(async () => {
	lead = await sandbox.createLead();
	resource = await sandbox.createResource({ type: 'pdf' });
	webhook = (
		await sandbox.api.post<WebhookEndpoint>('/v1/webhooks', {
			url: 'https://hooks.example.com/x',
			events: ['lead.created'],
		})
	).body;
});

type Case = [label: string, method: string, path: () => string, body: unknown, param: string];

const cases: Case[] = [
	// GET /v1/leads
	['leads list: unknown query parameter', 'GET', () => '/v1/leads?foo=1', undefined, 'foo'],
	['leads list: limit over 100', 'GET', () => '/v1/leads?limit=101', undefined, 'limit'],
	['leads list: days not an integer', 'GET', () => '/v1/leads?days=week', undefined, 'days'],
	[
		'leads list: bad assigned_to id',
		'GET',
		() => '/v1/leads?assigned_to=bob',
		undefined,
		'assigned_to',
	],
	['leads list: q too long', 'GET', () => `/v1/leads?q=${'x'.repeat(201)}`, undefined, 'q'],
	[
		'leads list: a parameter given twice',
		'GET',
		() => '/v1/leads?status=new&status=lost',
		undefined,
		'status',
	],
	// POST /v1/leads
	['create lead: missing email', 'POST', () => '/v1/leads', { name: 'x' }, 'email'],
	['create lead: email of wrong type', 'POST', () => '/v1/leads', { email: 42 }, 'email'],
	['create lead: email not an address', 'POST', () => '/v1/leads', { email: 'nobody' }, 'email'],
	[
		'create lead: email too long',
		'POST',
		() => '/v1/leads',
		{ email: `${'a'.repeat(250)}@x.io` },
		'email',
	],
	[
		'create lead: name too long',
		'POST',
		() => '/v1/leads',
		{ email: 'a@example.com', name: 'x'.repeat(201) },
		'name',
	],
	[
		'create lead: unknown enum',
		'POST',
		() => '/v1/leads',
		{ email: 'a@example.com', source_channel: 'radio' },
		'source_channel',
	],
	[
		'create lead: read-only score',
		'POST',
		() => '/v1/leads',
		{ email: 'a@example.com', score: 1 },
		'score',
	],
	[
		'create lead: body is an array',
		'POST',
		() => '/v1/leads',
		[{ email: 'a@example.com' }],
		'body',
	],
	['create lead: body is a string', 'POST', () => '/v1/leads', 'a@example.com', 'body'],
	['create lead: body missing', 'POST', () => '/v1/leads', undefined, 'body'],
	[
		'create lead: unknown query parameter',
		'POST',
		() => '/v1/leads?dry_run=true',
		{ email: 'a@example.com' },
		'dry_run',
	],
	// GET/PATCH /v1/leads/{id}
	['get lead: malformed id', 'GET', () => '/v1/leads/12345', undefined, 'id'],
	['get lead: id with the wrong prefix', 'GET', () => `/v1/leads/${resource.id}`, undefined, 'id'],
	['get lead: id too long', 'GET', () => `/v1/leads/lead_${'a'.repeat(65)}`, undefined, 'id'],
	[
		'get lead: unknown query parameter',
		'GET',
		() => `/v1/leads/${lead.id}?expand=all`,
		undefined,
		'expand',
	],
	['patch lead: malformed id', 'PATCH', () => '/v1/leads/lead_!!', { status: 'lost' }, 'id'],
	[
		'patch lead: unknown status',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ status: 'won' },
		'status',
	],
	[
		'patch lead: status of wrong type',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ status: 1 },
		'status',
	],
	[
		'patch lead: bad assigned_to',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ assigned_to: 'bob' },
		'assigned_to',
	],
	[
		'patch lead: notes of wrong type',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ notes: ['a'] },
		'notes',
	],
	[
		'patch lead: custom_fields not an object',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ custom_fields: 'x' },
		'custom_fields',
	],
	['patch lead: empty body', 'PATCH', () => `/v1/leads/${lead.id}`, {}, 'body'],
	[
		'patch lead: read-only email',
		'PATCH',
		() => `/v1/leads/${lead.id}`,
		{ email: 'b@example.com' },
		'email',
	],
	// CRM
	['sync-crm: malformed id', 'POST', () => '/v1/leads/nope/sync-crm', undefined, 'id'],
	['sync-crm: a body', 'POST', () => `/v1/leads/${lead.id}/sync-crm`, { crm: 'x' }, 'crm'],
	[
		'batch: over 100 ids',
		'POST',
		() => '/v1/leads/batch-sync-crm',
		{ lead_ids: Array.from({ length: 101 }, (_, i) => `lead_${i}`) },
		'lead_ids',
	],
	[
		'batch: ids not strings',
		'POST',
		() => '/v1/leads/batch-sync-crm',
		{ lead_ids: [1] },
		'lead_ids.0',
	],
	// GET/POST /v1/resources
	[
		'resources list: unknown query parameter',
		'GET',
		() => '/v1/resources?owner=me',
		undefined,
		'owner',
	],
	['resources list: unknown status', 'GET', () => '/v1/resources?status=live', undefined, 'status'],
	['resources list: bad order', 'GET', () => '/v1/resources?order=random', undefined, 'order'],
	['create resource: missing title', 'POST', () => '/v1/resources', { type: 'pdf' }, 'title'],
	[
		'create resource: unknown type',
		'POST',
		() => '/v1/resources',
		{ title: 't', type: 'audio' },
		'type',
	],
	[
		'create resource: tags of wrong type',
		'POST',
		() => '/v1/resources',
		{ title: 't', type: 'pdf', tags: [1] },
		'tags.0',
	],
	[
		'create resource: read-only status',
		'POST',
		() => '/v1/resources',
		{ title: 't', type: 'pdf', status: 'draft' },
		'status',
	],
	[
		'create resource: malformed cta_id',
		'POST',
		() => '/v1/resources',
		{ title: 't', type: 'pdf', cta_id: 'cta-1' },
		'cta_id',
	],
	// /v1/resources/{id}
	['get resource: malformed id', 'GET', () => '/v1/resources/res_', undefined, 'id'],
	['put resource: malformed id', 'PUT', () => '/v1/resources/abc', { title: 't' }, 'id'],
	[
		'put resource: title of wrong type',
		'PUT',
		() => `/v1/resources/${resource.id}`,
		{ title: 5 },
		'title',
	],
	[
		'put resource: unknown field',
		'PUT',
		() => `/v1/resources/${resource.id}`,
		{ colour: 'red' },
		'colour',
	],
	[
		'put resource: track_visitors of wrong type',
		'PUT',
		() => `/v1/resources/${resource.id}`,
		{ track_visitors: 'no' },
		'track_visitors',
	],
	['delete resource: malformed id', 'DELETE', () => '/v1/resources/lead_abc', undefined, 'id'],
	[
		'delete resource: unknown query parameter',
		'DELETE',
		() => `/v1/resources/${resource.id}?force=1`,
		undefined,
		'force',
	],
	['publish: malformed id', 'POST', () => '/v1/resources/x/publish', undefined, 'id'],
	['publish: a body', 'POST', () => `/v1/resources/${resource.id}/publish`, { at: 'now' }, 'at'],
	['archive: malformed id', 'POST', () => '/v1/resources/x/archive', undefined, 'id'],
	[
		'archive: a body',
		'POST',
		() => `/v1/resources/${resource.id}/archive`,
		{ reason: 'x' },
		'reason',
	],
	// Webhooks
	[
		'webhooks list: unknown query parameter',
		'GET',
		() => '/v1/webhooks?status=normal',
		undefined,
		'status',
	],
	[
		'create webhook: missing events',
		'POST',
		() => '/v1/webhooks',
		{ url: 'https://h.example/x' },
		'events',
	],
	[
		'create webhook: url of wrong type',
		'POST',
		() => '/v1/webhooks',
		{ url: 5, events: ['lead.created'] },
		'url',
	],
	[
		'create webhook: unknown event',
		'POST',
		() => '/v1/webhooks',
		{ url: 'https://h.example/x', events: ['lead.deleted'] },
		'events.0',
	],
	['get webhook: malformed id', 'GET', () => '/v1/webhooks/wh-1', undefined, 'id'],
	[
		'patch webhook: active of wrong type',
		'PATCH',
		() => `/v1/webhooks/${webhook.id}`,
		{ active: 1 },
		'active',
	],
	[
		'patch webhook: plain http url',
		'PATCH',
		() => `/v1/webhooks/${webhook.id}`,
		{ url: 'http://h.example/x' },
		'url',
	],
	['delete webhook: malformed id', 'DELETE', () => '/v1/webhooks/x', undefined, 'id'],
	[
		'test webhook: a body',
		'POST',
		() => `/v1/webhooks/${webhook.id}/test`,
		{ event: 'lead.created' },
		'event',
	],
	[
		'event types: unknown query parameter',
		'GET',
		() => '/v1/webhooks/event-types?lang=de',
		undefined,
		'lang',
	],
	// Users and CTAs
	['users: unknown query parameter', 'GET', () => '/v1/users?role=admin', undefined, 'role'],
	['users: malformed id', 'GET', () => '/v1/users/u1', undefined, 'id'],
	['ctas: q empty', 'GET', () => '/v1/ctas?q=', undefined, 'q'],
	['ctas: malformed id', 'GET', () => '/v1/ctas/c1', undefined, 'id'],
	// Analytics (the behaviour engine's endpoints, same rules)
	[
		'analytics overview: unknown query parameter',
		'GET',
		() => '/v1/analytics/overview?foo=1',
		undefined,
		'foo',
	],
	[
		'analytics overview: bad date',
		'GET',
		() => '/v1/analytics/overview?start_date=2026-13-40&end_date=2026-12-01',
		undefined,
		'start_date',
	],
	['analytics overview: bad days', 'GET', () => '/v1/analytics/overview?days=0', undefined, 'days'],
	[
		'analytics overview: bad timezone',
		'GET',
		() => '/v1/analytics/overview?timezone=Mars/Base',
		undefined,
		'timezone',
	],
	[
		'analytics funnel: malformed resource_id',
		'GET',
		() => '/v1/analytics/funnel?resource_id=abc',
		undefined,
		'resource_id',
	],
	['analytics resource: malformed id', 'GET', () => '/v1/analytics/resources/abc', undefined, 'id'],
	[
		'analytics leads: bad granularity',
		'GET',
		() => '/v1/analytics/leads?granularity=hour',
		undefined,
		'granularity',
	],
];

describe('Errors: 400 invalid_params — bad input to every endpoint names the field; the store is unchanged', () => {
	test.each(cases)('%s', async (_label, method, path, body, param) => {
		const before = await sandbox.snapshot();
		const answer = await sandbox.api.call(method, path(), { json: body });
		expectError(answer, 400, 'invalid_params', param);
		expect(await sandbox.snapshot()).toBe(before);
	});
});

describe('Errors: 400 invalid_params — request format (contract §1)', () => {
	test('a JSON body without Content-Type: application/json is 400 Content-Type', async () => {
		const before = await sandbox.snapshot();
		for (const contentType of [
			'text/plain',
			'application/x-www-form-urlencoded',
			'application/xml',
		]) {
			const answer = await sandbox.api.call('POST', '/v1/leads', {
				body: '{"email":"a@example.com"}',
				headers: { 'Content-Type': contentType },
			});
			expectError(answer, 400, 'invalid_params', 'Content-Type');
		}
		expect(await sandbox.snapshot()).toBe(before);
	});

	test('a body that is not valid JSON is 400 body', async () => {
		const answer = await sandbox.api.call('POST', '/v1/leads', {
			body: '{"email":',
			headers: { 'Content-Type': 'application/json' },
		});
		expectError(answer, 400, 'invalid_params', 'body');
	});

	test('a JSON body over 1 MiB is 400 body', async () => {
		const answer = await sandbox.api.post('/v1/leads', {
			email: 'a@example.com',
			name: 'x'.repeat(1_100_000),
		});
		expectError(answer, 400, 'invalid_params', 'body');
	});

	test('bodiless POSTs accept no body, an empty body with Content-Type: application/json, or {}', async () => {
		const draft = await sandbox.createResource();
		const publish = await sandbox.api.call('POST', `/v1/resources/${draft.id}/publish`, {
			body: '',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(publish.status).toBe(200);
		expect((await sandbox.api.post(`/v1/resources/${draft.id}/archive`, {})).status).toBe(200);
	});
});
