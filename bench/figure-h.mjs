// Figure H of `npm run bench` (alone: `npm run bench -- --only=H`): one API key's limit (the sandbox's 600
// a minute, a rolling window) met by more work than it allows, in a real n8n (SQLite, executions stored).
//   a) a burst: 20 POSTs a second for 60 s (1,200 executions) to "Webhook (Respond Immediately) -> Lead ›
//      Create", then the same burst to "Webhook -> HTTP Request (POST /v1/leads with this package's
//      credential, Retry On Fail: 5 tries, 5 s apart)", one after the other on the same key, the sandbox
//      reset between them. Per variant: executions succeeded / failed (n8n's database), calls the service
//      saw and its 429 answers (GET /_sandbox/requests), when the last execution ended after the first POST.
//   b) an import: 2,000 new leads with a status (Lead › Create or Update: a create and a PATCH each) in one
//      execution: failed items, time against the limit's minimum for its calls.
//   BENCH_H=burst,import   the sub-figures (default both)
//   BENCH_H_SECONDS=60, BENCH_H_ROWS=2000   shorter runs to try the script (their targets do not apply)
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { listExecutions, startN8n } from '../scripts/e2e/n8n.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { idle } from './idle.mjs';
import { prepareBenchFolder } from './user-folder.mjs';
import { CREDENTIAL } from './workflow.mjs';

const SUBFIGURES = new Set((process.env.BENCH_H ?? 'burst,import').split(','));
const LIMIT = 600;
const RATE = 20;
const SECONDS = Number(process.env.BENCH_H_SECONDS ?? 60);
const ROWS = Number(process.env.BENCH_H_ROWS ?? 2000);
const NODE_TYPE = 'n8n-nodes-content-marketing.contentMarketing';
const IDS = { node: 'cmBenchBurstNode', http: 'cmBenchBurstHttp', import: 'cmBenchImport' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const credentials = { contentMarketingApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

function hookNode(id, pathName, responseMode) {
	return {
		id: `${id}-hook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path: pathName,
			responseMode,
			...(responseMode === 'lastNode' ? { responseData: 'allEntries' } : {}),
			options: {},
		},
	};
}

function chain(id, name, nodes) {
	const all = nodes.map((node, i) => ({ ...node, position: [220 * i, 0] }));
	const connections = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id,
		name,
		active: false,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

function workflows(sandboxUrl) {
	return [
		chain(IDS.node, 'Bench H: burst, Lead › Create', [
			hookNode(IDS.node, 'bench-burst-node', 'onReceived'),
			{
				id: `${IDS.node}-create`,
				name: 'Create Lead',
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: { resource: 'lead', operation: 'create', email: '={{ $json.body.email }}' },
				credentials,
			},
		]),
		chain(IDS.http, 'Bench H: burst, HTTP Request', [
			hookNode(IDS.http, 'bench-burst-http', 'onReceived'),
			{
				id: `${IDS.http}-create`,
				name: 'POST lead',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				retryOnFail: true,
				maxTries: 5,
				waitBetweenTries: 5000,
				parameters: {
					method: 'POST',
					url: `${sandboxUrl}/v1/leads`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'contentMarketingApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ email: $json.body.email }) }}',
					options: {},
				},
				credentials,
			},
		]),
		chain(IDS.import, 'Bench H: import', [
			hookNode(IDS.import, 'bench-import', 'lastNode'),
			{
				id: `${IDS.import}-split`,
				name: 'Split',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			{
				id: `${IDS.import}-upsert`,
				name: 'Create or Update',
				type: NODE_TYPE,
				typeVersion: 1,
				// A failed item shows as an error item (counted) instead of stopping the run.
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'lead',
					operation: 'createOrUpdate',
					email: '={{ $json.email }}',
					additionalFields: { status: '={{ $json.status }}' },
				},
				credentials,
			},
		]),
	];
}

/** `count` POSTs at `rate` a second, open loop (never waiting for answers); resolves with the answers' statuses. */
async function burst(url, rate, seconds, tag) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
	const count = rate * seconds;
	const pending = [];
	const origin = performance.now();
	for (let i = 0; i < count; i++) {
		const wait = origin + (i * 1000) / rate - performance.now();
		if (wait > 0) await sleep(wait);
		const body = JSON.stringify({ email: `${tag}${i}@burst.example` });
		pending.push(
			new Promise((resolve) => {
				const request = http.request(
					url,
					{
						method: 'POST',
						agent,
						headers: {
							'content-type': 'application/json',
							'content-length': Buffer.byteLength(body),
						},
						timeout: 30_000,
					},
					(response) => {
						response.resume();
						response.on('end', () => resolve(response.statusCode ?? 0));
					},
				);
				request.on('error', () => resolve(0));
				request.on('timeout', () => request.destroy());
				request.end(body);
			}),
		);
	}
	const statuses = await Promise.all(pending);
	agent.destroy();
	return statuses;
}

/** POSTs JSON and waits for the whole answer, however long (30 minutes at most). */
function postJson(url, body) {
	const data = JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
				timeout: 30 * 60_000,
			},
			(response) => {
				const chunks = [];
				response.on('data', (chunk) => chunks.push(chunk));
				response.on('end', () =>
					resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }),
				);
			},
		);
		request.on('error', reject);
		request.on('timeout', () => request.destroy(new Error('no answer in 30 minutes')));
		request.end(data);
	});
}

const atMs = (text) =>
	new Date(/Z$|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).getTime();

/** The workflow's executions once every one of `count` has ended (or 20 minutes have passed). */
async function executionsWhenDone(userFolder, workflowId, count) {
	const deadline = Date.now() + 20 * 60_000;
	for (;;) {
		const executions = await listExecutions(userFolder, workflowId);
		const ended = executions.filter(
			(e) => e.stoppedAt && !['running', 'new', 'waiting'].includes(e.status),
		);
		if ((executions.length >= count && ended.length === executions.length) || Date.now() > deadline)
			return executions;
		await sleep(2_000);
	}
}

export async function figureH({ log, row }) {
	const cores = os.availableParallelism();
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const control = sandbox.client.control;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-h-'));
	let n8n;
	try {
		await prepareBenchFolder(userFolder, sandbox, workflows(sandbox.url), Object.values(IDS));
		n8n = await startN8n({ userFolder, env: {} });
		await n8n.ready;
		log(
			`H. One key's limit (${LIMIT}/min, rolling window) met by more work, real n8n (SQLite), ${cores} cores`,
		);
		const reset = async () => {
			await control('POST', '/_sandbox/reset');
			await control('PATCH', '/_sandbox/config', {
				rate_limit: { requests: LIMIT, window_seconds: 60 },
			});
			await control('DELETE', '/_sandbox/faults');
		};

		if (SUBFIGURES.has('burst')) {
			const minimumMs = ((RATE * SECONDS) / LIMIT) * 60_000;
			for (const [variant, workflowId, hookPath] of [
				['Content Marketing Lead › Create', IDS.node, 'bench-burst-node'],
				['HTTP Request, Retry On Fail 5 × 5 s', IDS.http, 'bench-burst-http'],
			]) {
				await reset();
				await idle(n8n.pid);
				const started = Date.now();
				const answers = await burst(
					`${n8n.baseUrl}/webhook/${hookPath}`,
					RATE,
					SECONDS,
					`${workflowId}-`,
				);
				const executions = await executionsWhenDone(userFolder, workflowId, RATE * SECONDS);
				const requests = (await control('GET', '/_sandbox/requests')).filter((r) =>
					r.path.startsWith('/v1/'),
				);
				const succeeded = executions.filter((e) => e.status === 'success').length;
				const failed = executions.length - succeeded;
				const refused = requests.filter((r) => r.status === 429).length;
				const lastEnd = Math.max(...executions.map((e) => atMs(e.stoppedAt ?? e.startedAt)));
				const lastSeconds = (lastEnd - started) / 1000;
				const share = refused / Math.max(1, requests.length);
				log(
					`  H burst, ${variant}: ${executions.length} executions (${answers.filter((s) => s === 200).length} webhook answers 200), ${succeeded} succeeded, ${failed} failed; ${requests.length} calls, ${refused} answered 429 (${(share * 100).toFixed(1)} %); last execution ended ${lastSeconds.toFixed(1)} s after the first POST (the limit's minimum ${minimumMs / 1000} s)`,
				);
				const ours = workflowId === IDS.node;
				row(
					`H burst ${variant}: succeeded`,
					`${succeeded} of ${RATE * SECONDS} (${failed} failed)`,
					ours ? `${RATE * SECONDS} of ${RATE * SECONDS}` : '',
					ours ? succeeded === RATE * SECONDS : undefined,
				);
				row(
					`H burst ${variant}: last ended / 120 s`,
					`${(lastSeconds / (minimumMs / 1000)).toFixed(2)} (${lastSeconds.toFixed(1)} s)`,
					ours ? '≤ 1.15' : '',
					ours ? lastSeconds * 1000 <= 1.15 * minimumMs : undefined,
				);
				row(
					`H burst ${variant}: 429 share of calls`,
					`${(share * 100).toFixed(1)} % (${refused} of ${requests.length})`,
					ours ? '≤ 5 %' : '',
					ours ? share <= 0.05 : undefined,
					`(${cores} cores)`,
				);
			}
		}

		if (SUBFIGURES.has('import')) {
			await reset();
			await idle(n8n.pid);
			const rows = Array.from({ length: ROWS }, (_, i) => ({
				email: `h.import${i}@import.example`,
				status: 'contacted',
			}));
			const started = performance.now();
			// Not fetch: its 300 s wait for the answer's headers is shorter than the import.
			const { status, text } = await postJson(`${n8n.baseUrl}/webhook/bench-import`, {
				items: rows,
			});
			const ms = performance.now() - started;
			if (status !== 200) throw new Error(`bench-import: HTTP ${status} ${text.slice(0, 300)}`);
			const items = JSON.parse(text);
			const errors = items.filter((item) => item.error !== undefined).length;
			const requests = (await control('GET', '/_sandbox/requests')).filter((r) =>
				r.path.startsWith('/v1/'),
			);
			const refused = requests.filter((r) => r.status === 429).length;
			const counted = requests.length - refused;
			await control('PATCH', '/_sandbox/config', { rate_limit: null });
			const minimumMs = ((2 * rows.length) / LIMIT) * 60_000;
			const countedMinimumMs = (counted / LIMIT) * 60_000;
			log(
				`  H import of 2,000 new leads with a status: ${(ms / 1000).toFixed(1)} s, ${items.length} items, ${errors} failed; ${requests.length} calls (${counted} counted by the limit, ${refused} answered 429); the limit's minimum for 4,000 calls ${minimumMs / 1000} s, for the ${counted} counted ${(countedMinimumMs / 1000).toFixed(1)} s`,
			);
			row(
				'H import 2,000: failed items',
				String(errors),
				'0',
				errors === 0 && items.length === ROWS,
			);
			row(
				'H import 2,000: time / minimum (4,000 calls at 600/min)',
				`${(ms / minimumMs).toFixed(3)} (${(ms / 1000).toFixed(1)} s)`,
				'≤ 1.15',
				ms <= 1.15 * minimumMs,
				`(${refused} answered 429; ${cores} cores)`,
			);
		}
	} finally {
		await n8n?.stop();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}
