// The Content Marketing Poll Trigger on n8n 2.41.3 with Poll Times *Every Minute* (2.41 refuses polls under
// a minute), under both of its schedulers side by side: the in-memory one (the default) and the durable
// one (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_USE_WORKFLOW_PUBLICATION_SERVICE,
// N8N_POLLER_DURABLE_CURSORS_ENABLED all true; the default from n8n 2.45). Each mode has its own sandbox,
// n8n user folder, ports and n8n process, so that a minute per poll does not add up.
//
//   node scripts/e2e/check-poll-schedulers.mjs      # re-runs itself on the Node that runs n8n 2.41.3
//
// Per mode: history before the activation is not emitted; leads created in the first seconds after the
// activation poll (before the first scheduled one) come out exactly once; a 429/500/dropped-connection
// burst on GET /v1/events during polls loses and repeats nothing; a lead created while n8n is down comes
// out once after the restart, nothing repeated.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CREDENTIALS } from './examples.mjs';
import { n8nRuntime, N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import {
	executionData,
	importJson,
	listExecutions,
	prepareUserFolder,
	queryDb,
	runN8nOk,
	startN8n,
} from './n8n.mjs';
import { createProgress } from './progress.mjs';
import { startSandboxInProcess } from './sandbox.mjs';

const RELEASE = '2.41.3';
const WORKFLOW_ID = 'cmPollEveryMinute01';
const TRIGGER = 'Poll Leads';
const NODE_ID = 'c8e2d6f3-1e7d-4b62-8a4f-6a1d2b3c4d01';
/** Poll Times *Every Minute*: the longest a scheduled poll is away. */
const POLL_INTERVAL_MS = 60_000;
/**
 * How long n8n's own work may take on this machine now (a poll, its execution, an activation): twice the
 * last measured start of this mode's n8n (the machine's speed under its current load), at least 30 s, as
 * the load changes after the start (the releases' checks run beside this one).
 */
const workMs = (startMs) => Math.max(30_000, 2 * startMs);

const DURABLE_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

export const MODES = [
	{ name: 'in-memory', env: {} },
	{ name: 'durable', env: DURABLE_ENV },
];

const workflow = {
	id: WORKFLOW_ID,
	name: 'e2e: poll trigger every minute',
	active: false,
	settings: { executionOrder: 'v1' },
	connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	nodes: [
		{
			id: NODE_ID,
			name: TRIGGER,
			type: 'n8n-nodes-content-marketing.contentTriggerMarketing',
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				events: ['lead.created', 'lead.status_updated'],
			},
			credentials: {
				contentMarketingApi: {
					id: CREDENTIALS.contentMarketing.id,
					name: CREDENTIALS.contentMarketing.name,
				},
			},
		},
		{
			id: 'c8e2d6f3-1e7d-4b62-8a4f-6a1d2b3c4d02',
			name: 'Done',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [220, 0],
			parameters: {},
		},
	],
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event ids every trigger execution of the workflow emitted, in execution order. */
async function emittedIds(userFolder) {
	const ids = [];
	const executions = (await listExecutions(userFolder, WORKFLOW_ID, { mode: 'trigger' })).filter(
		(e) => e.stoppedAt || e.finished,
	);
	for (const execution of executions) {
		const { data } = await executionData(userFolder, execution.id);
		const items = data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
		ids.push(...items.map(({ json }) => json.event_id));
	}
	return { ids, executions };
}

/** Every event id the sandbox recorded, oldest first. */
async function recordedIds(api) {
	const ids = [];
	let cursor = null;
	do {
		const page = await api('GET', `/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
		ids.push(...page.data.map((event) => event.id));
		cursor = page.next_cursor;
	} while (cursor);
	return ids;
}

/** The node's requests to the events list (they carry `order`; this script's own reads do not). */
async function requests(sandbox) {
	return (await sandbox.client.control('GET', '/_sandbox/requests')).filter(
		(r) => r.path === '/v1/events' && String(r.query).includes('order='),
	);
}

async function waitFor(what, test, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await test();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

/** One scheduler mode, start to end, on its own sandbox, user folder and n8n. */
async function checkMode(mode, step) {
	const closers = [];
	const userFolder = path.join(PROJECT_ROOT, '.tmp', `e2e-poll-${RELEASE}-${mode.name}`);
	const t = `[${mode.name}]`;
	const started = Date.now();
	const diagnostics = {};
	try {
		const sandbox = await startSandboxInProcess({ port: 0, seedDemo: true });
		diagnostics.sandbox = sandbox;
		closers.push(() => sandbox.close());
		const { api } = sandbox.client;
		const newLead = async (tag) =>
			await api('POST', '/v1/leads', {
				email: `e2e.poll.${mode.name}.${tag}.${Date.now()}@example.com`,
			});
		let n8n;
		let startMs = 0;
		const start = async () => {
			n8n = await startN8n({ userFolder, env: mode.env });
			startMs = (await n8n.ready) * 1000;
		};
		/** A waited-for event comes out at the next scheduled poll, run and stored by n8n. */
		const emitTimeoutMs = () => POLL_INTERVAL_MS + workMs(startMs);
		closers.push(async () => await n8n?.stop());

		await step(
			`${t} history, a fresh user folder, the every-minute workflow published`,
			async () => {
				const old = await newLead('history');
				await api('PATCH', `/v1/leads/${old.id}`, { status: 'contacted' });
				prepareUserFolder(userFolder, { clean: true });
				const opts = { userFolder, env: mode.env };
				await importJson(
					'import:credentials',
					[
						{
							...CREDENTIALS.contentMarketing,
							data: { apiKey: sandbox.keys.full, baseUrl: sandbox.url },
						},
					],
					opts,
				);
				await importJson('import:workflow', [workflow], opts);
				await runN8nOk(['publish:workflow', `--id=${WORKFLOW_ID}`], opts);
			},
		);
		const history = new Set(await recordedIds(api));
		const expected = async () => (await recordedIds(api)).filter((id) => !history.has(id));
		const expectEachOnce = async (context) => {
			const want = await expected();
			const { ids, executions } = await emittedIds(userFolder);
			assert.ok(
				executions.every((e) => e.status === 'success'),
				`${t} ${context}: every poll execution succeeded: ${JSON.stringify(executions)}`,
			);
			assert.deepEqual(
				ids,
				want,
				`${t} ${context}: each event since the activation once, in order, no history`,
			);
			return { ids, executions };
		};
		const emittedAll = async () => {
			const want = await expected();
			const { ids } = await emittedIds(userFolder);
			return want.every((id) => ids.includes(id));
		};

		await step(
			`${t} n8n start; leads created right after the activation poll -> each once`,
			async () => {
				await start();
				const activation = await waitFor(
					'the activation poll',
					async () => (await requests(sandbox))[0],
					// the activation poll, or the durable scheduler's first occurrence
					POLL_INTERVAL_MS + workMs(startMs),
				);
				// the first seconds after the activation: before the first scheduled poll (up to a minute later)
				const a = await newLead('window-a');
				await newLead('window-b');
				await sleep(2_000);
				await api('PATCH', `/v1/leads/${a.id}`, { status: 'qualified' });
				const evidence = await queryDb(
					userFolder,
					"SELECT name FROM sqlite_master WHERE type='table' AND name='poller_state'",
				).then(async (tables) =>
					tables.length
						? await queryDb(userFolder, 'SELECT cursor FROM poller_state WHERE workflowId = ?', [
								WORKFLOW_ID,
							])
						: [],
				);
				const staticData = (
					await queryDb(userFolder, 'SELECT staticData FROM workflow_entity WHERE id = ?', [
						WORKFLOW_ID,
					])
				)[0]?.staticData;
				await waitFor('the window leads emitted', emittedAll, emitTimeoutMs());
				const polls = await requests(sandbox);
				await expectEachOnce('activation window');
				return {
					detail: `activation poll ${activation.at}, first scheduled ${polls[1]?.at}; poller_state after activation: ${JSON.stringify(evidence)}; staticData: ${staticData}`,
				};
			},
		);

		await step(
			`${t} a 429/500/drop burst on GET /v1/events during polls -> 0 lost, 0 repeated`,
			async () => {
				const before = (await requests(sandbox)).length;
				await sandbox.client.control('PUT', '/_sandbox/faults', {
					rate_429: 0.25,
					rate_500: 0.25,
					drop_rate: 0.1,
					methods: ['GET'],
					path_prefix: '/v1/events',
					seed: 19,
				});
				await newLead('burst-a');
				await newLead('burst-b');
				// faults on until a poll met at least one of them (and a little more)
				const faulted = await waitFor(
					'a faulted poll request',
					async () =>
						(await requests(sandbox)).slice(before).filter((r) => r.status !== 200).length,
					// the next scheduled poll meets the faults
					POLL_INTERVAL_MS + workMs(startMs),
				);
				await sleep(5_000);
				await sandbox.client.control('DELETE', '/_sandbox/faults');
				const during = (await requests(sandbox)).slice(before);
				await waitFor('the burst leads emitted', emittedAll, emitTimeoutMs());
				await expectEachOnce('fault burst');
				return {
					detail: `${during.length} requests during the burst, ${during.filter((r) => r.status !== 200).length} faulted (${faulted} when the burst ended)`,
				};
			},
		);

		await step(
			`${t} n8n restarted, a lead created while down -> once, nothing repeated`,
			async () => {
				await n8n.stop();
				await newLead('down');
				const before = (await requests(sandbox)).length;
				await start();
				await waitFor('the lead created while down emitted', emittedAll, emitTimeoutMs());
				// one more poll after that: it must not repeat anything
				const after = (await requests(sandbox)).length;
				await waitFor(
					'one more poll',
					async () => (await requests(sandbox)).length > after,
					POLL_INTERVAL_MS + workMs(startMs),
				);
				await sleep(3_000);
				const { ids, executions } = await expectEachOnce('restart');
				return {
					detail: `${ids.length} events in ${executions.length} executions, ${(await requests(sandbox)).length - before} polls since the restart`,
				};
			},
		);
		return { mode: mode.name, seconds: (Date.now() - started) / 1000 };
	} catch (error) {
		// what the sandbox saw, to tell a lost event from a slow poll
		const sandbox = diagnostics.sandbox;
		if (sandbox) {
			const polls = (await requests(sandbox).catch(() => [])).map(
				(r) => `${r.at} ${r.status} ${JSON.stringify(r.query)}`,
			);
			const events = await sandbox.client
				.api('GET', '/v1/events?limit=100&order=desc')
				.then((page) => page.data.map((e) => `${e.created_at} ${e.id} ${e.type}`))
				.catch(() => []);
			error.message += `\n${t} polls of /v1/events:\n  ${polls.join('\n  ')}\n${t} newest events:\n  ${events.slice(0, 15).join('\n  ')}`;
		}
		throw error;
	} finally {
		while (closers.length)
			await closers
				.pop()()
				.catch(() => undefined);
	}
}

/** Both modes at once; resolves with the seconds each took, rejects with the first failure. */
export async function checkPollSchedulers(step) {
	const results = await Promise.allSettled(MODES.map((mode) => checkMode(mode, step)));
	const failed = results.find((r) => r.status === 'rejected');
	if (failed) throw failed.reason;
	return results.map((r) => r.value);
}

const thisFile = fileURLToPath(import.meta.url);
if (process.argv[1] === thisFile) {
	if (N8N_VERSION !== RELEASE) {
		// the Node that runs n8n 2.41.3 (Node 24), and the helpers' constants for that release
		const child = spawn(n8nRuntime(RELEASE).nodeBin, [thisFile], {
			cwd: PROJECT_ROOT,
			env: { ...process.env, E2E_N8N_VERSION: RELEASE },
			stdio: 'inherit',
		});
		child.on('exit', (code) => process.exit(code ?? 1));
	} else {
		const progress = createProgress({ prefix: `e2e poll ${RELEASE}` });
		try {
			const times = await checkPollSchedulers(progress.step);
			console.log(
				`\ne2e poll schedulers passed on n8n ${RELEASE} in ${progress.seconds().toFixed(1)} s (${times.map((x) => `${x.mode} ${x.seconds.toFixed(1)} s`).join(', ')})`,
			);
		} catch (error) {
			console.error(
				`\ne2e poll schedulers FAILED in step "${error.step ?? 'unknown'}" after ${progress.seconds().toFixed(1)} s:\n${error.stack ?? error}`,
			);
			process.exitCode = 1;
		}
	}
}
