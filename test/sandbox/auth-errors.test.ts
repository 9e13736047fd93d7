// Spec "Errors" and "Authentication", docs/api-contract.md §2 and §3: 401, 403, 404, 405 and the error envelope.
import {
	Api,
	CTA_B,
	expectError,
	USER_B_OWNER,
	useSandbox,
	type Lead,
	type Resource,
	type WebhookEndpoint,
} from '../support/sandbox-client';

const sandbox = useSandbox();

let lead: Lead;
let resource: Resource;
let webhook: WebhookEndpoint;
let otherLead: Lead;
let otherResource: Resource;
let otherWebhook: WebhookEndpoint;

beforeAll(async () => {
	lead = await sandbox.createLead();
	resource = await sandbox.createResource();
	webhook = (
		await sandbox.api.post<WebhookEndpoint>('/v1/webhooks', {
			url: 'https://hooks.example.com/a',
			events: ['lead.created'],
		})
	).body;
	otherLead = await sandbox.createLead({}, sandbox.other);
	otherResource = await sandbox.createResource({}, 'draft', sandbox.other);
	otherWebhook = (
		await sandbox.other.post<WebhookEndpoint>('/v1/webhooks', {
			url: 'https://hooks.example.com/b',
			events: ['lead.created'],
		})
	).body;
});

/** Every write operation of the API with a valid body, for the given objects. */
function writes(ids: {
	lead: string;
	resource: string;
	webhook: string;
}): Array<[string, string, unknown]> {
	return [
		['POST', '/v1/leads', { email: 'x@example.com' }],
		['PATCH', `/v1/leads/${ids.lead}`, { status: 'contacted' }],
		['POST', `/v1/leads/${ids.lead}/sync-crm`, undefined],
		['POST', '/v1/leads/batch-sync-crm', { lead_ids: [ids.lead] }],
		['POST', '/v1/resources', { title: 'T', type: 'article' }],
		['PUT', `/v1/resources/${ids.resource}`, { title: 'T2' }],
		['POST', `/v1/resources/${ids.resource}/publish`, undefined],
		['POST', `/v1/resources/${ids.resource}/archive`, undefined],
		['DELETE', `/v1/resources/${ids.resource}`, undefined],
		['POST', '/v1/webhooks', { url: 'https://hooks.example.com/c', events: ['lead.created'] }],
		['PATCH', `/v1/webhooks/${ids.webhook}`, { active: false }],
		['POST', `/v1/webhooks/${ids.webhook}/test`, undefined],
		['DELETE', `/v1/webhooks/${ids.webhook}`, undefined],
	];
}

describe('Errors: 401 unauthorized — API key invalid or expired', () => {
	const cases: Array<[string, Record<string, string>]> = [
		['missing Authorization header', {}],
		['another scheme (Basic)', { Authorization: 'Basic dXNlcjpwYXNz' }],
		['Bearer without a key', { Authorization: 'Bearer' }],
		['unknown key', { Authorization: 'Bearer cmk_test_nope_000000000000000000000000' }],
	];
	test.each(cases)('401 for %s on GET and POST', async (_label, headers) => {
		for (const method of ['GET', 'POST']) {
			const answer = await sandbox.anonymous.call(method, '/v1/leads', {
				headers,
				json: method === 'POST' ? { email: 'a@example.com' } : undefined,
			});
			expectError(answer, 401, 'unauthorized');
			expect(answer.headers.get('www-authenticate')).toBe('Bearer');
		}
	});

	test('401 for the expired key', async () => {
		expectError(await sandbox.expired.get('/v1/leads'), 401, 'unauthorized');
		expectError(
			await sandbox.expired.post('/v1/leads', { email: 'a@example.com' }),
			401,
			'unauthorized',
		);
	});

	test('401 on every /v1 path, unknown ones included, and before body validation', async () => {
		expectError(await sandbox.anonymous.get('/v1/analytics/overview'), 401, 'unauthorized');
		expectError(await sandbox.anonymous.get('/v1/no-such-thing'), 401, 'unauthorized');
		expectError(await sandbox.anonymous.post('/v1/leads', { nonsense: true }), 401, 'unauthorized');
	});

	test('the bearer scheme is case-insensitive', async () => {
		const answer = await sandbox.anonymous.get('/v1/leads', {
			Authorization: `bearer ${sandbox.keys.full}`,
		});
		expect(answer.status).toBe(200);
	});
});

describe('Errors: 403 forbidden — read-only key', () => {
	test('every write operation is 403 for the read-only key', async () => {
		for (const [method, path, json] of writes({
			lead: lead.id,
			resource: resource.id,
			webhook: webhook.id,
		})) {
			const answer = await sandbox.readOnly.call(method, path, { json });
			expect([method, path, answer.status]).toEqual([method, path, 403]);
			expectError(answer, 403, 'forbidden');
		}
		expect((await sandbox.api.get(`/v1/resources/${resource.id}`)).body.status).toBe('draft');
		expect((await sandbox.api.get(`/v1/webhooks/${webhook.id}`)).status).toBe(200);
	});

	test('the read-only key gets 403 even for a malformed body (permission before validation)', async () => {
		expectError(
			await sandbox.readOnly.post('/v1/leads', { email: 42, bogus: true }),
			403,
			'forbidden',
		);
		expectError(await sandbox.readOnly.patch('/v1/leads/not-an-id', {}), 403, 'forbidden');
	});

	test('the read-only key reads everything of its account', async () => {
		for (const path of [
			'/v1/leads',
			`/v1/leads/${lead.id}`,
			'/v1/resources',
			`/v1/resources/${resource.id}`,
			'/v1/webhooks',
			`/v1/webhooks/${webhook.id}`,
			'/v1/webhooks/event-types',
			'/v1/users',
			'/v1/ctas',
			'/v1/analytics/overview',
		]) {
			expect([path, (await sandbox.readOnly.get(path)).status]).toEqual([path, 200]);
		}
	});
});

describe('Errors: 403 forbidden — object of another account', () => {
	test('reads of another account’s objects are 403, not 404', async () => {
		for (const path of [
			`/v1/leads/${otherLead.id}`,
			`/v1/resources/${otherResource.id}`,
			`/v1/webhooks/${otherWebhook.id}`,
			`/v1/users/${USER_B_OWNER}`,
			`/v1/ctas/${CTA_B}`,
		]) {
			const answer = await sandbox.api.get(path);
			expect([path, answer.status]).toEqual([path, 403]);
			expectError(answer, 403, 'forbidden');
		}
	});

	test('writes to another account’s objects are 403 and change nothing', async () => {
		const ids = { lead: otherLead.id, resource: otherResource.id, webhook: otherWebhook.id };
		const addressed = writes(ids).filter(([, path]) =>
			Object.values(ids).some((id) => path.includes(id)),
		);
		expect(addressed.length).toBe(9);
		const before = await sandbox.snapshot();
		for (const [method, path, json] of addressed) {
			const answer = await sandbox.api.call(method, path, { json });
			expect([method, path, answer.status]).toEqual([method, path, 403]);
			expectError(answer, 403, 'forbidden');
		}
		expect(await sandbox.snapshot()).toBe(before);
	});

	test('another account’s object is 403 even for a malformed body (permission before validation)', async () => {
		expectError(
			await sandbox.api.patch(`/v1/leads/${otherLead.id}`, { status: 'won', bogus: 1 }),
			403,
			'forbidden',
		);
		expectError(
			await sandbox.api.put(`/v1/resources/${otherResource.id}`, { title: 42 }),
			403,
			'forbidden',
		);
		expectError(
			await sandbox.api.post(`/v1/resources/${otherResource.id}/publish`, { now: true }),
			403,
			'forbidden',
		);
	});

	test('the other account’s key is refused on account A’s objects too', async () => {
		expectError(await sandbox.other.get(`/v1/leads/${lead.id}`), 403, 'forbidden');
		expectError(
			await sandbox.other.patch(`/v1/leads/${lead.id}`, { status: 'lost' }),
			403,
			'forbidden',
		);
	});
});

describe('Errors: 404 not_found — unknown ids and paths', () => {
	test.each([
		['GET', '/v1/leads/lead_doesnotexist0000'],
		['PATCH', '/v1/leads/lead_doesnotexist0000'],
		['POST', '/v1/leads/lead_doesnotexist0000/sync-crm'],
		['GET', '/v1/resources/res_doesnotexist0000'],
		['PUT', '/v1/resources/res_doesnotexist0000'],
		['DELETE', '/v1/resources/res_doesnotexist0000'],
		['POST', '/v1/resources/res_doesnotexist0000/publish'],
		['POST', '/v1/resources/res_doesnotexist0000/archive'],
		['GET', '/v1/webhooks/wh_doesnotexist0000'],
		['PATCH', '/v1/webhooks/wh_doesnotexist0000'],
		['DELETE', '/v1/webhooks/wh_doesnotexist0000'],
		['POST', '/v1/webhooks/wh_doesnotexist0000/test'],
		['GET', '/v1/users/user_doesnotexist0000'],
		['GET', '/v1/ctas/cta_doesnotexist0000'],
	])('404 for %s %s (missing object)', async (method, path) => {
		const json =
			method === 'PATCH'
				? path.includes('leads')
					? { status: 'lost' }
					: { active: false }
				: method === 'PUT'
					? { title: 'x' }
					: undefined;
		expectError(await sandbox.api.call(method, path, { json }), 404, 'not_found');
	});

	test('404 for an unknown /v1 path', async () => {
		expectError(await sandbox.api.get('/v1/nothing-here'), 404, 'not_found');
		expectError(await sandbox.api.get('/v1/leads/lead_abc/unknown'), 404, 'not_found');
	});
});

describe('Errors: 405 method_not_allowed — known path, undefined method', () => {
	test.each([
		['PATCH', '/v1/resources/res_abc', 'PUT'],
		['PUT', '/v1/leads/lead_abc', 'PATCH'],
		['PUT', '/v1/leads', 'POST'],
		['DELETE', '/v1/webhooks', 'POST'],
		['GET', '/v1/resources/res_abc/publish', 'POST'],
		['GET', '/v1/leads/batch-sync-crm', 'POST'],
		['PATCH', '/v1/leads/batch-sync-crm', 'POST'],
		['PATCH', '/v1/webhooks/event-types', 'GET'],
		['DELETE', '/v1/webhooks/event-types', 'GET'],
	])('405 for %s %s with an Allow header', async (method, path, allowed) => {
		const answer = await sandbox.api.call(method, path, {
			json: method === 'GET' || method === 'DELETE' ? undefined : {},
		});
		expectError(answer, 405, 'method_not_allowed');
		expect(answer.headers.get('allow')).toContain(allowed);
	});
});

describe('Errors: envelope and request ids', () => {
	test('every answer carries X-Request-Id req_<suffix>; ids differ per request', async () => {
		const answers = await Promise.all([
			sandbox.api.get('/v1/leads'),
			sandbox.api.get('/v1/nothing'),
			sandbox.anonymous.get('/v1/leads'),
			sandbox.control.get('/_sandbox/keys'),
		]);
		const ids = answers.map((a) => a.headers.get('x-request-id'));
		for (const id of ids) expect(id).toMatch(/^req_[a-z0-9]{16}$/);
		expect(new Set(ids).size).toBe(ids.length);
	});

	test('the error body is exactly { error: { code, message, request_id, param? } }', async () => {
		const answer = await sandbox.api.post('/v1/leads', { email: 'not-an-email' });
		expect(Object.keys(answer.body)).toEqual(['error']);
		const error = expectError(answer, 400, 'invalid_params', 'email');
		expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'request_id']);
		const notFound = await sandbox.api.get('/v1/leads/lead_doesnotexist0000');
		expect(Object.keys((notFound.body as { error: object }).error).sort()).toEqual([
			'code',
			'message',
			'request_id',
		]);
	});

	test('a key of account B sees only its own lists', async () => {
		const list = await new Api(sandbox.url, sandbox.keys.other_account_read_only).get<{
			data: Array<{ id: string }>;
		}>('/v1/leads');
		expect(list.status).toBe(200);
		expect(list.body.data.map((l) => l.id)).toEqual([otherLead.id]);
	});
});
