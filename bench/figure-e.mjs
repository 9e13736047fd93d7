// Figure E of `npm run bench`: sustained signed `lead.created` deliveries, sent open-loop (a fixed rate,
// never waiting for answers; 30 s client timeout) from this process to 127.0.0.1, to a published workflow
// "Content Marketing Trigger → No Op" and to n8n's own "Webhook (respond immediately) → No Op" in the same
// n8n, one variant after the other. Per variant: p50 and p99 latency (an unanswered delivery counts as
// never answered), % answered 2xx within the service's 5 s, served rate (2xx answers per second until the
// last one), n8n's CPU per 1,000 deliveries, and for the trigger its static data size after the run and
// the executions per event (duplicates). Each 20th slot of the schedule re-sends an event sent at least
// 10 to 15 s before with CM-Delivery-Attempt 2, as the service retries one whose answer it lost
// (docs/api-contract.md §10); in queue mode the front routes it to the other webhook processor.
//   BENCH_E=40,100,queue   the sub-figures: 40/s for 120 s and 100/s for 60 s in one n8n (SQLite),
//                          40/s for 120 s in queue mode (PostgreSQL, Redis, 2 webhook processors, 1 worker)
//   BENCH_E_SECONDS=<s>    every run that long instead (a shortened run prints its targets as "shortened")
//   BENCH_PROFILE=<dir>    the one n8n runs with the CPU profiler; a profile per variant is written to <dir>
//                          (summarise with node bench/profile-summary.mjs <file>)
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { PROJECT_ROOT } from '../scripts/e2e/install-n8n.mjs';
import { importJson, listExecutions, queryDb, runN8nOk, startN8n } from '../scripts/e2e/n8n.mjs';
import { n8nProcess, queueEnv, startFront } from '../scripts/e2e/queue/cluster.mjs';
import { ensurePackages, startPostgres, startRedis } from '../scripts/e2e/queue/services.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { cpuMs, idle } from './idle.mjs';
import { prepareBenchFolder } from './user-folder.mjs';
import { CREDENTIAL } from './workflow.mjs';

const SUBFIGURES = new Set((process.env.BENCH_E ?? '40,100,queue').split(','));
const SHORTENED = process.env.BENCH_E_SECONDS ? Number(process.env.BENCH_E_SECONDS) : undefined;
const CLIENT_TIMEOUT_MS = 30_000;
/** docs/api-contract.md §10: an answer later than this counts as failed and is retried. */
const ANSWER_WITHIN_MS = 5_000;
/** Every RESEND_EVERY-th slot re-sends an earlier event (attempt 2), at least RESEND_AFTER_MS after it. */
const RESEND_EVERY = 20;
const RESEND_AFTER_MS = 10_000;
const RESEND_BEFORE_MS = 15_000;

const IDS = { trigger: 'cmBenchLoadTrigger', webhook: 'cmBenchLoadWebhook' };
const TRIGGER_WEBHOOK_ID = '3f2b8a61-5c0d-4e7f-9a1b-2c3d4e5f6a70';
const HOOK_PATH = 'bench-load';
const TRIGGER_NODE = 'Content Marketing Trigger';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function workflow(id, name, start) {
	const noOp = {
		id: `${id}-noop`,
		name: 'No Op',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	return {
		id,
		name,
		active: false,
		nodes: [{ ...start, position: [0, 0] }, noOp],
		connections: { [start.name]: { main: [[{ node: 'No Op', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function loadWorkflows() {
	return [
		workflow(IDS.trigger, 'Bench E: Content Marketing Trigger', {
			id: `${IDS.trigger}-start`,
			name: TRIGGER_NODE,
			type: 'n8n-nodes-content-marketing.contentMarketingTrigger',
			typeVersion: 1,
			webhookId: TRIGGER_WEBHOOK_ID,
			parameters: { events: ['lead.created'] },
			credentials: { contentMarketingApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		}),
		workflow(IDS.webhook, 'Bench E: Webhook node', {
			id: `${IDS.webhook}-start`,
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: HOOK_PATH, responseMode: 'onReceived', options: {} },
		}),
	];
}

const paths = {
	trigger: `/webhook/${TRIGGER_WEBHOOK_ID}/webhook`,
	webhook: `/webhook/${HOOK_PATH}`,
};

/** The endpoint secret the trigger stored at activation (the secret the service signs with). */
function secretIn(staticData) {
	const endpoints = staticData?.[`node:${TRIGGER_NODE}`]?.endpoints ?? {};
	return Object.values(endpoints)[0]?.secret;
}

async function waitFor(what, probe, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(500);
	}
}

function newEvent() {
	const id = `evt_${randomBytes(10).toString('hex')}`;
	const body = JSON.stringify({
		id,
		type: 'lead.created',
		created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
		api_version: 'v1',
		account_id: 'acct_bench0000000001',
		data: {
			lead: {
				id: `lead_${randomBytes(8).toString('hex')}`,
				email: 'load@bench.example',
				status: 'new',
			},
		},
	});
	return { id, body };
}

/** One delivery as the service sends it (docs/api-contract.md §10), signed now. */
function deliver(agent, url, secret, event, attempt, origin) {
	const t = Math.floor(Date.now() / 1000);
	const v1 = createHmac('sha256', secret).update(`${t}.${event.body}`).digest('hex');
	const started = performance.now();
	return new Promise((resolve) => {
		const done = (status, text = '') => {
			clearTimeout(timer);
			const end = performance.now();
			resolve({ eventId: event.id, attempt, status, ms: end - started, endAt: end - origin, text });
		};
		const req = http.request(url, {
			method: 'POST',
			agent,
			headers: {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(event.body),
				'user-agent': 'ContentMarketing-Webhooks/1.0',
				'cm-event-id': event.id,
				'cm-event-type': 'lead.created',
				'cm-delivery-attempt': String(attempt),
				'cm-signature': `t=${t},v1=${v1}`,
			},
		});
		const timer = setTimeout(() => req.destroy(new Error('client timeout')), CLIENT_TIMEOUT_MS);
		req.on('response', (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () => done(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
			res.on('error', () => done(0));
		});
		req.on('error', () => done(0));
		req.end(event.body);
	});
}

/** `rate` deliveries per second for `seconds`, open-loop; resolves with every answer. */
async function openLoop({ url, rate, seconds, secret }) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
	const count = Math.round(rate * seconds);
	const interval = 1000 / rate;
	const sent = [];
	let resendNext = 0;
	let resent = 0;
	const pending = [];
	const origin = performance.now();
	for (let i = 0; i < count; i++) {
		const wait = origin + i * interval - performance.now();
		if (wait > 0) await sleep(wait);
		// The service's first retry comes 10 s after an attempt failed (at most 5 s): re-send an event sent
		// 10 to 15 s ago, never an older one.
		while (sent[resendNext] && performance.now() - sent[resendNext].at > RESEND_BEFORE_MS)
			resendNext++;
		const old = sent[resendNext];
		if (
			i % RESEND_EVERY === RESEND_EVERY - 1 &&
			old &&
			performance.now() - old.at >= RESEND_AFTER_MS
		) {
			resendNext++;
			resent++;
			pending.push(deliver(agent, url, secret, old, 2, origin));
		} else {
			const event = { ...newEvent(), at: performance.now() };
			sent.push(event);
			pending.push(deliver(agent, url, secret, event, 1, origin));
		}
	}
	const results = await Promise.all(pending);
	agent.destroy();
	return { results, seconds, events: sent.length, resent };
}

function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarize({ results, seconds, events, resent }) {
	const ok = results.filter((r) => r.status >= 200 && r.status < 300);
	const latencies = results
		.map((r) => (r.status >= 200 && r.status < 300 ? r.ms : Infinity))
		.sort((a, b) => a - b);
	const inTime = ok.filter((r) => r.ms <= ANSWER_WITHIN_MS).length;
	const lastAnswer = Math.max(0, ...ok.map((r) => r.endAt / 1000));
	const statuses = {};
	for (const r of results) statuses[r.status || 'none'] = (statuses[r.status || 'none'] ?? 0) + 1;
	// Answers of the trigger: which events it emitted (answered "new event"), and how often.
	const emitted = new Map();
	for (const r of ok) {
		if (!r.text.includes('"emitted":true')) continue;
		emitted.set(r.eventId, (emitted.get(r.eventId) ?? 0) + 1);
	}
	return {
		sent: results.length,
		events,
		resent,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		inTimeShare: inTime / results.length,
		late: results.length - inTime,
		served: ok.length / Math.max(seconds, lastAnswer),
		statuses,
		emittedEvents: emitted.size,
		emittedTwice: [...emitted.values()].filter((n) => n > 1).length,
	};
}

const ms = (value) =>
	Number.isFinite(value)
		? value >= 1000
			? `${(value / 1000).toFixed(1)} s`
			: `${value.toFixed(0)} ms`
		: 'unanswered';
const describe = (s) =>
	`p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, ${(s.inTimeShare * 100).toFixed(1)} % answered 2xx within 5 s, served ${s.served.toFixed(1)}/s, statuses ${JSON.stringify(s.statuses)}, n8n CPU ${s.cpuPer1000.toFixed(1)} s per 1,000 deliveries`;

/** Executions of the trigger workflow once their count has stopped moving (3 s unchanged). */
async function settledCount(count) {
	let last = await count();
	for (let i = 0; i < 40; i++) {
		await sleep(3000);
		const next = await count();
		if (next === last) return next;
		last = next;
	}
	return last;
}

/**
 * Both variants at one load: the Webhook node first, then the trigger. `cpu()` is the CPU the n8n
 * processes have used so far (ms), `staticData()` the trigger workflow's stored static data, `executions()`
 * the number of its executions.
 */
async function compare({
	label,
	base,
	rate,
	seconds,
	secret,
	cpu,
	settle,
	staticData,
	executions,
	after,
}) {
	const runs = {};
	for (const variant of ['webhook', 'trigger']) {
		await settle();
		const before = { cpu: cpu(), executions: variant === 'trigger' ? await executions() : 0 };
		const run = await openLoop({ url: `${base}${paths[variant]}`, rate, seconds, secret });
		const summary = summarize(run);
		summary.cpuPer1000 = ((cpu() - before.cpu) / 1000 / run.results.length) * 1000;
		if (variant === 'trigger') {
			const executed = (await settledCount(executions)) - before.executions;
			summary.executions = executed;
			// Every event sent is emitted once: more executions than events are duplicates.
			summary.duplicates = Math.max(executed - run.events, summary.emittedTwice);
			summary.lost = Math.max(0, run.events - executed);
			const data = await staticData();
			summary.staticBytes = Buffer.byteLength(JSON.stringify(data ?? {}));
		}
		await after?.(variant);
		runs[variant] = summary;
		console.log(
			`E. ${label}, ${rate}/s for ${seconds} s (${summary.sent} deliveries, ${summary.resent} of them attempt-2 re-sends), ${variant === 'trigger' ? 'Content Marketing Trigger' : 'Webhook node'}: ${describe(summary)}${variant === 'trigger' ? `; ${summary.executions} executions for ${summary.events} events (duplicates ${summary.duplicates}, not run ${summary.lost}); static data ${(summary.staticBytes / 1024).toFixed(1)} KB after the run` : ''}`,
		);
	}
	return runs;
}

function limitNote(runs) {
	const { trigger, webhook } = runs;
	return `(n8n CPU per 1,000 deliveries: trigger ${trigger.cpuPer1000.toFixed(1)} s, Webhook node ${webhook.cpuPer1000.toFixed(1)} s; ${os.availableParallelism()} cores)`;
}

const ratio = (a, b) => (Number.isFinite(a) ? a / b : Infinity);
const target = (text, seconds) => (SHORTENED ? `${text}, shortened to ${seconds} s` : text);

async function singleN8n({ row }) {
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	await sandbox.client.control('PATCH', '/_sandbox/config', {
		rate_limit: null,
		allow_http_webhooks: true,
	});
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-e-'));
	let n8n;
	try {
		await prepareBenchFolder(userFolder, sandbox, loadWorkflows(), Object.values(IDS));
		const profile = process.env.BENCH_PROFILE;
		n8n = await startN8n({
			userFolder,
			env: profile
				? {
						NODE_OPTIONS: `--require ${path.join(PROJECT_ROOT, 'bench', 'cpu-profile-preload.cjs')}`,
						BENCH_PROFILE_DIR: path.resolve(profile),
					}
				: {},
		});
		await n8n.ready;
		const staticData = async () => {
			const [found] = await queryDb(
				userFolder,
				'SELECT staticData FROM workflow_entity WHERE id = ?',
				[IDS.trigger],
			);
			return found?.staticData ? JSON.parse(found.staticData) : undefined;
		};
		const secret = await waitFor('the trigger endpoint', async () => secretIn(await staticData()));
		const executions = async () => (await listExecutions(userFolder, IDS.trigger)).length;
		const dumpProfile = async (variant) => {
			if (!profile) return;
			process.kill(n8n.pid, 'SIGUSR2');
			await sleep(3000);
			console.log(`E. profile of the ${variant} variant written to ${profile}`);
		};
		const common = {
			base: n8n.baseUrl,
			secret,
			cpu: () => cpuMs(n8n.pid),
			settle: () => idle(n8n.pid),
			staticData,
			executions,
			after: dumpProfile,
		};
		// Warm-up (not counted): n8n loads both workflows' nodes and compiles on the first calls.
		for (const variant of ['webhook', 'trigger'])
			await openLoop({ url: `${n8n.baseUrl}${paths[variant]}`, rate: 20, seconds: 3, secret });
		await dumpProfile('warm-up');

		if (SUBFIGURES.has('40')) {
			const seconds = SHORTENED ?? 120;
			const runs = await compare({ ...common, label: 'one n8n (SQLite)', rate: 40, seconds });
			const { trigger, webhook } = runs;
			row(
				'E 40/s one n8n: answered 2xx within 5 s',
				`${(trigger.inTimeShare * 100).toFixed(1)} %`,
				target('100 %', seconds),
				trigger.late === 0,
				limitNote(runs),
			);
			for (const p of ['p50', 'p99'])
				row(
					`E 40/s one n8n: ${p} trigger/Webhook node`,
					`${ratio(trigger[p], webhook[p]).toFixed(2)} (${ms(trigger[p])} / ${ms(webhook[p])})`,
					target('≤ 1.5', seconds),
					ratio(trigger[p], webhook[p]) <= 1.5,
				);
			row(
				'E 40/s one n8n: duplicate executions',
				String(trigger.duplicates),
				'0',
				trigger.duplicates === 0,
			);
			row(
				'E 40/s one n8n: static data after the run',
				`${(trigger.staticBytes / 1024).toFixed(1)} KB`,
				'',
				undefined,
			);
		}
		if (SUBFIGURES.has('100')) {
			const seconds = SHORTENED ?? 60;
			const runs = await compare({ ...common, label: 'one n8n (SQLite)', rate: 100, seconds });
			const { trigger, webhook } = runs;
			row(
				'E 100/s one n8n: served rate trigger/Webhook node',
				`${ratio(trigger.served, webhook.served).toFixed(2)} (${trigger.served.toFixed(1)}/s / ${webhook.served.toFixed(1)}/s)`,
				target('≥ 0.9', seconds),
				trigger.served >= 0.9 * webhook.served,
				limitNote(runs),
			);
			row(
				'E 100/s one n8n: not answered within 5 s, trigger vs Webhook node',
				`${trigger.late} vs ${webhook.late}`,
				target('trigger ≤ Webhook node', seconds),
				trigger.late <= webhook.late,
			);
			row(
				'E 100/s one n8n: static data after the run',
				`${(trigger.staticBytes / 1024).toFixed(1)} KB`,
				'',
				undefined,
			);
		}
	} finally {
		await n8n?.stop();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

async function queueMode({ row }) {
	const stoppers = [];
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-eq-'));
	try {
		ensurePackages();
		const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-eq-pg-'));
		stoppers.push(() => fs.rmSync(pgDir, { recursive: true, force: true }));
		const postgres = await startPostgres(pgDir);
		stoppers.push(postgres.stop);
		const redis = await startRedis(fs.mkdtempSync(path.join(tmp, 'redis-')));
		stoppers.push(redis.stop);
		const sandbox = await startSandboxInProcess({ seedDemo: false });
		stoppers.push(sandbox.close);
		await sandbox.client.control('PATCH', '/_sandbox/config', {
			rate_limit: null,
			allow_http_webhooks: true,
		});
		const front = await startFront();
		stoppers.push(front.close);
		const sharedEnv = queueEnv({ postgres, redis, webhookUrl: front.url });
		const make = (kind, name, extraEnv) =>
			n8nProcess({ kind, name, userFolder: path.join(tmp, name), sharedEnv, extraEnv });
		const main = make('main', 'main', { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' });
		const worker = make('worker', 'worker-1');
		const webhooks = [make('webhook', 'webhook-1'), make('webhook', 'webhook-2')];
		const all = [main, worker, ...webhooks];
		stoppers.push(() => Promise.all(all.map((proc) => proc.stop())));
		const cli = {
			userFolder: main.userFolder,
			env: { ...sharedEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		};
		await importJson(
			'import:credentials',
			[{ ...CREDENTIAL, data: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } }],
			cli,
		);
		await importJson('import:workflow', loadWorkflows(), cli);
		for (const id of Object.values(IDS)) await runN8nOk(['publish:workflow', `--id=${id}`], cli);
		await main.start();
		await Promise.all([worker, ...webhooks].map((proc) => proc.start()));
		front.setTargets(webhooks);
		const staticData = async () =>
			postgres.query(`SELECT "staticData" AS s FROM workflow_entity WHERE id = '${IDS.trigger}'`)[0]
				?.s;
		const secret = await waitFor('the trigger endpoint', async () => secretIn(await staticData()));
		const executions = async () =>
			Number(
				postgres.query(
					`SELECT count(*) AS n FROM execution_entity WHERE "workflowId" = '${IDS.trigger}'`,
				)[0].n,
			);
		const cpuOf = (pids) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
		const common = {
			base: front.url.replace(/\/$/, ''),
			secret,
			// the webhook processors and the worker (PostgreSQL's backends are processes of their own)
			cpu: () => cpuOf([...webhooks.map((w) => w.pid), worker.pid]),
			settle: async () => {
				for (const proc of [...webhooks, worker]) await idle(proc.pid);
			},
			staticData,
			executions,
		};
		for (const variant of ['webhook', 'trigger'])
			await openLoop({ url: `${common.base}${paths[variant]}`, rate: 20, seconds: 3, secret });
		const seconds = SHORTENED ?? 120;
		const runs = await compare({
			...common,
			label: 'queue mode (PostgreSQL, 2 webhook processors, 1 worker)',
			rate: 40,
			seconds,
		});
		const { trigger, webhook } = runs;
		row(
			'E 40/s queue mode: duplicate executions',
			String(trigger.duplicates),
			'0',
			trigger.duplicates === 0,
			`(${trigger.executions} executions for ${trigger.events} events, ${trigger.resent} re-sent to the other processor)`,
		);
		row(
			'E 40/s queue mode: p99 trigger/Webhook node',
			`${ratio(trigger.p99, webhook.p99).toFixed(2)} (${ms(trigger.p99)} / ${ms(webhook.p99)})`,
			target('≤ 1.5', seconds),
			ratio(trigger.p99, webhook.p99) <= 1.5,
			limitNote(runs),
		);
		row(
			'E 40/s queue mode: answered 2xx within 5 s',
			`${(trigger.inTimeShare * 100).toFixed(1)} % (Webhook node ${(webhook.inTimeShare * 100).toFixed(1)} %)`,
			'',
			undefined,
		);
		row(
			'E 40/s queue mode: static data after the run',
			`${(trigger.staticBytes / 1024).toFixed(1)} KB`,
			'',
			undefined,
		);
	} finally {
		while (stoppers.length) {
			const stop = stoppers.pop();
			await Promise.resolve()
				.then(stop)
				.catch(() => {});
		}
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

export async function figureE({ row }) {
	if (SUBFIGURES.has('40') || SUBFIGURES.has('100')) await singleN8n({ row });
	if (SUBFIGURES.has('queue')) await queueMode({ row });
}
