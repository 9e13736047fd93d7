// Figure I of `npm run bench` (alone: `npm run bench -- --only=I`): a form sent twice. A sign-up form posts
// to n8n's Webhook node, one execution per request; each upserts the request's e-mail. Real n8n 2.8.4
// (SQLite, executions stored), the sandbox at its 600 a minute, side by side:
//   - Webhook -> Content Marketing › Lead › Create or Update (this package),
//   - Webhook -> HTTP Request GET /v1/leads?q=<e-mail> -> IF no lead -> HTTP Request POST /v1/leads (what a
//     user builds without it; the package's credential).
// Cases (each variant after a sandbox reset): a) 100 e-mails, 10 a second, each POSTed twice at the same
// moment; b) the same three times; c) the key busy (its limit 40 per 10 s): 40 e-mails, 10 a second, each
// twice 500 ms apart. Printed per case and variant: leads per e-mail (e-mails with two or more, with
// none), executions by status. With BENCH_I_QUEUE=1 the node's variant also runs in queue mode (main,
// 2 workers, a webhook processor; PostgreSQL and Redis from scripts/e2e/queue/).
//   BENCH_I_CASES=a,b,c   the cases (default all)
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

const CASES = new Set((process.env.BENCH_I_CASES ?? 'a,b,c').split(','));
const NODE_TYPE = 'n8n-nodes-content-marketing.contentMarketing';
const IDS = { node: 'cmBenchFormNode', http: 'cmBenchFormHttp' };
const PATHS = { node: 'bench-form-node', http: 'bench-form-http' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const credentials = { contentMarketingApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

function hookNode(id, pathName) {
	return {
		id: `${id}-hook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: pathName, responseMode: 'onReceived', options: {} },
	};
}

function chain(id, name, nodes) {
	const all = nodes.map((node, i) => ({ ...node, position: [220 * i, 0] }));
	const connections = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { id, name, active: false, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

export function formWorkflows(sandboxUrl) {
	return [
		chain(IDS.node, 'Bench I: form, Lead › Create or Update', [
			hookNode(IDS.node, PATHS.node),
			{
				id: `${IDS.node}-upsert`,
				name: 'Create or Update',
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: {
					resource: 'lead',
					operation: 'createOrUpdate',
					email: '={{ $json.body.email }}',
					additionalFields: { status: 'contacted' },
				},
				credentials,
			},
		]),
		chain(IDS.http, 'Bench I: form, HTTP Request look-up, IF, POST', [
			hookNode(IDS.http, PATHS.http),
			{
				id: `${IDS.http}-get`,
				name: 'Look up',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'GET',
					url: `${sandboxUrl}/v1/leads`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'contentMarketingApi',
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'q', value: '={{ $json.body.email }}' }] },
					options: {},
				},
				credentials,
			},
			{
				id: `${IDS.http}-if`,
				name: 'No lead',
				type: 'n8n-nodes-base.if',
				typeVersion: 2,
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' },
						conditions: [
							{
								id: 'none',
								leftValue: '={{ $json.data.length }}',
								rightValue: 0,
								operator: { type: 'number', operation: 'equals' },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			{
				id: `${IDS.http}-post`,
				name: 'Create',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${sandboxUrl}/v1/leads`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'contentMarketingApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: "={{ JSON.stringify({ email: $('Webhook').item.json.body.email }) }}",
					options: {},
				},
				credentials,
			},
		]),
	];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function post(url, email) {
	const body = JSON.stringify({ email });
	return new Promise((resolve) => {
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
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
	});
}

/**
 * Sends each of `count` e-mails `times` times, `perSecond` e-mails a second, open loop: the copies of an
 * e-mail at the same moment (`apartMs` 0) or `apartMs` apart. Resolves with the webhook's statuses.
 */
async function formSubmissions(url, { tag, count, perSecond, times, apartMs }) {
	const pending = [];
	const origin = performance.now();
	const emails = Array.from({ length: count }, (_, i) => `${tag}${i}@form.example`);
	for (let i = 0; i < count; i++) {
		const wait = origin + (i * 1000) / perSecond - performance.now();
		if (wait > 0) await sleep(wait);
		for (let copy = 0; copy < times; copy++) {
			if (apartMs === 0) pending.push(post(url, emails[i]));
			else pending.push(sleep(copy * apartMs).then(() => post(url, emails[i])));
		}
	}
	return { emails, statuses: await Promise.all(pending) };
}

/** Leads per e-mail of `emails` in the account (all leads read, 100 a page). */
export async function leadsPerEmail(api, emails) {
	const counts = new Map(emails.map((email) => [email, 0]));
	let cursor;
	do {
		const page = await api('GET', `/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
		for (const lead of page.data) {
			const key = String(lead.email).trim().toLowerCase();
			if (counts.has(key)) counts.set(key, counts.get(key) + 1);
		}
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	const values = [...counts.values()];
	return {
		leads: values.reduce((sum, n) => sum + n, 0),
		twiceOrMore: values.filter((n) => n >= 2).length,
		none: values.filter((n) => n === 0).length,
	};
}

/** Executions by status once `expected` new ones (after `before`) have all ended, or 10 minutes passed. */
export async function executionsByStatus(list, before, expected) {
	const deadline = Date.now() + 10 * 60_000;
	for (;;) {
		const executions = (await list()).slice(before);
		const ended = executions.filter(
			(e) => e.stoppedAt && !['running', 'new', 'waiting'].includes(e.status),
		);
		if (
			(executions.length >= expected && ended.length === executions.length) ||
			Date.now() > deadline
		) {
			const byStatus = {};
			for (const e of executions) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
			return { count: executions.length, byStatus };
		}
		await sleep(1_000);
	}
}

export const FORM_CASES = [
	{
		id: 'a',
		label: '100 e-mails, each twice at once',
		count: 100,
		perSecond: 10,
		times: 2,
		apartMs: 0,
		limit: [600, 60],
	},
	{
		id: 'b',
		label: '100 e-mails, each three times at once',
		count: 100,
		perSecond: 10,
		times: 3,
		apartMs: 0,
		limit: [600, 60],
	},
	{
		id: 'c',
		label: '40 e-mails, each twice 500 ms apart, key busy (40 per 10 s)',
		count: 40,
		perSecond: 10,
		times: 2,
		apartMs: 500,
		limit: [40, 10],
	},
];

/** One case on one variant: reset, submit, wait for the executions; the figures. */
export async function runFormCase({ control, api, webhookUrl, listExecutionsOf, kase, tag }) {
	await control('POST', '/_sandbox/reset');
	await control('DELETE', '/_sandbox/faults');
	await control('PATCH', '/_sandbox/config', {
		rate_limit: { requests: kase.limit[0], window_seconds: kase.limit[1] },
	});
	const before = (await listExecutionsOf()).length;
	const { emails, statuses } = await formSubmissions(webhookUrl, { tag, ...kase });
	const executions = await executionsByStatus(listExecutionsOf, before, kase.count * kase.times);
	const requests = await control('GET', '/_sandbox/requests');
	await control('PATCH', '/_sandbox/config', { rate_limit: null });
	const leads = await leadsPerEmail(api, emails);
	return {
		...leads,
		executions,
		webhook200: statuses.filter((s) => s === 200).length,
		calls: requests.filter((r) => r.path.startsWith('/v1/')).length,
		refused: requests.filter((r) => r.status === 429).length,
	};
}

export function describeFormResult(kase, result) {
	const statuses = Object.entries(result.executions.byStatus)
		.map(([status, n]) => `${n} ${status}`)
		.join(', ');
	return `${result.twiceOrMore} of ${kase.count} e-mails with two or more leads (${result.leads} leads, ${result.none} e-mails with none); executions: ${statuses || 'none'}; ${result.calls} calls, ${result.refused} answered 429`;
}

export async function figureI({ log, row }) {
	const cores = os.availableParallelism();
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const control = sandbox.client.control;
	const api = sandbox.client.api;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-i-'));
	let n8n;
	try {
		await prepareBenchFolder(userFolder, sandbox, formWorkflows(sandbox.url), Object.values(IDS));
		n8n = await startN8n({ userFolder, env: {} });
		await n8n.ready;
		log(
			`I. A form sent twice: Webhook -> upsert by e-mail, real n8n (SQLite, regular mode), ${cores} cores`,
		);
		for (const kase of FORM_CASES.filter((k) => CASES.has(k.id))) {
			for (const variant of ['node', 'http']) {
				await idle(n8n.pid);
				const result = await runFormCase({
					control,
					api,
					webhookUrl: `${n8n.baseUrl}/webhook/${PATHS[variant]}`,
					listExecutionsOf: () => listExecutions(userFolder, IDS[variant]),
					kase,
					tag: `${kase.id}-${variant}-`,
				});
				const name = variant === 'node' ? 'Create or Update' : 'HTTP Request GET, IF, POST';
				log(`  I ${kase.id}) ${kase.label}, ${name}: ${describeFormResult(kase, result)}`);
				const ours = variant === 'node';
				row(
					`I ${kase.id} regular, ${name}: e-mails with 2+ leads`,
					`${result.twiceOrMore} of ${kase.count} (${result.leads} leads, ${result.none} none; executions ${JSON.stringify(result.executions.byStatus)})`,
					ours ? '0, 0 failed' : '',
					ours
						? result.twiceOrMore === 0 &&
								result.none === 0 &&
								result.executions.count === kase.count * kase.times &&
								(result.executions.byStatus.success ?? 0) === result.executions.count
						: undefined,
					`(${cores} cores)`,
				);
			}
		}
	} finally {
		await n8n?.stop();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	if (process.env.BENCH_I_QUEUE === '1') {
		const { figureIQueue } = await import('./figure-i-queue.mjs');
		await figureIQueue({ log, row });
	}
}
