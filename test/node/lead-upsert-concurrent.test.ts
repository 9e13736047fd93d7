// Lead › Create or Update across executions (docs/leads-import.md, "Executions at the same moment"): in
// one process executions with the same e-mail take turns (actions/lead/emailLock.ts), whatever overlaps;
// between processes (queue-mode workers) the e-mail's derived Idempotency-Key keeps one lead. Each test
// holds a request at a proxy and lets it go on the event it waits for (a request seen, an item waiting for
// the e-mail), never after a time.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';

import type { Harness, NodeRunResult } from '../harness';
import { createHarness } from '../harness';
import { deferred } from '../harness/deferred';
import { type Lead, waitFor } from '../support/sandbox-client';
import type { ProxiedRequest } from './api-proxy';
import { ApiProxy } from './api-proxy';
import {
	CREDENTIAL,
	errorText,
	items,
	jsonOf,
	NodeTestBed,
	PACKAGE_ROOT,
	upsert,
} from './node-test-bed';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
/** How long a wait for an event may take on a busy machine before the test gives up (not a measure). */
const EVENT_WAIT_MS = 30_000;

const LOCK_MODULE = path.join(
	PACKAGE_ROOT,
	'dist/nodes/ContentMarketing/actions/lead/emailLock.js',
);

/** The e-mail locks of the package the harness loaded (jest's registry gives the test the same module). */
function lockCounts(): { held: number; waiting: number } {
	if (!existsSync(LOCK_MODULE)) return { held: 0, waiting: 0 };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const lock = require(LOCK_MODULE) as { emailLockCounts(): { held: number; waiting: number } };
	return lock.emailLockCounts();
}

async function leadsWith(email: string): Promise<Lead[]> {
	return (await bed.allLeads()).filter(
		(lead) => lead.email.trim().toLowerCase() === email.toLowerCase(),
	);
}

const isLookUp = (request: ProxiedRequest, email: string): boolean =>
	request.method === 'GET' && request.url.includes(`q=${encodeURIComponent(email)}`);
const isCreate = (request: ProxiedRequest, email: string): boolean =>
	request.method === 'POST' &&
	request.url === '/v1/leads' &&
	(JSON.parse(request.body) as IDataObject).email === email;

/** Runs `fn` with the credential pointing at a proxy in front of the sandbox. */
/** Holds the answer to the first look-up of `email` until the returned deferred is resolved. */
function holdFirstLookUp(proxy: ApiProxy, email: string) {
	const firstLookUp = deferred<void>();
	let heldOne = false;
	proxy.rules = {
		holdAnswer: (request) => {
			if (!isLookUp(request, email) || heldOne) return undefined;
			heldOne = true;
			return firstLookUp.promise;
		},
	};
	return firstLookUp;
}

async function throughProxy<T>(fn: (proxy: ApiProxy) => Promise<T>): Promise<T> {
	const proxy = await ApiProxy.start(bed.url);
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: proxy.url });
	try {
		return await fn(proxy);
	} finally {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
		await proxy.close();
	}
}

const outcomes = (results: NodeRunResult[]): string[] =>
	results.flatMap((result) => jsonOf(result).map((json) => String(json.outcome))).sort();

function expectNoError(results: NodeRunResult[]): void {
	expect(results.map(errorText)).toEqual(results.map(() => ''));
}

afterEach(() => {
	// Every lock is let go after its last user, whatever happened to the executions.
	expect(lockCounts()).toEqual({ held: 0, waiting: 0 });
});

describe('one process', () => {
	test('two executions with the same e-mail at once make one lead: the second finds it', async () => {
		const email = 'twice@example.com';
		await throughProxy(async (proxy) => {
			const firstLookUp = holdFirstLookUp(proxy, email);
			const run = () => bed.run(upsert({ status: 'contacted' }), { input: items({ email }) });
			const first = run();
			await waitFor(
				async () => proxy.requests.filter((request) => isLookUp(request, email)).length,
				(count) => count === 1,
				EVENT_WAIT_MS,
			);
			const second = run();
			// The second execution looks the e-mail up too, or waits for it.
			await waitFor(
				async () => ({
					lookUps: proxy.requests.filter((request) => isLookUp(request, email)).length,
					waiting: lockCounts().waiting,
				}),
				({ lookUps, waiting }) => lookUps === 2 || waiting === 1,
				EVENT_WAIT_MS,
			);
			firstLookUp.resolve();
			const results = await Promise.all([first, second]);

			expectNoError(results);
			const stored = await leadsWith(email);
			expect(stored).toHaveLength(1);
			expect(stored[0].status).toBe('contacted');
			expect(outcomes(results)).toEqual(['created', 'unchanged']);
			expect(results.map((result) => jsonOf(result)[0].id)).toEqual([stored[0].id, stored[0].id]);
		});
	});

	test('the same with the key busy: the create waits for its turn, the second execution for the e-mail', async () => {
		const email = 'busy@example.com';
		await bed.config({ rate_limit: { requests: 10, window_seconds: 1 } });
		await throughProxy(async (proxy) => {
			const create = deferred<void>();
			proxy.rules = {
				hold: (request) => (isCreate(request, email) ? create.promise : undefined),
			};
			// The key's window is full when the first execution starts.
			const filler = await bed.run(
				{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
				{
					input: items(
						...Array.from({ length: 10 }, (_, i) => ({ email: `fill${i}@example.com` })),
					),
				},
			);
			expect(errorText(filler)).toBe('');
			const run = (status: string) => bed.run(upsert({ status }), { input: items({ email }) });
			const first = run('contacted');
			// The second starts once the service has answered the first's look-up.
			await waitFor(
				async () => await bed.requests(),
				(seen) =>
					seen.some(
						(request) =>
							request.method === 'GET' &&
							request.query.includes(encodeURIComponent(email)) &&
							request.status === 200,
					),
				EVENT_WAIT_MS,
			);
			const second = run('qualified');
			await waitFor(
				async () => ({
					lookUps: proxy.requests.filter((request) => isLookUp(request, email)).length,
					waiting: lockCounts().waiting,
				}),
				({ lookUps, waiting }) => lookUps >= 2 || waiting === 1,
				EVENT_WAIT_MS,
			);
			create.resolve();
			const results = await Promise.all([first, second]);

			expectNoError(results);
			const stored = await leadsWith(email);
			expect(stored).toHaveLength(1);
			expect(stored[0].status).toBe('qualified');
			expect(outcomes(results)).toEqual(['created', 'updated']);
		});
		await bed.config({ rate_limit: null });
	});

	test('50 e-mails, each sent three times at once (150 executions), make 50 leads', async () => {
		const emails = Array.from({ length: 50 }, (_, index) => `form${index}@example.com`);
		const runs = emails.flatMap((email) =>
			[0, 1, 2].map(() => bed.run(upsert({ status: 'contacted' }), { input: items({ email }) })),
		);
		const results = await Promise.all(runs);

		expectNoError(results);
		const all = await bed.allLeads();
		expect(all).toHaveLength(50);
		expect(new Set(all.map((lead) => lead.email)).size).toBe(50);
		const created = results.filter((result) => jsonOf(result)[0].outcome === 'created');
		expect(created).toHaveLength(50);
	});

	test('an execution cancelled while it holds the e-mail lets the waiting one go on', async () => {
		const email = 'cancelled@example.com';
		await throughProxy(async (proxy) => {
			const firstLookUp = holdFirstLookUp(proxy, email);
			const cancel = deferred<void>();
			const first = bed.run(upsert(), { input: items({ email }), cancelOn: cancel.promise });
			await waitFor(
				async () => proxy.requests.filter((request) => isLookUp(request, email)).length,
				(count) => count === 1,
				EVENT_WAIT_MS,
			);
			const second = bed.run(upsert({ status: 'qualified' }), { input: items({ email }) });
			await waitFor(
				async () => lockCounts(),
				({ waiting }) => waiting === 1,
				EVENT_WAIT_MS,
			);
			cancel.resolve();
			// The first execution's look-up is still held: the second goes on without it.
			const secondResult = await second;
			expect(errorText(secondResult)).toBe('');
			expect(jsonOf(secondResult)[0]).toMatchObject({ outcome: 'created', status: 'qualified' });

			firstLookUp.resolve();
			const firstResult = await first;
			expect(firstResult.items).toHaveLength(0);
			expect(await leadsWith(email)).toHaveLength(1);
		});
	});

	test('an import pass and a single upsert of the same e-mail at once make one lead', async () => {
		// The account has leads, so the import reads them in a pass instead of looking each e-mail up.
		for (let index = 0; index < 20; index++) await bed.createLead();
		const email = 'both@example.com';
		const imported = Array.from({ length: 30 }, (_, index) =>
			index === 10 ? email : `row${index}@example.com`,
		);
		await throughProxy(async (proxy) => {
			const singleLookUp = deferred<void>();
			proxy.rules = {
				holdAnswer: (request) => (isLookUp(request, email) ? singleLookUp.promise : undefined),
			};
			const single = bed.run(upsert({ status: 'qualified' }), { input: items({ email }) });
			await waitFor(
				async () => proxy.requests.filter((request) => isLookUp(request, email)).length,
				(count) => count === 1,
				EVENT_WAIT_MS,
			);
			const pass = bed.run(upsert({ status: 'contacted' }), {
				input: items(...imported.map((row) => ({ email: row }))),
			});
			// The import creates the e-mail while the single upsert's look-up is out, or waits for it.
			await waitFor(
				async () => ({
					created: proxy.requests.some((request) => isCreate(request, email)),
					waiting: lockCounts().waiting,
				}),
				({ created, waiting }) => created || waiting === 1,
				EVENT_WAIT_MS,
			);
			singleLookUp.resolve();
			const results = await Promise.all([single, pass]);

			expectNoError(results);
			expect(proxy.requests.filter((request) => isLookUp(request, email))).toHaveLength(1);
			const stored = await leadsWith(email);
			expect(stored).toHaveLength(1);
			expect(stored[0].status).toBe('contacted');
			for (const row of imported) expect(await leadsWith(row)).toHaveLength(1);
			expect(jsonOf(results[0])[0]).toMatchObject({ outcome: 'created', id: stored[0].id });
			expect(jsonOf(results[1])[10]).toMatchObject({ outcome: 'updated', id: stored[0].id });
		});
	});
});

describe('two processes (queue-mode workers)', () => {
	/** A second n8n process: its own copy of the package's modules (locks, key pace), the same n8n-workflow. */
	async function secondProcess(baseUrl: string): Promise<Harness> {
		let harness: Harness | undefined;
		try {
			await jest.isolateModulesAsync(async () => {
				// One process has one n8n-workflow: n8n's engine and the package share it.
				jest.doMock('n8n-workflow', () => n8nWorkflow);
				harness = await createHarness({
					packageRoot: PACKAGE_ROOT,
					credentials: { [CREDENTIAL]: { apiKey: bed.keys.full, baseUrl } },
				});
			});
		} finally {
			jest.dontMock('n8n-workflow');
		}
		return harness as Harness;
	}

	test.each([
		['the same fields', { status: 'contacted' }, { status: 'contacted' }],
		['other fields', { name: 'Ann', status: 'contacted' }, { name: 'Anna', status: 'qualified' }],
	])(
		'two processes that both found no lead create one (%s): the e-mail key keeps one lead',
		async (_case, firstFields: INodeParameters, secondFields: INodeParameters) => {
			const email = 'worker@example.com';
			await throughProxy(async (proxy) => {
				const other = await secondProcess(proxy.url);
				try {
					const bothLookedUp = deferred<void>();
					proxy.rules = {
						holdAnswer: (request) => {
							if (!isLookUp(request, email)) return undefined;
							if (proxy.requests.filter((seen) => isLookUp(seen, email)).length === 2)
								bothLookedUp.resolve();
							return bothLookedUp.promise;
						},
					};
					const results = await Promise.all([
						bed.run(upsert(firstFields), { input: items({ email }) }),
						other.runNode({
							type: other.typeName('contentMarketing'),
							parameters: upsert(secondFields),
							input: items({ email }),
						}),
					]);

					expectNoError(results);
					const stored = await leadsWith(email);
					expect(stored).toHaveLength(1);
					const posts = proxy.requests.filter((request) => isCreate(request, email));
					expect(posts).toHaveLength(2);
					expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
					const answers = results.map((result) => jsonOf(result)[0]);
					expect(answers.map((json) => json.created).sort()).toEqual([false, true]);
					expect(answers.map((json) => json.id)).toEqual([stored[0].id, stored[0].id]);
				} finally {
					await other.close();
				}
			});
		},
	);

	test('a plain Lead › Create still sends a fresh key per item', async () => {
		await throughProxy(async (proxy) => {
			const result = await bed.run(
				{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
				{ input: items({ email: 'same@example.com' }, { email: 'same@example.com' }) },
			);
			expect(errorText(result)).toBe('');
			const keys = proxy.requests.map((request) => request.headers['idempotency-key']);
			expect(keys).toHaveLength(2);
			expect(keys[0]).not.toBe(keys[1]);
			expect(await leadsWith('same@example.com')).toHaveLength(2);
		});
	});
});
