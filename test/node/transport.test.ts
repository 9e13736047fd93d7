// The transport through real workflows: errors (and that the API key never shows), retries, idempotency,
// and the response forms tolerated by docs/api-contract.md §11. A proxy between node and sandbox shapes the traffic.
import type { IDataObject } from 'n8n-workflow';
import * as utils from 'n8n-workflow/dist/cjs/utils';

import type { Answer } from './api-proxy';
import { ApiProxy } from './api-proxy';
import { CREDENTIAL, errorText, items, jsonOf, NodeTestBed } from './node-test-bed';
import type { VirtualSleep } from './virtual-sleep';
import { virtualSleep } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
let proxy: ApiProxy;

beforeAll(async () => {
	proxy = await ApiProxy.start(bed.url);
});

afterAll(async () => {
	await proxy?.close();
});

beforeEach(() => {
	proxy.reset();
	useCredential({});
});

function useCredential(data: { apiKey?: string; baseUrl?: string }): void {
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url, ...data });
}

const viaProxy = () => useCredential({ baseUrl: proxy.url });
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
async function createLead(email = 'ada@example.com'): Promise<IDataObject> {
	const { body } = await bed.api.post('/v1/leads', { email });
	return body;
}

/** Everything n8n keeps of the execution (run data, errors, node parameters) as one string. */
function everything(result: { result: { run: unknown } }): string {
	return JSON.stringify(result.result.run);
}

describe('errors', () => {
	test('a refused key: the service message, code and a hint, and the key appears nowhere', async () => {
		useCredential({ apiKey: bed.keys.expired });
		const result = await bed.run({ resource: 'lead', operation: 'create', email: 'a@example.com' });

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/\(unauthorized\) \[item 0\]$/);
		expect(errorText(result)).toContain('HTTP 401 unauthorized');
		expect(errorText(result)).toContain('check the API key');
		// the service's reason, as the credential's Test says it too
		expect(result.error?.message).toMatch(/^API key expired/);
		expect(everything(result)).not.toContain(bed.keys.expired);
		expect(everything(result)).not.toMatch(/Bearer/i);
	});

	test.each([
		[
			'a missing lead (404)',
			{ operation: 'get', leadId: rl('lead_doesnotexist0000') },
			/\(not_found\) \[item 0\]$/,
		],
		[
			"a CRM sync of another account's lead (403)",
			{ operation: 'syncToCrm', leadId: rl('={{ $json.otherLead }}') },
			/\(forbidden\) \[item 0\]$/,
		],
		[
			'an unknown assignee (400)',
			{
				operation: 'update',
				leadId: rl('={{ $json.lead }}'),
				updateFields: { assigned_to: 'user_doesnotexist0000' },
			},
			/^assigned_to.*\(invalid_params\) \[item 0\]$/,
		],
	])('the full key appears nowhere after %s', async (_name, parameters, message) => {
		const lead = await createLead();
		const other = await bed.other.post('/v1/leads', { email: 'b@example.com' });
		const result = await bed.run(
			{ resource: 'lead', ...parameters },
			{ input: items({ lead: String(lead.id), otherLead: String(other.body.id) }) },
		);
		expect(result.error?.message).toMatch(message);
		expect(everything(result)).not.toContain(bed.keys.full);
	});

	test('a read-only key gets 403 forbidden on writes', async () => {
		useCredential({ apiKey: bed.keys.read_only });
		const result = await bed.run({ resource: 'lead', operation: 'create', email: 'a@example.com' });
		expect(result.error?.message).toBe('This API key is read-only (forbidden) [item 0]');
		expect(errorText(result)).toContain('HTTP 403');
		expect(everything(result)).not.toContain(bed.keys.read_only);
	});

	test('an unreachable Base URL is reported as a connection problem, without the key', async () => {
		useCredential({ baseUrl: 'http://127.0.0.1:9' });
		const result = await bed.run({ resource: 'lead', operation: 'getAll' });
		expect(result.error?.message).toBe('Could not connect to the Content Marketing API [item 0]');
		expect(errorText(result)).toContain('ECONNREFUSED while calling http://127.0.0.1:9');
		expect(everything(result)).not.toContain(bed.keys.full);
	});

	test('a Base URL with a trailing slash or /v1 still works', async () => {
		await createLead();
		for (const baseUrl of [`${bed.url}/`, `${bed.url}/v1`, `${bed.url}/v1/`]) {
			useCredential({ baseUrl });
			const result = await bed.run({ resource: 'lead', operation: 'getAll' });
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
		}
	});
});

describe('retries', () => {
	let clock: VirtualSleep | undefined;

	afterEach(() => {
		clock?.restore();
		clock = undefined;
	});

	test('Retry-After is honoured in real time', async () => {
		viaProxy();
		proxy.rules = {
			decide: (_request, index) =>
				index === 0
					? {
							status: 429,
							headers: { 'Retry-After': '1' },
							body: { error: { code: 'rate_limited', message: 'slow down' } },
						}
					: 'forward',
		};
		// n8n's own sleep, in real time; what had been sent when it ended
		const realSleep = utils.sleep;
		const waits: Array<{ ms: number; sentBefore: number }> = [];
		const sleep = jest.spyOn(utils, 'sleep').mockImplementation(async (ms: number) => {
			await realSleep(ms);
			waits.push({ ms, sentBefore: proxy.requests.length });
		});
		try {
			const result = await bed.run({ resource: 'lead', operation: 'getAll' });
			expect(result.error).toBeUndefined();
		} finally {
			sleep.mockRestore();
		}
		// the retry went out only once a wait of the second the service asked for had passed
		expect(waits).toContainEqual({ ms: 1000, sentBefore: 1 });
		expect(proxy.requests).toHaveLength(2);
	});

	test('Retry-After: 0 retries at once; an HTTP date is honoured too', async () => {
		clock = virtualSleep();
		viaProxy();
		const inTwoSeconds = new Date(Date.now() + 2_000).toUTCString();
		proxy.rules = {
			decide: (_request, index) =>
				index === 0
					? { status: 429, headers: { 'Retry-After': '0' } }
					: index === 1
						? { status: 429, headers: { 'Retry-After': inTwoSeconds } }
						: 'forward',
		};
		const result = await bed.run({ resource: 'lead', operation: 'getAll' });
		expect(result.error).toBeUndefined();
		expect(clock.delays[0]).toBe(0);
		expect(clock.delays[1]).toBeGreaterThan(500);
		expect(clock.delays[1]).toBeLessThanOrEqual(2_000);
	});

	test('429 without Retry-After backs off exponentially: 1 s, 2 s, 4 s, 8 s', async () => {
		clock = virtualSleep();
		viaProxy();
		proxy.rules = { decide: (_request, index) => (index < 4 ? { status: 429 } : 'forward') };
		const result = await bed.run({ resource: 'lead', operation: 'getAll' });
		expect(result.error).toBeUndefined();
		const bases = [1000, 2000, 4000, 8000];
		expect(clock.delays).toHaveLength(4);
		clock.delays.forEach((delay, index) => {
			expect(delay).toBeGreaterThanOrEqual(bases[index]);
			expect(delay).toBeLessThanOrEqual(bases[index] * 1.1);
		});
	});

	test('a lasting 429 is waited out for 15 minutes, then fails with the service message', async () => {
		clock = virtualSleep();
		// The key's wait counts the time that passes: here only the virtual waits, however slow the machine.
		const virtual = clock;
		const start = Date.now();
		const now = jest
			.spyOn(Date, 'now')
			.mockImplementation(() => start + virtual.delays.reduce((sum, ms) => sum + ms, 0));
		await bed.control.put('/_sandbox/faults', { rate_429: 1, seed: 1 });
		const result = await bed.run({ resource: 'lead', operation: 'getAll' }).finally(() => {
			now.mockRestore();
		});
		expect(result.error?.message).toBe(
			'Too many requests (sandbox fault); retry later (rate_limited) [item 0]',
		);
		expect(errorText(result)).toContain('stayed exceeded for 15 minutes of waiting');
		// Retry-After: 1 each time: 900 waits of a second are 15 minutes, then the 901st 429 is final.
		expect(await bed.requests()).toHaveLength(901);
		expect(clock.delays).toEqual(Array.from({ length: 900 }, () => 1000));
	});

	test('a 500 is retried for reads and for POSTs with an Idempotency-Key; a 4xx is not retried', async () => {
		clock = virtualSleep();
		const lead = await createLead();
		viaProxy();
		proxy.rules = {
			decide: (request) =>
				proxy.requests.filter((seen) => seen.url === request.url).length === 1
					? { status: 500, body: { error: { code: 'server_error', message: 'boom' } } }
					: 'forward',
		};
		const get = await bed.run({ resource: 'lead', operation: 'get', leadId: rl(String(lead.id)) });
		expect(get.error).toBeUndefined();
		const sync = await bed.run({
			resource: 'lead',
			operation: 'syncToCrm',
			leadId: rl(String(lead.id)),
		});
		expect(errorText(sync)).toBe('');
		expect(jsonOf(sync)[0]).toMatchObject({ synced: true });
		const syncs = proxy.requests.filter((request) => request.url.endsWith('/sync-crm'));
		expect(syncs).toHaveLength(2);
		expect(syncs[0].headers['idempotency-key']).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
		);
		expect(syncs[1].headers['idempotency-key']).toBe(syncs[0].headers['idempotency-key']);

		proxy.reset();
		const missing = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl('lead_doesnotexist0000'),
		});
		expect(missing.error?.message).toMatch(/\(not_found\)/);
		expect(proxy.requests).toHaveLength(1);
	});

	test('a lasting 500 ends as server_error with HTTP 500', async () => {
		clock = virtualSleep();
		await bed.control.put('/_sandbox/faults', { rate_500: 1, seed: 1 });
		const result = await bed.run({ resource: 'lead', operation: 'getAll' });
		expect(result.error?.message).toBe(
			'Internal server error (sandbox fault) (server_error) [item 0]',
		);
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('500');
	});

	test('a create whose answer was lost is re-sent with the same Idempotency-Key and created once (§8)', async () => {
		clock = virtualSleep();
		viaProxy();
		proxy.rules = {
			decide: (request, index) =>
				request.method === 'POST' && index === 0 ? 'drop-after-forward' : 'forward',
		};

		const result = await bed.run(
			{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
			{ input: items({ email: 'once@example.com' }, { email: 'twice@example.com' }) },
		);

		expect(result.error).toBeUndefined();
		const posts = proxy.requests.filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(3);
		// The items' requests go out in parallel: the dropped one (the first POST) is re-sent with its key.
		const keys = posts.map((request) => request.headers['idempotency-key']);
		expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
		expect(keys.filter((key) => key === keys[0])).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
		const stored = await bed.api.get<{ data: IDataObject[] }>('/v1/leads?limit=100');
		expect(stored.body.data.map((lead) => lead.email).sort()).toEqual([
			'once@example.com',
			'twice@example.com',
		]);
		expect(jsonOf(result)[0].id).toBe(
			stored.body.data.find((lead) => lead.email === 'once@example.com')?.id,
		);
	});

	test('a delete whose answer was lost counts as done when the retry finds it gone (404)', async () => {
		clock = virtualSleep();
		const created = await bed.api.post<IDataObject>('/v1/resources', {
			title: 'Old post',
			type: 'article',
		});
		viaProxy();
		proxy.rules = {
			decide: (request, index) =>
				request.method === 'DELETE' && index === 0 ? 'drop-after-forward' : 'forward',
		};

		const result = await bed.run({
			resource: 'contentResource',
			operation: 'delete',
			resourceId: { __rl: true, mode: 'id', value: String(created.body.id) },
		});

		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ id: created.body.id, deleted: true }]);
		expect(proxy.requests.filter((request) => request.method === 'DELETE')).toHaveLength(2);
		expect((await bed.api.get(`/v1/resources/${String(created.body.id)}`)).status).toBe(404);
	});

	test('a delete of a missing resource is still a 404 error when no earlier attempt may have done it', async () => {
		const result = await bed.run({
			resource: 'contentResource',
			operation: 'delete',
			resourceId: { __rl: true, mode: 'id', value: 'res_doesnotexist0000' },
		});
		expect(result.error?.message).toContain('(not_found)');
	});

	test('a GET never carries an Idempotency-Key; requests carry Accept: application/json and the Bearer key', async () => {
		viaProxy();
		await bed.run({ resource: 'lead', operation: 'getAll' });
		expect(proxy.requests[0].headers['idempotency-key']).toBeUndefined();
		expect(proxy.requests[0].headers.accept).toBe('application/json');
		expect(proxy.requests[0].headers.authorization).toBe(`Bearer ${bed.keys.full}`);
	});
});

describe('tolerated response forms (§11)', () => {
	function listAs(
		shape: (list: { data: unknown[]; next_cursor: string | null; has_more: boolean }) => unknown,
	) {
		return (
			_request: unknown,
			answer: { status: number; body: unknown; headers: Record<string, string> },
		): Answer => {
			const body = answer.body as {
				object?: string;
				data: unknown[];
				next_cursor: string | null;
				has_more: boolean;
			};
			return { status: answer.status, body: body?.object === 'list' ? shape(body) : answer.body };
		};
	}

	beforeEach(async () => {
		await bed.control.post('/_sandbox/seed', { seed: 2, leads: 230, resources: 1 });
		viaProxy();
	});

	test.each([
		['{ items, next }', listAs((list) => ({ items: list.data, next: list.next_cursor }))],
		[
			'{ results, cursor, has_more }',
			listAs((list) => ({ results: list.data, cursor: list.next_cursor, has_more: list.has_more })),
		],
		[
			'{ data, next: URL }',
			listAs((list) => ({
				data: list.data,
				next: list.next_cursor && `https://api.example/v1/leads?cursor=${list.next_cursor}`,
			})),
		],
	])('Return All reads lists shaped %s', async (_name, transform) => {
		proxy.rules = { transform };
		const result = await bed.run({ resource: 'lead', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(new Set(jsonOf(result).map((lead) => lead.id)).size).toBe(230);
	});

	test('a bare array is one complete page', async () => {
		proxy.rules = { transform: listAs((list) => list.data) };
		const result = await bed.run({ resource: 'lead', operation: 'getAll', returnAll: true });
		expect(result.items).toHaveLength(100);
		expect(proxy.requests).toHaveLength(1);
	});

	test('a single object wrapped in { data } is unwrapped', async () => {
		const lead = await createLead();
		proxy.rules = {
			transform: (_request, answer) => ({ status: answer.status, body: { data: answer.body } }),
		};
		const result = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl(String(lead.id)),
			simplify: false,
		});
		expect(jsonOf(result)[0]).toEqual(lead);
	});

	test.each([
		[
			'{ code, message }',
			{ code: 'not_found', message: 'Lead gone' },
			'Lead gone (not_found) [item 0]',
		],
		['{ message }', { message: 'Lead gone' }, 'Lead gone (not_found) [item 0]'],
		['plain text', 'Lead gone', 'Lead gone (not_found) [item 0]'],
		[
			'an HTML page',
			'<html><body><h1>Not Found</h1></body></html>',
			'Not Found (not_found) [item 0]',
		],
	])('errors shaped %s', async (_name, body, message) => {
		proxy.rules = { decide: () => ({ status: 404, body }) };
		const result = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl('lead_aaaaaaaaaaaaaaaa'),
		});
		expect(result.error?.message).toBe(message);
	});
});
