// docs/api-contract.md §13: the /_sandbox control surface, seeding, and the `npm run sandbox` entry point.
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
	ACCOUNT_A,
	ACCOUNT_B,
	expectError,
	useSandbox,
	type Lead,
	type ListPage,
	type Resource,
} from '../support/sandbox-client';

const sandbox = useSandbox();

interface Account {
	id: string;
	plan: string;
	crm: { crm_type: string } | null;
	users: Array<{ id: string; role: string }>;
	ctas: Array<{ id: string; type: string }>;
}

describe('Control: keys and accounts', () => {
	test('GET /_sandbox/keys answers the deterministic demo keys', async () => {
		const keys = (await sandbox.control.get<Record<string, string>>('/_sandbox/keys')).body;
		expect(Object.keys(keys).sort()).toEqual([
			'expired',
			'full',
			'other_account',
			'other_account_read_only',
			'read_only',
		]);
		expect(new Set(Object.values(keys)).size).toBe(Object.keys(keys).length);
		expect(keys.full).toBe('cmk_test_full_0fa57235f6d184f9b2c196fa');
	});

	test('GET /_sandbox/accounts: A (free, hubspot, owner/admin/member, three CTAs) and B (free, no CRM, one owner, one CTA)', async () => {
		const accounts = (await sandbox.control.get<Account[]>('/_sandbox/accounts')).body;
		expect(accounts.map((a) => [a.id, a.plan, a.crm])).toEqual([
			[ACCOUNT_A, 'free', { crm_type: 'hubspot' }],
			[ACCOUNT_B, 'free', null],
		]);
		expect(accounts[0].users.map((u) => u.role)).toEqual(['owner', 'admin', 'member']);
		expect(accounts[0].ctas).toHaveLength(3);
		expect(accounts[1].users.map((u) => u.role)).toEqual(['owner']);
		expect(accounts[1].ctas).toHaveLength(1);
		const users = (await sandbox.api.get<ListPage<{ id: string }>>('/v1/users')).body.data.map(
			(u) => u.id,
		);
		expect(users).toEqual(accounts[0].users.map((u) => u.id));
		const ctas = (await sandbox.api.get<ListPage<{ id: string; type: string }>>('/v1/ctas?q=demo'))
			.body.data;
		expect(ctas.map((c) => c.type)).toEqual(['button']);
	});

	test('PATCH /_sandbox/accounts/{id} sets plan and CRM; bad values are 400, unknown accounts 404', async () => {
		const answer = await sandbox.control.patch<Account>(`/_sandbox/accounts/${ACCOUNT_B}`, {
			plan: 'paid',
			crm: { crm_type: 'zoho' },
		});
		expect(answer.body).toMatchObject({ plan: 'paid', crm: { crm_type: 'zoho' } });
		expectError(
			await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_B}`, { plan: 'gold' }),
			400,
			'invalid_params',
			'plan',
		);
		expectError(
			await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_B}`, {
				crm: { crm_type: 'excel' },
			}),
			400,
			'invalid_params',
			'crm.crm_type',
		);
		expectError(
			await sandbox.control.patch('/_sandbox/accounts/acct_nope', { plan: 'paid' }),
			404,
			'not_found',
		);
	});

	test('PATCH /_sandbox/config validates and answers the whole config', async () => {
		const answer = await sandbox.control.patch('/_sandbox/config', { webhook_timeout_ms: 1000 });
		expect(answer.body).toMatchObject({
			webhook_timeout_ms: 1000,
			allow_http_webhooks: true,
			rate_limit: { requests: 600, window_seconds: 60 },
		});
		expectError(
			await sandbox.control.patch('/_sandbox/config', { webhook_retry_delays_ms: [-1] }),
			400,
			'invalid_params',
			'webhook_retry_delays_ms.0',
		);
		expectError(
			await sandbox.control.patch('/_sandbox/config', {
				rate_limit: { requests: 0, window_seconds: 60 },
			}),
			400,
			'invalid_params',
			'rate_limit.requests',
		);
		expectError(
			await sandbox.control.patch('/_sandbox/config', { colour: 'red' }),
			400,
			'invalid_params',
			'colour',
		);
	});
});

describe('Control: reset and seed', () => {
	test('reset empties the store, restores start settings, keeps accounts, users, CTAs and keys', async () => {
		await sandbox.createLead();
		await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { plan: 'paid', crm: null });
		await sandbox.config({ rate_limit: null });
		await sandbox.reset();
		expect((await sandbox.control.get<unknown[]>('/_sandbox/requests')).body).toEqual([]);
		expect((await sandbox.api.get<ListPage<Lead>>('/v1/leads')).body.data).toEqual([]);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toEqual([]);
		const [a] = (await sandbox.control.get<Account[]>('/_sandbox/accounts')).body;
		expect([a.plan, a.crm]).toEqual(['free', { crm_type: 'hubspot' }]);
		expect((await sandbox.control.get('/_sandbox/config')).body).toMatchObject({
			rate_limit: { requests: 600, window_seconds: 60 },
		});
		expect((await sandbox.api.get('/v1/users')).status).toBe(200);
	});

	// How long the seed takes is a figure: npx tsx bench/seed.ts.
	test('bulk seed of 1,000 leads is deterministic after reset, bypasses the rate limit and fires no events', async () => {
		await sandbox.reset();
		await sandbox.config({ rate_limit: { requests: 3, window_seconds: 60 } });
		await sandbox.api.post('/v1/webhooks', {
			url: 'https://hooks.example.com/never',
			events: ['lead.created'],
		});
		const answer = await sandbox.control.post('/_sandbox/seed', {
			seed: 42,
			leads: 1000,
			resources: 10,
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toMatchObject({ account_id: ACCOUNT_A, leads: 1000, resources: 10 });
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toEqual([]);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/deliveries')).body).toEqual([]);

		await sandbox.config({ rate_limit: null });
		const first = await sandbox.allLeads();
		expect(first).toHaveLength(1000);
		expect(new Set(first.map((l) => l.status)).size).toBe(5);
		await sandbox.reset();
		await sandbox.api.post('/v1/webhooks', {
			url: 'https://hooks.example.com/never',
			events: ['lead.created'],
		});
		await sandbox.control.post('/_sandbox/seed', { seed: 42, leads: 1000, resources: 10 });
		const second = await sandbox.allLeads();
		const strip = (leads: Lead[]) =>
			leads.map(({ created_at, updated_at, ...rest }) => ({
				...rest,
				t: [created_at.length, updated_at.length],
			}));
		expect(strip(second)).toEqual(strip(first));
	});

	test('seed into account B; bad seed bodies are 400', async () => {
		await sandbox.reset();
		await sandbox.control.post('/_sandbox/seed', { seed: 1, leads: 5, account_id: ACCOUNT_B });
		expect((await sandbox.other.get<ListPage<Lead>>('/v1/leads')).body.data).toHaveLength(5);
		expect((await sandbox.api.get<ListPage<Lead>>('/v1/leads')).body.data).toHaveLength(0);
		expectError(
			await sandbox.control.post('/_sandbox/seed', { leads: -1 }),
			400,
			'invalid_params',
			'leads',
		);
		expectError(
			await sandbox.control.post('/_sandbox/seed', { leads: 'many' }),
			400,
			'invalid_params',
			'leads',
		);
		expectError(
			await sandbox.control.post('/_sandbox/seed', { demo: true, leads: 3 }),
			400,
			'invalid_params',
			'demo',
		);
		expectError(
			await sandbox.control.post('/_sandbox/seed', { account_id: 'acct_x' }),
			400,
			'invalid_params',
			'account_id',
		);
	});

	test('demo seed: resources of several types and all states, leads with varied statuses and channels', async () => {
		await sandbox.reset();
		const answer = await sandbox.control.post('/_sandbox/seed', { demo: true });
		expect(answer.status).toBe(201);
		const resources = (await sandbox.api.get<ListPage<Resource>>('/v1/resources?limit=100')).body
			.data;
		expect(new Set(resources.map((r) => r.status))).toEqual(
			new Set(['draft', 'published', 'archived']),
		);
		expect(new Set(resources.map((r) => r.type)).size).toBeGreaterThanOrEqual(5);
		const leads = await sandbox.allLeads();
		expect(new Set(leads.map((l) => l.status))).toEqual(
			new Set(['new', 'contacted', 'qualified', 'converted', 'lost']),
		);
		expect(new Set(leads.map((l) => l.source_channel)).size).toBeGreaterThanOrEqual(5);
		expect(new Set(leads.map((l) => l.score)).size).toBeGreaterThan(5);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toEqual([]);
		await sandbox.reset();
		await sandbox.control.post('/_sandbox/seed', { demo: true });
		const again = (await sandbox.api.get<ListPage<Resource>>('/v1/resources?limit=100')).body.data;
		expect(again.map((r) => [r.id, r.title, r.status])).toEqual(
			resources.map((r) => [r.id, r.title, r.status]),
		);
	});
});

describe('Control: npm run sandbox (CLI)', () => {
	test('starts on the given port, prints its URL and the four demo keys, stops cleanly on SIGTERM', async () => {
		const root = path.resolve(__dirname, '..', '..');
		// As `npm run sandbox` runs it: tsx as a loader in the one process, which gets the signal itself (tsx's
		// own CLI relays it to a child and exits 143 when the child does not confirm within 30 ms).
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'sandbox/src/cli.ts',
				'--port',
				'0',
				'--seed-demo',
				'--rate-limit',
				'50',
				'--plan',
				'paid',
			],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		child.stderr.on('data', (chunk: Buffer) => {
			output += chunk.toString();
		});
		const exited = new Promise<number | null>((resolve) =>
			child.on('exit', (code) => resolve(code)),
		);
		try {
			const deadline = Date.now() + 20_000;
			while (!/Press Ctrl\+C/.test(output) && Date.now() < deadline)
				await new Promise((r) => setTimeout(r, 50));
			const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
			expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			for (const role of ['full', 'read_only', 'other_account', 'expired'] as const)
				expect(output).toContain(sandbox.keys[role]);
			const leads = await fetch(`${url}/v1/leads`, {
				headers: { Authorization: `Bearer ${sandbox.keys.full}` },
			});
			expect(leads.status).toBe(200);
			expect(leads.headers.get('x-ratelimit-limit')).toBe('50');
			const accounts = (await (await fetch(`${url}/_sandbox/accounts`)).json()) as Account[];
			expect(accounts[0].plan).toBe('paid');
			const resources = (await (
				await fetch(`${url}/v1/resources`, {
					headers: { Authorization: `Bearer ${sandbox.keys.full}` },
				})
			).json()) as ListPage<Resource>;
			expect(resources.data.length).toBeGreaterThan(0);
			expect(resources.data[0].url.startsWith(`${url}/c/`)).toBe(true);
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	}, 30_000);
});
