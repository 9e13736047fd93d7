// Figure S of `npm run bench` (alone: `npm run bench -- --only=S`): a soak. For SOAK_MINUTES, two real
// n8n processes side by side (N8N_METRICS=true, SQLite, every execution stored), each on its own key of
// one sandbox at its 600 calls a minute (rolling window):
//   ours:   Webhook -> Lead › Create, Webhook -> Lead › Create or Update (status of a lead made a minute
//           before), the Content Marketing Trigger receiving every lead.created and lead.status_updated of
//           the account, the Content Marketing Poll Trigger every minute on the same key, and, spread over
//           the thirds of the run, imports (Webhook -> Split Out -> Create or Update, half existing leads
//           with a new status, half new) each followed by a Get Many with Return All of the import's rows;
//   anchor: the same steady load through n8n's own nodes: Webhook -> HTTP Request (POST, and GET then
//           PATCH), a Webhook node receiving the deliveries our trigger receives (the same events), a
//           Schedule Trigger every minute -> HTTP Request (GET /v1/events), imports through HTTP Request
//           with Batching, and HTTP Request pagination for the Get Many.
// Every SOAK_SAMPLE_SECONDS it samples each n8n's /metrics (timers: n8n_nodejs_active_resources{type=
// "Timeout"}, active handles, heap, event-loop lag p99), the resident set of its session (n8n and its task
// runner: `ps -o rss= -g <pid>`) and /proc/loadavg. After the load it waits for the executions to end and
// the poll to catch up, then prints: RSS slope after warm-up (least squares, MB per 10 min), timers and
// handles at the start (after warm-up) and end, each workflow's executions by status (n8n's database), the
// triggers' lost and twice (the sandbox's events against the events the executions emitted), 429s (the
// sandbox's request log), p50/p99 of answer times per third of the run after warm-up, with PASS/FAIL per
// target (docs/performance.md).
//   SOAK_MINUTES=60         the load's length (a short run for the dev loop: SOAK_MINUTES=5)
//   SOAK_WARMUP_MINUTES     excluded from slopes, starts and thirds (default a sixth of the run, 1 to 10)
//   SOAK_RATE=5             webhook calls a second to each n8n (half Create, half Create or Update)
//   SOAK_IMPORT_ROWS        rows of each import (default 300; 100 below 15 minutes)
//   SOAK_IMPORTS_PER_THIRD  imports in each third after warm-up (default: one per 8 minutes, at least 1)
//   SOAK_SAMPLE_SECONDS=20  the sampling period
//   SOAK_SAMPLES=<file>     where the samples are written (JSON lines; default a temporary file, printed)
//   E2E_N8N_VERSION=2.41.3  the other supported release (installed by node scripts/e2e/install-n8n.mjs)
//   SOAK_EXPRESSION_ENGINE=legacy  N8N_EXPRESSION_ENGINE for both n8n (n8n 2.41's default otherwise)
//   SOAK_WEBHOOK_TIMING=1   both n8n time each webhook call's steps (bench/webhook-timing.cjs); printed per node type
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { N8N_VERSION, PROJECT_ROOT } from '../scripts/e2e/install-n8n.mjs';
import { executionData, n8nRequire, queryDb, startN8n } from '../scripts/e2e/n8n.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { prepareBenchFolder } from './user-folder.mjs';
import { CREDENTIAL } from './workflow.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const WARMUP_MINUTES = Number(
	process.env.SOAK_WARMUP_MINUTES ?? Math.min(10, Math.max(1, MINUTES / 6)),
);
const RATE = Number(process.env.SOAK_RATE ?? 5);
const IMPORT_ROWS = Number(process.env.SOAK_IMPORT_ROWS ?? (MINUTES < 15 ? 100 : 300));
const IMPORTS_PER_THIRD = Number(
	process.env.SOAK_IMPORTS_PER_THIRD ?? Math.max(1, Math.round((MINUTES - WARMUP_MINUTES) / 3 / 8)),
);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 20) * 1000;
/** A lead's status is changed (Create or Update) this long after its create was sent. */
const UPSERT_AFTER_MS = 60_000;
/** Imports change the status of leads at least this old (their first change is done). */
const IMPORT_AFTER_MS = 120_000;
const LIMIT = 600;
const CLIENT_TIMEOUT_MS = 30_000;

const NODE_TYPE = 'n8n-nodes-content-marketing.contentMarketing';
const TRIGGER_TYPE = 'n8n-nodes-content-marketing.contentMarketingTrigger';
const POLL_TYPE = 'n8n-nodes-content-marketing.contentTriggerMarketing';
const TRIGGER_NODE = 'Content Marketing Trigger';
const POLL_NODE = 'Poll Leads';
const TRIGGER_WEBHOOK_ID = '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const OURS = {
	create: 'cmSoakCreate',
	upsert: 'cmSoakUpsert',
	import: 'cmSoakImport',
	getAll: 'cmSoakGetAll',
	trigger: 'cmSoakTrigger',
	poll: 'cmSoakPoll',
};
const ANCHOR = {
	create: 'cmSoakAnchorCreate',
	upsert: 'cmSoakAnchorUpsert',
	import: 'cmSoakAnchorImport',
	getAll: 'cmSoakAnchorGetAll',
	trigger: 'cmSoakAnchorHook',
	poll: 'cmSoakAnchorSchedule',
};
const HOOK_PATHS = { create: 'soak-create', upsert: 'soak-upsert', import: 'soak-import' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const credentials = { contentMarketingApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

// ---------------------------------------------------------------------------------------------
// workflows

function webhookNode(id, pathName) {
	return {
		id: `${id}-hook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: pathName, responseMode: 'onReceived', options: {} },
	};
}

function chain(id, name, nodes) {
	const all = nodes.map((node, i) => ({ id: `${id}-${i}`, ...node, position: [220 * i, 0] }));
	const connections = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { id, name, active: false, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

const noOp = { name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
const splitOut = {
	name: 'Split',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'body.items', options: {} },
};

function ours(name, parameters) {
	return { name, type: NODE_TYPE, typeVersion: 1, parameters, credentials };
}

function ourWorkflows() {
	return [
		chain(OURS.create, 'Soak: Webhook -> Lead › Create', [
			webhookNode(OURS.create, HOOK_PATHS.create),
			ours('Create Lead', {
				resource: 'lead',
				operation: 'create',
				email: '={{ $json.body.email }}',
			}),
		]),
		chain(OURS.upsert, 'Soak: Webhook -> Lead › Create or Update', [
			webhookNode(OURS.upsert, HOOK_PATHS.upsert),
			ours('Create or Update', {
				resource: 'lead',
				operation: 'createOrUpdate',
				email: '={{ $json.body.email }}',
				additionalFields: { status: '={{ $json.body.status }}' },
			}),
		]),
		chain(OURS.import, 'Soak: import (Create or Update, many items)', [
			webhookNode(OURS.import, HOOK_PATHS.import),
			splitOut,
			ours('Create or Update', {
				resource: 'lead',
				operation: 'createOrUpdate',
				email: '={{ $json.email }}',
				additionalFields: { status: '={{ $json.status }}' },
			}),
		]),
		chain(OURS.getAll, 'Soak: Get Many, Return All', [
			webhookNode(OURS.getAll, 'soak-getall'),
			ours('Get Many', {
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				filters: { q: '={{ $json.body.q }}' },
			}),
		]),
		chain(OURS.trigger, 'Soak: Content Marketing Trigger', [
			{
				name: TRIGGER_NODE,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				webhookId: TRIGGER_WEBHOOK_ID,
				parameters: { events: ['lead.created', 'lead.status_updated'] },
				credentials,
			},
			noOp,
		]),
		chain(OURS.poll, 'Soak: Content Marketing Poll Trigger', [
			{
				name: POLL_NODE,
				type: POLL_TYPE,
				typeVersion: 1,
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					events: ['lead.created', 'lead.status_updated'],
				},
				credentials,
			},
			noOp,
		]),
	];
}

/** n8n's HTTP Request node 4.2 on the anchor's key (a header, as a user without our credential sets it). */
function httpNode(name, { sandboxUrl, key }, method, url, extra = {}) {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		retryOnFail: true,
		maxTries: 5,
		waitBetweenTries: 5000,
		parameters: {
			method,
			url: url.startsWith('=') ? `=${sandboxUrl}${url.slice(1)}` : `${sandboxUrl}${url}`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${key}` }] },
			...extra,
			options: extra.options ?? {},
		},
	};
}

function anchorWorkflows(target) {
	const json = (expression) => ({ sendBody: true, specifyBody: 'json', jsonBody: expression });
	return [
		chain(ANCHOR.create, 'Soak anchor: Webhook -> HTTP Request POST', [
			webhookNode(ANCHOR.create, HOOK_PATHS.create),
			httpNode(
				'POST lead',
				target,
				'POST',
				'/v1/leads',
				json('={{ JSON.stringify({ email: $json.body.email }) }}'),
			),
		]),
		chain(ANCHOR.upsert, 'Soak anchor: Webhook -> HTTP Request GET, PATCH', [
			webhookNode(ANCHOR.upsert, HOOK_PATHS.upsert),
			httpNode('Find lead', target, 'GET', '/v1/leads', {
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'q', value: '={{ $json.body.email }}' },
						{ name: 'limit', value: '1' },
					],
				},
			}),
			httpNode(
				'PATCH lead',
				target,
				'PATCH',
				'=/v1/leads/{{ $json.data[0].id }}',
				json("={{ JSON.stringify({ status: $('Webhook').item.json.body.status }) }}"),
			),
		]),
		chain(ANCHOR.import, 'Soak anchor: import (HTTP Request, Batching)', [
			webhookNode(ANCHOR.import, HOOK_PATHS.import),
			splitOut,
			httpNode('POST leads', target, 'POST', '/v1/leads', {
				...json('={{ JSON.stringify({ email: $json.email }) }}'),
				// What a user does to keep an import under the key's limit beside other work.
				options: { batching: { batch: { batchSize: 2, batchInterval: 1000 } } },
			}),
		]),
		chain(ANCHOR.getAll, 'Soak anchor: HTTP Request pagination', [
			webhookNode(ANCHOR.getAll, 'soak-getall'),
			httpNode('GET leads', target, 'GET', '/v1/leads', {
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'limit', value: '100' },
						{ name: 'q', value: '={{ $json.body.q }}' },
					],
				},
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{ type: 'qs', name: 'cursor', value: '={{ $response.body.next_cursor }}' },
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.next_cursor }}',
						},
					},
				},
			}),
		]),
		chain(ANCHOR.trigger, "Soak anchor: Webhook node receiving the account's events", [
			webhookNode(ANCHOR.trigger, 'soak-events'),
			noOp,
		]),
		chain(ANCHOR.poll, 'Soak anchor: Schedule Trigger -> HTTP Request GET /v1/events', [
			{
				name: 'Every Minute',
				type: 'n8n-nodes-base.scheduleTrigger',
				typeVersion: 1.2,
				parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 1 }] } },
			},
			httpNode('GET events', target, 'GET', '/v1/events', {
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'order', value: 'desc' },
						{ name: 'limit', value: '100' },
					],
				},
			}),
		]),
	];
}

// ---------------------------------------------------------------------------------------------
// measuring

/** The metrics the soak reads from n8n's Prometheus text. */
function parseMetrics(text) {
	const value = (name) => {
		const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
		return match ? Number(match[1]) : undefined;
	};
	const resources = {};
	for (const match of text.matchAll(/^n8n_nodejs_active_resources\{type="([^"]+)"\} (\d+)$/gm))
		resources[match[1]] = Number(match[2]);
	return {
		timers: resources.Timeout ?? 0,
		resources,
		handles: value('n8n_nodejs_active_handles_total'),
		heapMb: (value('n8n_nodejs_heap_size_used_bytes') ?? 0) / 1048576,
		processRssMb: (value('n8n_process_resident_memory_bytes') ?? 0) / 1048576,
		lagP99Ms: (value('n8n_nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000,
	};
}

/** Resident memory of n8n's session (n8n and its task runner), in MB. */
function sessionRssMb(pid) {
	try {
		const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pid)], { encoding: 'utf8' });
		return out
			.split('\n')
			.filter(Boolean)
			.reduce((sum, line) => sum + Number(line.trim()) / 1024, 0);
	} catch {
		return undefined;
	}
}

async function sample(n8n) {
	const started = performance.now();
	try {
		const res = await fetch(`${n8n.baseUrl}/metrics`, { signal: AbortSignal.timeout(15_000) });
		const metrics = parseMetrics(await res.text());
		return { ...metrics, rssMb: sessionRssMb(n8n.pid), metricsMs: performance.now() - started };
	} catch (error) {
		return { error: String(error), rssMb: sessionRssMb(n8n.pid) };
	}
}

/** Least-squares slope of y over x. */
function slope(points) {
	const n = points.length;
	if (n < 2) return NaN;
	const mx = points.reduce((s, p) => s + p.x, 0) / n;
	const my = points.reduce((s, p) => s + p.y, 0) / n;
	let num = 0;
	let den = 0;
	for (const p of points) {
		num += (p.x - mx) * (p.y - my);
		den += (p.x - mx) ** 2;
	}
	return den === 0 ? NaN : num / den;
}

function percentile(values, p) {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const median = (values) => percentile(values, 50);
/** An answer time for the figures; an answer that never came (or was not 2xx) counts as unanswered. */
const ms = (value) =>
	Number.isFinite(value) ? `${value.toFixed(0)} ms` : Number.isNaN(value) ? '-' : 'unanswered';

// ---------------------------------------------------------------------------------------------
// load

/** POSTs JSON to n8n; resolves with the answer's status and time (0: no answer within 30 s). */
function post(agent, url, body) {
	const data = JSON.stringify(body);
	const started = performance.now();
	return new Promise((resolve) => {
		const done = (status) => resolve({ status, ms: performance.now() - started });
		const request = http.request(url, {
			method: 'POST',
			agent,
			headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
			timeout: CLIENT_TIMEOUT_MS,
		});
		request.on('response', (response) => {
			response.resume();
			response.on('end', () => done(response.statusCode ?? 0));
			response.on('error', () => done(0));
		});
		request.on('timeout', () => request.destroy(new Error('timeout')));
		request.on('error', () => done(0));
		request.end(data);
	});
}

/** The side's state of the steady load: the leads it asked for, which of them had their status changed. */
function sideLoad(name, n8n, tag) {
	return {
		name,
		n8n,
		tag,
		agent: new http.Agent({ keepAlive: true, maxSockets: Infinity }),
		created: [],
		upserted: 0,
		imported: 0,
		answers: [],
		pending: new Set(),
		call(kind, hookPath, body, at) {
			const promise = post(this.agent, `${this.n8n.baseUrl}/webhook/${hookPath}`, body).then(
				(answer) => {
					this.answers.push({ kind, at, ...answer });
					this.pending.delete(promise);
				},
			);
			this.pending.add(promise);
		},
		/** One tick of the steady load: a create, or the status change of a lead made a minute before. */
		tick(i, now, at) {
			const old = this.created[this.upserted];
			if (i % 2 === 1 && old && now - old.at >= UPSERT_AFTER_MS) {
				this.upserted++;
				this.call('upsert', HOOK_PATHS.upsert, { email: old.email, status: 'contacted' }, at);
			} else {
				const email = `${this.tag}${this.created.length}@soak.example`;
				this.created.push({ email, at: now });
				this.call('create', HOOK_PATHS.create, { email }, at);
			}
		},
		/** Half the rows change leads whose status was changed already, half are new leads. */
		importRows(k, now) {
			const rows = [];
			while (
				rows.length < IMPORT_ROWS / 2 &&
				this.imported < this.upserted &&
				now - this.created[this.imported].at >= IMPORT_AFTER_MS
			)
				rows.push({ email: this.created[this.imported++].email, status: 'qualified' });
			const fresh = IMPORT_ROWS - rows.length;
			for (let i = 0; i < fresh; i++)
				rows.push({ email: `${this.tag}imp${k}x${i}@soak.example`, status: 'new' });
			return rows;
		},
	};
}

// ---------------------------------------------------------------------------------------------
// after the run

/** Executions of an n8n by workflow and status. */
async function executionsByStatus(userFolder) {
	const rows = await queryDb(
		userFolder,
		'SELECT workflowId, status, COUNT(*) AS n FROM execution_entity GROUP BY workflowId, status',
	);
	const byWorkflow = {};
	for (const r of rows) (byWorkflow[r.workflowId] ??= {})[r.status] = r.n;
	return byWorkflow;
}

/** What each execution of ours that did not succeed says: its id, status, mode, node and error message. */
async function failedExecutions(userFolder) {
	const rows = await queryDb(
		userFolder,
		"SELECT id, workflowId, mode, status, startedAt, stoppedAt FROM execution_entity WHERE status != 'success' ORDER BY CAST(id AS INTEGER)",
	);
	return Promise.all(
		rows.map(async (r) => {
			const error = (await executionData(userFolder, r.id).catch(() => undefined))?.data?.resultData
				?.error;
			const where = error?.node?.name ? ` in ${error.node.name}` : '';
			const what = error
				? `${error.name ?? 'error'}${where}: ${error.message ?? JSON.stringify(error)}${error.description ? ` (${error.description})` : ''}`
				: 'no error stored';
			return `${r.id} ${r.workflowId} ${r.mode} ${r.status} ${r.startedAt} -> ${r.stoppedAt ?? '-'}: ${what}`;
		}),
	);
}

/**
 * bench/webhook-timing.cjs's lines after warm-up, per node type: each step's p50 and p99, and the calls
 * that took over the service's 5 s with their steps' means.
 */
function webhookSteps(file, warmupMinutes) {
	if (!fs.existsSync(file)) return [`no timing file ${file}`];
	const lines = fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line));
	const from = lines.length ? lines[0].at + warmupMinutes * 60_000 : 0;
	const byType = {};
	for (const call of lines.filter((c) => c.at >= from))
		(byType[call.type ?? 'none'] ??= []).push(call);
	const steps = ['find', 'node', 'run', 'save', 'total'];
	const pct = (values, p) => {
		const sorted = values.toSorted((a, b) => a - b);
		return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
	};
	const mean = (values) => values.reduce((a, b) => a + b, 0) / (values.length || 1);
	return Object.entries(byType).map(([type, calls]) => {
		const of = (step, list = calls) => list.map((c) => c[step] ?? 0);
		const late = calls.filter((c) => c.total > 5000);
		const each = steps
			.map((step) => `${step} ${pct(of(step), 0.5).toFixed(0)}/${pct(of(step), 0.99).toFixed(0)}`)
			.join(', ');
		const lateMeans = steps.map((step) => `${step} ${mean(of(step, late)).toFixed(0)}`).join(', ');
		return `${type}: ${calls.length} calls, p50/p99 ms: ${each}; ${late.length} over 5 s${late.length ? ` (means ms: ${lateMeans})` : ''}`;
	});
}

async function unfinished(userFolder) {
	const [row] = await queryDb(
		userFolder,
		"SELECT COUNT(*) AS n FROM execution_entity WHERE status IN ('new', 'running', 'waiting') OR stoppedAt IS NULL",
	);
	return row.n;
}

/** Event ids each successful execution of a trigger workflow emitted: Map event id -> executions. */
async function emittedEvents(userFolder, workflowId, nodeName) {
	const { parse } = n8nRequire('flatted');
	const emitted = new Map();
	let after = 0;
	for (;;) {
		const rows = await queryDb(
			userFolder,
			`SELECT e.id AS id, d.data AS data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id
			 WHERE e.workflowId = ? AND e.status = 'success' AND CAST(e.id AS INTEGER) > ? ORDER BY CAST(e.id AS INTEGER) LIMIT 500`,
			[workflowId, after],
		);
		if (rows.length === 0) return emitted;
		for (const row of rows) {
			after = Number(row.id);
			const items = parse(row.data)?.resultData?.runData?.[nodeName]?.[0]?.data?.main?.[0] ?? [];
			for (const { json } of items) {
				const id = json?.event_id ?? json?.id;
				if (typeof id === 'string' && id.startsWith('evt_'))
					emitted.set(id, (emitted.get(id) ?? 0) + 1);
			}
		}
	}
}

function lostAndTwice(events, emitted) {
	let lost = 0;
	for (const id of events) if (!emitted.has(id)) lost++;
	let twice = 0;
	for (const count of emitted.values()) if (count > 1) twice++;
	const unknown = [...emitted.keys()].filter((id) => !events.has(id)).length;
	return { lost, twice, unknown };
}

// ---------------------------------------------------------------------------------------------

export async function figureSoak({ log, row }) {
	const cores = os.availableParallelism();
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const control = sandbox.client.control;
	await control('PATCH', '/_sandbox/config', {
		rate_limit: { requests: LIMIT, window_seconds: 60 },
		allow_http_webhooks: true,
	});
	const folders = {
		ours: fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-soak-')),
		anchor: fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-soak-anchor-')),
	};
	const samplesFile =
		process.env.SOAK_SAMPLES ?? path.join(os.tmpdir(), `cm-soak-samples-${Date.now()}.jsonl`);
	const env = {
		N8N_METRICS: 'true',
		// docs/queue-mode.md "n8n 2.41 and bursts": the engine both n8n run with, n8n's default unless set.
		...(process.env.SOAK_EXPRESSION_ENGINE
			? { N8N_EXPRESSION_ENGINE: process.env.SOAK_EXPRESSION_ENGINE }
			: {}),
	};
	/** SOAK_WEBHOOK_TIMING=1: each n8n times its webhook calls' steps (bench/webhook-timing.cjs). */
	const timingFile = (side) => path.join(folders[side], 'webhook-timing.jsonl');
	const timingEnv = (side) =>
		process.env.SOAK_WEBHOOK_TIMING === '1'
			? {
					NODE_OPTIONS: `--require ${path.join(PROJECT_ROOT, 'bench', 'webhook-timing.cjs')}`,
					BENCH_WEBHOOK_TIMING_FILE: timingFile(side),
				}
			: {};
	const running = {};
	const stopAll = async () => {
		await Promise.all(Object.values(running).map((n8n) => n8n.stop()));
	};
	try {
		log(
			`S. Soak: ${MINUTES} min (warm-up ${WARMUP_MINUTES.toFixed(1)} min), ${RATE} webhook calls/s to each n8n, imports of ${IMPORT_ROWS} rows (${IMPORTS_PER_THIRD} a third), n8n ${N8N_VERSION}, ${cores} cores, load ${os
				.loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')}; samples in ${samplesFile}`,
		);
		// Both n8n set up side by side: the user folders, workflows published, then started.
		const setUp = async (side) => {
			const userFolder = folders[side];
			const opts = { userFolder, env: { ...env, ...timingEnv(side) } };
			// The anchor's n8n holds the credential too, unused: its workflows call the sandbox with their own key.
			await prepareBenchFolder(
				userFolder,
				sandbox,
				side === 'ours'
					? ourWorkflows()
					: anchorWorkflows({ sandboxUrl: sandbox.url, key: sandbox.keys.other_account }),
				Object.values(side === 'ours' ? OURS : ANCHOR),
				opts.env,
			);
			const n8n = await startN8n({ userFolder, env: opts.env });
			running[side] = n8n;
			await n8n.ready;
			return n8n;
		};
		const [oursN8n, anchorN8n] = await Promise.all([setUp('ours'), setUp('anchor')]);
		// The trigger's endpoint, registered at activation (n8n 2.41 activates after its ready line).
		const triggerUrl = `${oursN8n.baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
		const deadline = Date.now() + 90_000;
		let endpoint;
		while (!endpoint) {
			const listed = await sandbox.client.api(
				'GET',
				`/v1/webhooks?url=${encodeURIComponent(triggerUrl)}`,
			);
			endpoint = listed.data[0];
			if (!endpoint) {
				if (Date.now() > deadline) throw new Error('the trigger registered no endpoint in 90 s');
				await sleep(1000);
			}
		}
		// The anchor's Webhook node receives the events our trigger receives (account A's), so that both
		// answer the same bursts: an import's events come at the pace its calls went.
		const anchorHookUrl = `${anchorN8n.baseUrl}/webhook/soak-events`;
		const anchorEndpoint = await sandbox.client.api('POST', '/v1/webhooks', {
			url: anchorHookUrl,
			events: ['lead.created', 'lead.status_updated'],
		});
		// The poll trigger's activation poll is done before the load: its position is then the start.
		const pollDeadline = Date.now() + 90_000;
		while (
			!(await control('GET', '/_sandbox/requests')).some(
				(r) => r.path === '/v1/events' && r.key_role === 'full',
			)
		) {
			if (Date.now() > pollDeadline) throw new Error('the poll trigger did not poll in 90 s');
			await sleep(1000);
		}
		log(
			`  S: both n8n ready (ours ${oursN8n.baseUrl}, anchor ${anchorN8n.baseUrl}); trigger endpoint ${endpoint.id}, anchor endpoint ${anchorEndpoint.id}`,
		);

		// The load and the samples.
		const sides = [sideLoad('ours', oursN8n, 'c'), sideLoad('anchor', anchorN8n, 'a')];
		const samples = [];
		const origin = Date.now();
		const warmEnd = origin + WARMUP_MINUTES * 60_000;
		const loadEnd = origin + MINUTES * 60_000;
		const third = (loadEnd - warmEnd) / 3;
		/** The third after warm-up `at` falls in (0 to 2), -1 outside the load after warm-up. */
		const thirdOf = (at) =>
			at < warmEnd || at >= loadEnd ? -1 : Math.min(2, Math.floor((at - warmEnd) / third));
		const phase = (at) =>
			at < warmEnd ? 'warm-up' : at >= loadEnd ? 'drain' : `third ${thirdOf(at) + 1}`;
		// Imports evenly spread over each third, each Get Many half-way to the next import.
		const importEvery = third / IMPORTS_PER_THIRD;
		const imports = [];
		for (let k = 0; k < 3 * IMPORTS_PER_THIRD; k++) {
			imports.push({ at: warmEnd + (k + 0.25) * importEvery, what: 'import', k });
			imports.push({ at: warmEnd + (k + 0.75) * importEvery, what: 'getAll', k });
		}
		const samplesOut = fs.createWriteStream(samplesFile);
		let sampling = true;
		const sampler = (async () => {
			for (let next = Date.now(); sampling; next += SAMPLE_MS) {
				await sleep(Math.max(0, next - Date.now()));
				if (!sampling) break;
				const at = Date.now();
				const [o, a] = await Promise.all([sample(oursN8n), sample(anchorN8n)]);
				// Executions not ended yet: a backlog (n8n behind its load) shows here before anywhere else.
				[o.unfinished, a.unfinished] = await Promise.all([
					unfinished(folders.ours).catch(() => undefined),
					unfinished(folders.anchor).catch(() => undefined),
				]);
				const entry = {
					at,
					minute: (at - origin) / 60_000,
					phase: phase(at),
					load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
					ours: o,
					anchor: a,
				};
				samples.push(entry);
				samplesOut.write(`${JSON.stringify(entry)}\n`);
				log(
					`  S ${entry.minute.toFixed(1)} min (${entry.phase}): ours RSS ${o.rssMb?.toFixed(0)} MB, heap ${o.heapMb?.toFixed(0)}, timers ${o.timers}, handles ${o.handles}, lag p99 ${o.lagP99Ms?.toFixed(0)} ms, ${o.unfinished} executions unfinished | anchor RSS ${a.rssMb?.toFixed(0)}, heap ${a.heapMb?.toFixed(0)}, timers ${a.timers}, handles ${a.handles}, ${a.unfinished} unfinished | load ${entry.load.join(' ')}${o.error ? ` | ours: ${o.error}` : ''}`,
				);
			}
		})();

		let i = 0;
		for (;;) {
			const due = origin + (i * 1000) / RATE;
			if (due >= loadEnd) break;
			const wait = due - Date.now();
			if (wait > 0) await sleep(wait);
			const now = Date.now();
			while (imports.length && imports[0].at <= now) {
				const { what, k } = imports.shift();
				for (const side of sides) {
					if (what === 'import')
						side.call('import', HOOK_PATHS.import, { items: side.importRows(k, now) }, now);
					else side.call('getAll', 'soak-getall', { q: `${side.tag}imp${k}x` }, now);
				}
				log(`  S ${((now - origin) / 60_000).toFixed(1)} min: ${what} ${k + 1} started on both`);
			}
			for (const side of sides) side.tick(i, now, now);
			i++;
		}
		log(`  S: load ended after ${((Date.now() - origin) / 60_000).toFixed(1)} min; draining`);
		const lastUnderLoad = samples.filter((s) => s.at >= warmEnd);
		for (const side of sides) await Promise.all(side.pending);

		// Drained: every execution ended, the service's pending retries sent, the poll past the last event.
		const drainStarted = Date.now();
		for (;;) {
			const [o, a] = await Promise.all([unfinished(folders.ours), unfinished(folders.anchor)]);
			if ((o === 0 && a === 0) || Date.now() - drainStarted > 10 * 60_000) break;
			await sleep(2000);
		}
		await control('POST', '/_sandbox/deliveries/retry-now');
		// A poll that started after every event was recorded reads them all; then its execution ends.
		const drainedAt = Date.now();
		const polledSince = async () =>
			(await control('GET', '/_sandbox/requests')).some(
				(r) =>
					r.path === '/v1/events' &&
					r.key_role === 'full' &&
					r.status === 200 &&
					new Date(r.at).getTime() > drainedAt,
			);
		const pollDrainDeadline = Date.now() + 3 * 60_000;
		while (!(await polledSince()) && Date.now() < pollDrainDeadline) await sleep(2000);
		for (;;) {
			await sleep(5000);
			const [o, a] = await Promise.all([unfinished(folders.ours), unfinished(folders.anchor)]);
			if ((o === 0 && a === 0) || Date.now() - drainStarted > 12 * 60_000) break;
		}
		sampling = false;
		await sampler;
		const drained = {
			at: Date.now(),
			ours: await sample(oursN8n),
			anchor: await sample(anchorN8n),
		};
		samplesOut.write(`${JSON.stringify({ ...drained, phase: 'drained' })}\n`);
		samplesOut.end();
		const drainSeconds = (Date.now() - drainStarted) / 1000;

		// What the sandbox saw.
		const requests = await control('GET', '/_sandbox/requests');
		const deliveries = await control('GET', '/_sandbox/deliveries');
		const staticData = (
			await queryDb(folders.ours, 'SELECT staticData FROM workflow_entity WHERE id = ?', [
				OURS.trigger,
			])
		)[0]?.staticData;
		await stopAll();

		// ---- figures
		const mb10 = 10 * 60_000;
		const sideFigures = {};
		for (const side of ['ours', 'anchor']) {
			const under = lastUnderLoad.filter((s) => s.at < loadEnd && s[side].rssMb !== undefined);
			const rssSlope = slope(under.map((s) => ({ x: s.at / mb10, y: s[side].rssMb })));
			// n8n's main process alone (its own metric), without the task runner.
			const mainSlope = slope(
				under
					.filter((s) => s[side].processRssMb)
					.map((s) => ({ x: s.at / mb10, y: s[side].processRssMb })),
			);
			const heapSlope = slope(
				under.filter((s) => s[side].heapMb).map((s) => ({ x: s.at / mb10, y: s[side].heapMb })),
			);
			const first = under.slice(0, 3);
			const last = under.slice(-3);
			const pick = (list, key) => median(list.map((s) => s[side][key]).filter(Number.isFinite));
			sideFigures[side] = {
				rssSlope,
				heapSlope,
				mainSlope,
				rssStart: pick(first, 'rssMb'),
				rssEnd: pick(last, 'rssMb'),
				timersStart: pick(first, 'timers'),
				timersEnd: pick(last, 'timers'),
				handlesStart: pick(first, 'handles'),
				handlesEnd: pick(last, 'handles'),
				lagStart: pick(first, 'lagP99Ms'),
				lagEnd: pick(last, 'lagP99Ms'),
				resourcesStart: first[0]?.[side].resources ?? {},
				resourcesEnd: last.at(-1)?.[side].resources ?? {},
				thirds: [0, 1, 2].map((t) => {
					const inThird = under.filter((s) => thirdOf(s.at) === t);
					return {
						timers: pick(inThird, 'timers'),
						handles: pick(inThird, 'handles'),
						rss: pick(inThird, 'rssMb'),
					};
				}),
			};
		}
		const load = samples.map((s) => s.load[0]);
		log('');
		log(
			`S. Soak of ${MINUTES} min on n8n ${N8N_VERSION} (warm-up ${WARMUP_MINUTES.toFixed(1)} min, thirds of ${(third / 60_000).toFixed(1)} min), ${RATE} calls/s to each n8n, ${3 * IMPORTS_PER_THIRD} imports of ${IMPORT_ROWS} rows, ${cores} cores; load (1-min average) min ${Math.min(...load).toFixed(1)}, median ${median(load).toFixed(1)}, max ${Math.max(...load).toFixed(1)}; drained in ${drainSeconds.toFixed(0)} s`,
		);
		for (const side of ['ours', 'anchor']) {
			const f = sideFigures[side];
			const grew = Object.keys({ ...f.resourcesStart, ...f.resourcesEnd })
				.map((type) => `${type} ${f.resourcesStart[type] ?? 0} -> ${f.resourcesEnd[type] ?? 0}`)
				.join(', ');
			log(
				`  S ${side}: RSS ${f.rssStart.toFixed(0)} -> ${f.rssEnd.toFixed(0)} MB, slope ${f.rssSlope.toFixed(2)} MB/10 min (main process ${f.mainSlope.toFixed(2)}, heap used ${f.heapSlope.toFixed(2)}); timers ${f.timersStart} -> ${f.timersEnd} (thirds ${f.thirds.map((t) => t.timers).join(', ')}; drained ${drained[side].timers}); handles ${f.handlesStart} -> ${f.handlesEnd} (thirds ${f.thirds.map((t) => t.handles).join(', ')}; drained ${drained[side].handles}); drained RSS ${drained[side].rssMb?.toFixed(0)} MB, heap ${drained[side].heapMb?.toFixed(0)} MB; event-loop lag p99 ${f.lagStart.toFixed(0)} -> ${f.lagEnd.toFixed(0)} ms; active resources at start -> end: ${grew}; drained: ${JSON.stringify(drained[side].resources)}`,
			);
		}

		// Executions by workflow and status.
		const names = {};
		for (const w of [...ourWorkflows(), ...anchorWorkflows({ sandboxUrl: sandbox.url, key: 'x' })])
			names[w.id] = w.name;
		const byStatus = {
			ours: await executionsByStatus(folders.ours),
			anchor: await executionsByStatus(folders.anchor),
		};
		let oursFailed = 0;
		for (const side of ['ours', 'anchor'])
			for (const [id, statuses] of Object.entries(byStatus[side])) {
				const failed = Object.entries(statuses)
					.filter(([status]) => status !== 'success')
					.reduce((sum, [, n]) => sum + n, 0);
				if (side === 'ours') oursFailed += failed;
				log(`  S ${side} executions, ${names[id] ?? id}: ${JSON.stringify(statuses)}`);
			}
		// The user folders go at the end: what each failed execution of ours said is printed here.
		for (const line of await failedExecutions(folders.ours))
			log(`  S ours, not a success: ${line}`);
		if (process.env.SOAK_WEBHOOK_TIMING === '1')
			for (const side of ['ours', 'anchor'])
				for (const line of webhookSteps(timingFile(side), WARMUP_MINUTES))
					log(`  S ${side} webhook steps, ${line}`);

		// The triggers: every event of account A (delivered to the endpoint) once.
		const ourDeliveries = deliveries.filter((d) => d.endpoint_id === endpoint.id);
		const events = new Set(ourDeliveries.map((d) => d.event_id));
		const failedAttempts = ourDeliveries.filter((d) => !d.ok).length;
		const whyFailed = {};
		for (const d of ourDeliveries.filter((attempt) => !attempt.ok)) {
			const why = `${d.status_code ?? d.error ?? 'none'}${d.duration_ms >= 5000 ? ' late' : ''}`;
			whyFailed[why] = (whyFailed[why] ?? 0) + 1;
		}
		const neverAcknowledged = [...events].filter(
			(id) => !ourDeliveries.some((d) => d.event_id === id && d.ok),
		).length;
		const hook = lostAndTwice(
			events,
			await emittedEvents(folders.ours, OURS.trigger, TRIGGER_NODE),
		);
		const poll = lostAndTwice(events, await emittedEvents(folders.ours, OURS.poll, POLL_NODE));
		log(
			`  S triggers: ${events.size} events of the account; webhook trigger: ${ourDeliveries.length} attempts, ${failedAttempts} failed ${JSON.stringify(whyFailed)}, ${neverAcknowledged} events never acknowledged, lost ${hook.lost}, twice ${hook.twice}; poll trigger: lost ${poll.lost}, twice ${poll.twice}${hook.unknown + poll.unknown ? ` (emitted but not delivered: ${hook.unknown}, ${poll.unknown})` : ''}; the trigger's static data ${(Buffer.byteLength(typeof staticData === 'string' ? staticData : JSON.stringify(staticData ?? null)) / 1024).toFixed(1)} KB`,
		);

		// 429s and calls per key.
		const keyFigures = {};
		for (const [side, role] of [
			['ours', 'full'],
			['anchor', 'other_account'],
		]) {
			const calls = requests.filter((r) => r.key_role === role && r.path.startsWith('/v1/'));
			keyFigures[side] = {
				calls: calls.length,
				refused: calls.filter((r) => r.status === 429).length,
			};
			log(
				`  S ${side} key: ${calls.length} calls, ${keyFigures[side].refused} answered 429 (${((keyFigures[side].refused / Math.max(1, calls.length)) * 100).toFixed(2)} %), ${(calls.length / (MINUTES + drainSeconds / 60)).toFixed(0)} a minute on average`,
			);
		}

		// Answer times per third: the Webhook node's calls (each n8n) and the deliveries' (the sandbox's log).
		const anchorDeliveries = deliveries.filter((d) => d.endpoint_id === anchorEndpoint.id);
		const deliveryAt = (d) => new Date(d.at).getTime();
		const timeSeries = {
			'ours Webhook calls': sides[0].answers.map((a) => ({
				at: a.at,
				ms: a.status === 200 ? a.ms : Infinity,
			})),
			'anchor Webhook calls': sides[1].answers.map((a) => ({
				at: a.at,
				ms: a.status === 200 ? a.ms : Infinity,
			})),
			'ours trigger deliveries': ourDeliveries.map((d) => ({
				at: deliveryAt(d),
				ms: d.ok ? d.duration_ms : Infinity,
			})),
			'anchor Webhook node deliveries': anchorDeliveries.map((d) => ({
				at: deliveryAt(d),
				ms: d.ok ? d.duration_ms : Infinity,
			})),
		};
		const perThird = {};
		for (const [what, series] of Object.entries(timeSeries)) {
			perThird[what] = [0, 1, 2].map((t) => {
				const times = series.filter((s) => thirdOf(s.at) === t).map((s) => s.ms);
				return {
					n: times.length,
					failed: times.filter((v) => !Number.isFinite(v)).length,
					p50: percentile(times, 50),
					p99: percentile(times, 99),
				};
			});
			const notOk = series.filter((s) => !Number.isFinite(s.ms)).length;
			log(
				`  S ${what}: ${perThird[what].map((t, k) => `third ${k + 1} p50 ${ms(t.p50)}, p99 ${ms(t.p99)} (${t.n}, ${t.failed} not 2xx)`).join('; ')}; ${notOk} of ${series.length} not answered 2xx`,
			);
		}

		// ---- targets
		const o = sideFigures.ours;
		const a = sideFigures.anchor;
		// One-sided: fewer timers or handles at the end than at the start is no leak.
		const flat = (end, start) => end <= 1.1 * start;
		const short = MINUTES < 60 ? ` (a ${MINUTES}-min run)` : '';
		row(`S failed executions (ours)${short}`, String(oursFailed), '0', oursFailed === 0);
		row(
			`S webhook trigger lost, twice${short}`,
			`${hook.lost}, ${hook.twice} of ${events.size} events`,
			'0, 0',
			hook.lost === 0 && hook.twice === 0,
		);
		row(
			`S poll trigger lost, twice${short}`,
			`${poll.lost}, ${poll.twice} of ${events.size} events`,
			'0, 0',
			poll.lost === 0 && poll.twice === 0,
		);
		row(
			`S RSS slope after warm-up, MB/10 min${short}`,
			`${o.rssSlope.toFixed(2)} (anchor ${a.rssSlope.toFixed(2)})`,
			`≤ anchor + 2 (${(a.rssSlope + 2).toFixed(2)})`,
			o.rssSlope <= a.rssSlope + 2,
		);
		row(
			`S timers start -> end${short}`,
			`${o.timersStart} -> ${o.timersEnd} (drained ${drained.ours.timers}; anchor ${a.timersStart} -> ${a.timersEnd}, drained ${drained.anchor.timers})`,
			'≤ start + 10 %',
			flat(o.timersEnd, o.timersStart),
		);
		row(
			`S handles start -> end${short}`,
			`${o.handlesStart} -> ${o.handlesEnd} (drained ${drained.ours.handles}; anchor ${a.handlesStart} -> ${a.handlesEnd}, drained ${drained.anchor.handles})`,
			'≤ start + 10 %',
			flat(o.handlesEnd, o.handlesStart),
		);
		for (const what of ['ours Webhook calls', 'ours trigger deliveries']) {
			const [first, , last] = perThird[what];
			row(
				`S ${what}: p99 last third / first${short}`,
				`${Number.isFinite(last.p99 / first.p99) ? (last.p99 / first.p99).toFixed(2) : '-'} (${ms(first.p99)} -> ${ms(last.p99)}; p50 ${ms(first.p50)} -> ${ms(last.p50)}; not 2xx ${first.failed} -> ${last.failed})`,
				'≤ 1.2',
				// A third with no answer has no p99: the target is not met, rather than met by an infinity.
				Number.isFinite(first.p99) && Number.isFinite(last.p99) && last.p99 <= 1.2 * first.p99,
			);
		}
		row(
			`S 429s, ours / anchor${short}`,
			`${keyFigures.ours.refused} of ${keyFigures.ours.calls} / ${keyFigures.anchor.refused} of ${keyFigures.anchor.calls}`,
			'',
			undefined,
			`(${cores} cores, load median ${median(load).toFixed(1)})`,
		);
	} finally {
		await stopAll();
		await sandbox.close();
		for (const folder of Object.values(folders))
			fs.rmSync(folder, { recursive: true, force: true });
	}
}
