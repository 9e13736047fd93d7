// Spec "Limits: request rate" and "Errors: 429 / 500", docs/api-contract.md §9 and §13: rate limit, faults, request log.
import { Api, expectError, useSandbox, type Lead, type ListPage } from '../support/sandbox-client';

const sandbox = useSandbox();

interface LoggedRequest {
	request_id: string;
	method: string;
	path: string;
	query: string;
	status: number | null;
	key_role: string | null;
	at: string;
}

beforeEach(() => sandbox.reset());

async function leadCount(): Promise<number> {
	return (await sandbox.api.get<ListPage<Lead>>('/v1/leads?limit=100')).body.data.length;
}

async function faults(settings: Record<string, unknown>): Promise<void> {
	expect((await sandbox.control.call('PUT', '/_sandbox/faults', { json: settings })).status).toBe(
		200,
	);
}

describe('Limits: request rate (contract §9)', () => {
	test('the default is 600 requests per 60 s per key, shown in X-RateLimit-* on every /v1 answer', async () => {
		const answer = await sandbox.api.get('/v1/leads');
		expect(answer.headers.get('x-ratelimit-limit')).toBe('600');
		expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBe(599);
		const reset = Number(answer.headers.get('x-ratelimit-reset'));
		expect(reset).toBeGreaterThan(Date.now() / 1000 + 55);
		expect(reset).toBeLessThan(Date.now() / 1000 + 65);
		const notFound = await sandbox.api.get('/v1/nope');
		expect(notFound.headers.get('x-ratelimit-remaining')).toBe('598');
	});

	test('Errors: 429 rate_limited — over the limit, with Retry-After; per key; a 429 has no effect', async () => {
		await sandbox.config({ rate_limit: { requests: 5, window_seconds: 60 } });
		const remaining: string[] = [];
		for (let i = 0; i < 5; i++) {
			const answer = await sandbox.api.post('/v1/leads', { email: `r${i}@example.com` });
			expect(answer.status).toBe(201);
			remaining.push(answer.headers.get('x-ratelimit-remaining') ?? '');
		}
		expect(remaining).toEqual(['4', '3', '2', '1', '0']);
		const refused = await sandbox.api.post('/v1/leads', { email: 'over@example.com' });
		expectError(refused, 429, 'rate_limited');
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
		expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
		expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

		const readOnly = await sandbox.readOnly.get('/v1/leads?limit=100');
		expect(readOnly.status).toBe(200);
		expect((readOnly.body as unknown as ListPage<Lead>).data.map((l) => l.email)).not.toContain(
			'over@example.com',
		);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toHaveLength(5);
	});

	test('the window rolls: after Retry-After seconds the key may send again', async () => {
		await sandbox.config({ rate_limit: { requests: 2, window_seconds: 10 } });
		await sandbox.api.get('/v1/leads');
		await sandbox.api.get('/v1/leads');
		const refused = await sandbox.api.get('/v1/leads');
		expectError(refused, 429, 'rate_limited');
		await sandbox.control.post('/_sandbox/clock/advance', {
			seconds: Number(refused.headers.get('retry-after')),
		});
		expect((await sandbox.api.get('/v1/leads')).status).toBe(200);
	});

	test('rate_limit null switches the limit off; the control surface and public links are never limited', async () => {
		await sandbox.config({ rate_limit: { requests: 1, window_seconds: 60 } });
		await sandbox.api.get('/v1/leads');
		expectError(await sandbox.api.get('/v1/leads'), 429, 'rate_limited');
		for (let i = 0; i < 3; i++) {
			expect((await sandbox.control.get('/_sandbox/keys')).status).toBe(200);
			expect((await fetch(`${sandbox.url}/c/res_doesnotexist0000`)).status).toBe(404);
		}
		await sandbox.config({ rate_limit: null });
		const answer = await sandbox.api.get('/v1/leads');
		expect(answer.status).toBe(200);
		expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
	});
});

describe('Errors: 500 server_error and 429 via faults (contract §13), decided before processing', () => {
	test('rate_500 = 1: every matching request is 500 server_error and has no effect', async () => {
		await faults({ rate_500: 1, seed: 1 });
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'f@example.com' }),
			500,
			'server_error',
		);
		await sandbox.control.delete('/_sandbox/faults');
		expect(await leadCount()).toBe(0);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toEqual([]);
	});

	test('rate_429 = 1: 429 rate_limited with Retry-After, no effect', async () => {
		await faults({ rate_429: 1 });
		const answer = await sandbox.api.post('/v1/leads', { email: 'f@example.com' });
		expectError(answer, 429, 'rate_limited');
		expect(answer.headers.get('retry-after')).toBe('1');
		await sandbox.control.delete('/_sandbox/faults');
		expect(await leadCount()).toBe(0);
	});

	test('methods and path_prefix select the faulted requests', async () => {
		await faults({ rate_500: 1, methods: ['POST'], path_prefix: '/v1/resources' });
		expect((await sandbox.api.get('/v1/resources')).status).toBe(200);
		expect((await sandbox.api.post('/v1/leads', { email: 'ok@example.com' })).status).toBe(201);
		expectError(
			await sandbox.api.post('/v1/resources', { title: 't', type: 'article' }),
			500,
			'server_error',
		);
		expect((await sandbox.control.get('/_sandbox/keys')).status).toBe(200);
	});

	test('faults are deterministic for a seed', async () => {
		const run = async () => {
			await faults({ rate_500: 0.3, rate_429: 0.2, seed: 42 });
			const statuses: number[] = [];
			for (let i = 0; i < 20; i++) statuses.push((await sandbox.api.get('/v1/leads')).status);
			return statuses;
		};
		const first = await run();
		expect(first).toEqual(await run());
		expect(first).toContain(500);
		expect(first).toContain(429);
		expect(first).toContain(200);
	});

	test('drop_rate = 1 closes the connection without an answer; latency_ms delays', async () => {
		await faults({ drop_rate: 1, path_prefix: '/v1/leads' });
		await expect(
			fetch(`${sandbox.url}/v1/leads`, {
				headers: { Authorization: `Bearer ${sandbox.keys.full}` },
			}),
		).rejects.toThrow();
		await faults({ latency_ms: 200 });
		const started = Date.now();
		expect((await sandbox.api.get('/v1/leads')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);
	});

	test('bad fault settings are 400', async () => {
		expectError(
			await sandbox.control.call('PUT', '/_sandbox/faults', { json: { rate_500: 2 } }),
			400,
			'invalid_params',
			'rate_500',
		);
		expectError(
			await sandbox.control.call('PUT', '/_sandbox/faults', {
				json: { rate_500: 0.6, rate_429: 0.6 },
			}),
			400,
			'invalid_params',
			'rate_429',
		);
		expectError(
			await sandbox.control.call('PUT', '/_sandbox/faults', { json: { methods: ['FETCH'] } }),
			400,
			'invalid_params',
			'methods.0',
		);
	});
});

describe('Control: /_sandbox/requests counts every /v1 request', () => {
	test('each /v1 request is logged with method, path, query, status and key role; DELETE clears', async () => {
		await sandbox.control.delete('/_sandbox/requests');
		await sandbox.api.get('/v1/leads?limit=5');
		await sandbox.readOnly.post('/v1/leads', { email: 'x@example.com' });
		await new Api(sandbox.url, null).get('/v1/resources');
		await sandbox.control.get('/_sandbox/keys');
		const log = (await sandbox.control.get<LoggedRequest[]>('/_sandbox/requests')).body;
		expect(log.map((r) => [r.method, r.path, r.query, r.status, r.key_role])).toEqual([
			['GET', '/v1/leads', 'limit=5', 200, 'full'],
			['POST', '/v1/leads', '', 403, 'read_only'],
			['GET', '/v1/resources', '', 401, null],
		]);
		await sandbox.control.delete('/_sandbox/requests');
		expect((await sandbox.control.get<LoggedRequest[]>('/_sandbox/requests')).body).toEqual([]);
	});

	test('faulted and dropped requests are counted too', async () => {
		await sandbox.control.delete('/_sandbox/requests');
		await faults({ rate_500: 1, methods: ['PATCH'] });
		await sandbox.api.patch('/v1/leads/lead_abc', { status: 'lost' });
		await faults({ drop_rate: 1, methods: ['DELETE'] });
		await expect(
			fetch(`${sandbox.url}/v1/resources/res_abc`, { method: 'DELETE' }),
		).rejects.toThrow();
		const log = (await sandbox.control.get<LoggedRequest[]>('/_sandbox/requests')).body;
		expect(log.map((r) => [r.method, r.status])).toEqual([
			['PATCH', 500],
			['DELETE', null],
		]);
	});
});
