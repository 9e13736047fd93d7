// `npm run bench`: the figures of docs/performance.md, measured in one run against the
// sandbox (in this process) and a real n8n (the one the e2e check installs). Each figure is a ratio of
// runs made in this run, rounds alternating the order of the variants. Prints the core count.
//   BENCH_ROUNDS=2 (rounds of A's raw loop; C and D run at least 5)   BENCH_ONLY=A,B,C,D,E,F,G,H,I,P,S or -- --only=G (a subset; E, F, G, H, I, P, S: see bench/figure-e.mjs, figure-f.mjs, figure-g.mjs, figure-h.mjs, figure-i.mjs, figure-paces.mjs, figure-soak.mjs)
//   BENCH_A_ROUNDS=3, BENCH_LATENCIES=0,25 (of A: node and HTTP Request rounds, added sandbox latencies)
//   BENCH_PROFILE=<dir>: n8n is profiled; one profile per timed run of A (<dir>/A-<latency>-<variant>-round<n>.cpuprofile),
//   the rest in <dir>/end.cpuprofile (summarise with bench/profile-summary.mjs)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { isInstalled, N8N_VERSION, PROJECT_ROOT } from '../scripts/e2e/install-n8n.mjs';
import { importJson, prepareUserFolder, runN8nOk, startN8n } from '../scripts/e2e/n8n.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { figureE } from './figure-e.mjs';
import { figureF, withUpsertChains } from './figure-f.mjs';
import { figureG, withSyncChain } from './figure-g.mjs';
import { figureH } from './figure-h.mjs';
import { figurePaces } from './figure-paces.mjs';
import { figureI } from './figure-i.mjs';
import { figureSoak } from './figure-soak.mjs';
import { cpuMs, idle } from './idle.mjs';
import { benchWorkflow, CREDENTIAL, WORKFLOW_ID } from './workflow.mjs';
import { ensureNode24 } from '../scripts/node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Rounds of the node and HTTP Request variants of C and D: their runs take 0.15 to 11 s, so one hiccup
 * of n8n moves a median of 2 by a tenth. The raw loop of A (55 s at 25 ms) runs BENCH_ROUNDS times. */
const MIN_ROUNDS = 5;
const onlyArgument = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const ONLY = new Set(
	(onlyArgument ?? process.env.BENCH_ONLY ?? 'A,B,C,D,E,F,G,H,I,P,S').toUpperCase().split(','),
);
const log = (...parts) => console.log(...parts);

/** Every figure of the run, printed as a table at the end. */
const table = [];
const row = (figure, measured, target, met, note = '') => {
	table.push({
		figure,
		measured,
		target,
		met: met === undefined ? '' : met ? 'met' : 'NOT met',
		note,
	});
	log(
		`  ${figure}: ${measured}${target ? ` (target ${target}: ${met ? 'met' : 'NOT met'})` : ''}${note ? ` ${note}` : ''}`,
	);
};
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

function build() {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'build.mjs')], {
			cwd: PROJECT_ROOT,
			stdio: 'inherit',
		});
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`build exited with ${code}`)),
		);
	});
}

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid, field = 'VmRSS') {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Starts a new peak (VmHWM) for the process: Linux resets the high-water mark to the current resident set
 * when "5" is written to clear_refs. Then the peak of a 0.15 s run is exact instead of sampled.
 */
function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

async function main() {
	// Figure P runs no n8n.
	if (!isInstalled() && [...ONLY].some((figure) => figure !== 'P'))
		throw new Error(`n8n ${N8N_VERSION} is not installed: run node scripts/e2e/install-n8n.mjs`);
	const cores = os.availableParallelism();
	log(
		`bench: n8n ${N8N_VERSION}, Node ${process.version}, ${cores} cores (os.availableParallelism()), load ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}, ${new Date().toISOString()}`,
	);
	await build();
	if (['A', 'B', 'C', 'D', 'F', 'G'].some((figure) => ONLY.has(figure))) await figuresAtoD();
	if (ONLY.has('E')) await figureE({ log, row });
	if (ONLY.has('H')) await figureH({ log, row });
	if (ONLY.has('P')) await figurePaces({ log, row });
	if (ONLY.has('I')) await figureI({ log, row });
	if (ONLY.has('S')) await figureSoak({ log, row });
	log('');
	log(`| figure | measured | target | | note |`);
	log(`|---|---|---|---|---|`);
	for (const r of table)
		log(`| ${r.figure} | ${r.measured} | ${r.target} | ${r.met} | ${r.note} |`);
	log(
		`cores: ${cores}; load at end: ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}; rounds: ${ROUNDS}`,
	);
}

/** Figures A to D, F and G: one n8n with the bench workflow (bench/workflow.mjs, the chains of F and G added). */
async function figuresAtoD() {
	// The option's default as built (main built dist/ before this).
	const { DEFAULT_MAX_PARALLEL } = createRequire(import.meta.url)(
		path.join(PROJECT_ROOT, 'dist', 'nodes', 'ContentMarketing', 'transport', 'concurrency.js'),
	);
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const { client, keys } = sandbox;
	const control = client.control;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-'));
	let n8n;
	let probeServer;
	try {
		prepareUserFolder(userFolder, { clean: true });
		// Executions are not stored: the run's time is the nodes', not the database's (same for every variant).
		const env = {
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'none',
			N8N_PAYLOAD_SIZE_MAX: '64',
		};
		const preload = (file) => `--require ${path.join(PROJECT_ROOT, 'bench', file)}`;
		const memoryFile = path.join(userFolder, 'memory-probe.jsonl');
		const probeEnv = {
			NODE_OPTIONS: [
				preload('memory-probe.cjs'),
				...(process.env.BENCH_PROFILE ? [preload('cpu-profile-preload.cjs')] : []),
			].join(' '),
			BENCH_MEMORY_FILE: memoryFile,
			...(process.env.BENCH_PROFILE
				? { BENCH_PROFILE_DIR: path.resolve(process.env.BENCH_PROFILE) }
				: {}),
		};
		/** One mark of bench/memory-probe.cjs in n8n: its line, once written. */
		const mark = async () => {
			const count = () =>
				fs.existsSync(memoryFile)
					? fs.readFileSync(memoryFile, 'utf8').split('\n').filter(Boolean).length
					: 0;
			const before = count();
			process.kill(n8n.pid, 'SIGWINCH');
			const deadline = Date.now() + 30_000;
			while (count() === before) {
				if (Date.now() > deadline) throw new Error('the memory probe in n8n did not answer');
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
			return JSON.parse(fs.readFileSync(memoryFile, 'utf8').trim().split('\n').at(-1));
		};
		/**
		 * A settled heap: n8n lets go of a finished run's data a moment after its webhook answered (under
		 * 0.5 s here), so marks are taken until two in a row agree within 0.5 MB.
		 */
		const settle = async () => {
			let last = await mark();
			for (let attempt = 0; attempt < 20; attempt++) {
				await new Promise((resolve) => setTimeout(resolve, 250));
				const next = await mark();
				if (Math.abs(next.live - last.live) < 512 * 1024) return next;
				last = next;
			}
			throw new Error("n8n's memory did not settle in 5 s");
		};
		// The workflow's probe step (figure D) calls this while the run holds its output.
		let probed;
		probeServer = http.createServer((request, response) => {
			void mark().then(
				(line) => {
					probed = line;
					response.writeHead(200, { 'content-type': 'application/json' }).end('{"probed":true}');
				},
				(error) => response.writeHead(500).end(String(error)),
			);
			request.resume();
		});
		await new Promise((resolve) => probeServer.listen(0, '127.0.0.1', resolve));
		const probeUrl = `http://127.0.0.1:${probeServer.address().port}/probe`;
		/** Writes n8n's profile of everything since the last call (see cpu-profile-preload.cjs). */
		const dumpProfile = async (label) => {
			if (!process.env.BENCH_PROFILE) return;
			const dir = path.resolve(process.env.BENCH_PROFILE);
			const written = () =>
				fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('n8n-')) : [];
			const before = new Set(written());
			process.kill(n8n.pid, 'SIGUSR2');
			const deadline = Date.now() + 30_000;
			let file;
			while ((file = written().find((f) => !before.has(f))) === undefined) {
				if (Date.now() > deadline) throw new Error('n8n wrote no profile in 30 s');
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			// The file is complete once its size stops changing.
			let size = -1;
			while (size !== fs.statSync(path.join(dir, file)).size) {
				size = fs.statSync(path.join(dir, file)).size;
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
			fs.renameSync(path.join(dir, file), path.join(dir, `${label}.cpuprofile`));
			if (label === 'between-runs') fs.rmSync(path.join(dir, `${label}.cpuprofile`));
		};
		const opts = { userFolder, env };
		await importJson(
			'import:credentials',
			[{ ...CREDENTIAL, data: { apiKey: keys.full, baseUrl: sandbox.url } }],
			opts,
		);
		await importJson(
			'import:workflow',
			[
				withSyncChain(
					withUpsertChains(
						benchWorkflow({
							sandboxUrl: sandbox.url,
							key: keys.full,
							otherKey: keys.other_account,
							probeUrl,
						}),
					),
				),
			],
			opts,
		);
		await runN8nOk(['publish:workflow', `--id=${WORKFLOW_ID}`], opts);
		n8n = await startN8n({ userFolder, env: { ...env, ...probeEnv } });
		await n8n.ready;

		const hook = async (name, items) => {
			const started = performance.now();
			const response = await fetch(`${n8n.baseUrl}/webhook/bench-${name}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ items }),
			});
			const text = await response.text();
			const ms = performance.now() - started;
			if (!response.ok)
				throw new Error(`bench-${name}: HTTP ${response.status} ${text.slice(0, 300)}`);
			return { ms, body: text ? JSON.parse(text) : undefined };
		};
		const reset = async (settings = {}) => {
			await control('POST', '/_sandbox/reset');
			await control('PATCH', '/_sandbox/config', { rate_limit: null, ...settings });
			await control('DELETE', '/_sandbox/faults');
		};
		const latency = async (ms) => {
			if (ms > 0)
				await control('PUT', '/_sandbox/faults', {
					latency_ms: ms,
					methods: ['GET', 'POST', 'PATCH'],
				});
			else await control('DELETE', '/_sandbox/faults');
		};
		const emails = (count, tag) =>
			Array.from({ length: count }, (_, i) => ({ email: `${tag}${i}@bench.example` }));
		/** Every lead of the account, read page by page through the API. */
		const allLeads = async () => {
			const leads = [];
			let cursor = null;
			do {
				const page = await client.api(
					'GET',
					`/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				);
				leads.push(...page.data);
				cursor = page.next_cursor;
			} while (cursor);
			return leads;
		};
		const leadCount = async () => (await allLeads()).length;
		const rawLoop = async (items) => {
			const started = performance.now();
			for (const item of items) {
				const response = await fetch(`${sandbox.url}/v1/leads`, {
					method: 'POST',
					headers: { authorization: `Bearer ${keys.full}`, 'content-type': 'application/json' },
					body: JSON.stringify(item),
				});
				if (response.status !== 201) throw new Error(`raw loop: HTTP ${response.status}`);
				await response.arrayBuffer();
			}
			return { ms: performance.now() - started };
		};
		// Warm-up: n8n loads the nodes and compiles on the first runs.
		await reset();
		await hook('node-create', emails(50, 'warm'));
		await hook('http-create', emails(50, 'warmh'));
		await dumpProfile('warm-up');

		if (ONLY.has('A')) {
			const N = 2000;
			const rounds = Number(process.env.BENCH_A_ROUNDS ?? 3);
			// Each node as a user leaves it: ours at Max Parallel Requests' default (adaptive), the HTTP
			// Request node without Batching (n8n starts every item's request at once).
			log(
				`A. ${N} Lead › Create, ${rounds} rounds per latency, ${os.availableParallelism()} cores: our node with its defaults (Max Parallel Requests ${DEFAULT_MAX_PARALLEL}, adaptive from 2), HTTP Request node 4.2 with its defaults (no Batching: all ${N} requests started at once), raw loop one request at a time (first ${Math.min(ROUNDS, rounds)} rounds)`,
			);
			for (const lat of (process.env.BENCH_LATENCIES ?? '0,25').split(',').map(Number)) {
				const times = { node: [], http: [], raw: [] };
				const cpu = { node: [], http: [], raw: [] };
				const ratios = [];
				for (let round = 0; round < rounds; round++) {
					const order = round % 2 === 0 ? ['node', 'http', 'raw'] : ['raw', 'http', 'node'];
					const perItem = {};
					const sandboxCpuPerItem = {};
					for (const variant of order) {
						if (variant === 'raw' && round >= ROUNDS) continue;
						await reset();
						await latency(lat);
						const items = emails(N, `${variant}${round}x`);
						await idle(n8n.pid);
						// A profile holds one run and the work n8n does after its webhook answered, nothing else.
						if (variant !== 'raw') await dumpProfile(`between-runs`);
						const cpuBefore = cpuMs(n8n.pid);
						const sandboxBefore = process.cpuUsage();
						const { ms } =
							variant === 'raw'
								? await rawLoop(items)
								: await hook(variant === 'node' ? 'node-create' : 'http-create', items);
						// n8n's CPU time of the run (until its webhook answered): what the node costs, less
						// moved by other processes than the run's duration.
						cpu[variant].push((cpuMs(n8n.pid) - cpuBefore) / N);
						const sandboxCpu = process.cpuUsage(sandboxBefore);
						sandboxCpuPerItem[variant] = (sandboxCpu.user + sandboxCpu.system) / 1000 / N;
						await latency(0);
						const count = await leadCount();
						if (count !== N)
							throw new Error(`A ${variant} at ${lat} ms created ${count} leads, not ${N}`);
						perItem[variant] = ms / N;
						times[variant].push(ms / N);
						if (variant !== 'raw') {
							await idle(n8n.pid);
							await dumpProfile(`A-${lat}ms-${variant}-round${round + 1}`);
						}
					}
					ratios.push(perItem.node / perItem.http);
					log(
						`  A round ${round + 1} at ${lat} ms: node ${perItem.node.toFixed(3)} ms/item, HTTP Request ${perItem.http.toFixed(3)}, ratio ${(perItem.node / perItem.http).toFixed(2)}${perItem.raw === undefined ? '' : `, raw loop ${perItem.raw.toFixed(3)}`}; n8n CPU node ${cpu.node.at(-1).toFixed(3)} ms/item, HTTP Request ${cpu.http.at(-1).toFixed(3)}; sandbox CPU node ${sandboxCpuPerItem.node.toFixed(3)}, HTTP Request ${sandboxCpuPerItem.http.toFixed(3)}; load ${os.loadavg()[0].toFixed(1)}`,
					);
				}
				const [node, http] = [median(times.node), median(times.http)];
				const raw = times.raw.length > 0 ? median(times.raw) : undefined;
				log(
					`A. ${N} Lead › Create at ${lat} ms: node ${node.toFixed(3)} ms/item, HTTP Request ${http.toFixed(3)}${raw === undefined ? '' : `, raw loop ${raw.toFixed(3)}`} (medians of ${times.node.length}); ratio node/HTTP Request per round ${ratios.map((r) => r.toFixed(2)).join(', ')}, median ${median(ratios).toFixed(2)}; n8n CPU node ${median(cpu.node).toFixed(3)} ms/item, HTTP Request ${median(cpu.http).toFixed(3)}; ${os.availableParallelism()} cores`,
				);
				const target = lat === 0 ? 1.0 : 0.9;
				row(
					`A ${lat} ms node/HTTP (median of ${ratios.length} rounds)`,
					median(ratios).toFixed(2),
					`≤ ${target}`,
					median(ratios) <= target,
					raw === undefined ? '' : `(node/raw ${(node / raw).toFixed(2)})`,
				);
			}
		}

		if (ONLY.has('B')) {
			const N = 6000;
			await reset({ rate_limit: { requests: 3000, window_seconds: 60 } });
			await control('PUT', '/_sandbox/faults', { latency_ms: 50, methods: ['POST'] });
			await control('DELETE', '/_sandbox/requests');
			await idle(n8n.pid);
			const { ms, body } = await hook('node-create', emails(N, 'b'));
			const requests = await control('GET', '/_sandbox/requests');
			const posts = requests.filter((r) => r.method === 'POST');
			const refused = posts.filter((r) => r.status === 429).length;
			const failed = body.filter((item) => item.error !== undefined).length;
			await control('DELETE', '/_sandbox/faults');
			// Counted without the limit (the counting reads would be refused too).
			await control('PATCH', '/_sandbox/config', { rate_limit: null });
			const created = await leadCount();
			await control('PATCH', '/_sandbox/config', {
				rate_limit: { requests: 3000, window_seconds: 60 },
			});
			const minimum = ((N - 3000) / 50) * 1000;
			log(
				`B. ${N} Lead › Create, limit 3,000/60 s, 50 ms latency: ${(ms / 1000).toFixed(1)} s (minimum ${minimum / 1000} s), ${created} leads, ${failed} failed items, ${refused} of ${posts.length} requests answered 429`,
			);
			row('B time / minimum', (ms / minimum).toFixed(3), '≤ 1.15', ms / minimum <= 1.15);
			row('B failed items', String(failed), '0', failed === 0);
			row('B duplicated leads', String(created - N), '0', created === N);
			row(
				'B 429 share',
				`${((refused / posts.length) * 100).toFixed(2)} %`,
				'≤ 3 %',
				refused / posts.length <= 0.03,
			);
			// The HTTP Request node under the same limit (its own key, so a fresh window), On Error: Continue.
			await control('PUT', '/_sandbox/faults', { latency_ms: 50, methods: ['POST'] });
			const http = await hook('http-create-limited', emails(N, 'bh'));
			await control('DELETE', '/_sandbox/faults');
			const httpFailed = http.body.filter((item) => item.error !== undefined).length;
			log(
				`B. HTTP Request node, same limit: ${(http.ms / 1000).toFixed(1)} s, ${httpFailed} of ${N} items failed`,
			);
			row('B HTTP Request failed items', String(httpFailed), '', undefined, '(for comparison)');
		}

		if (ONLY.has('C')) {
			await reset();
			await control('POST', '/_sandbox/seed', { seed: 5, leads: 10000 });
			const ids = (await allLeads()).map((lead) => ({ id: lead.id }));
			await latency(25);
			for (const [what, items, ours, theirs] of [
				['Update 2,000 leads', ids.slice(0, 2000), 'node-update', 'http-update'],
				['Sync Many to CRM 10,000 leads', ids, 'node-sync', 'http-sync'],
			]) {
				const times = { node: [], http: [] };
				for (let round = 0; round < Math.max(ROUNDS, MIN_ROUNDS); round++) {
					for (const variant of round % 2 === 0 ? ['node', 'http'] : ['http', 'node']) {
						await idle(n8n.pid);
						const { ms, body } = await hook(variant === 'node' ? ours : theirs, items);
						if (body.length !== items.length || body.some((item) => item.error !== undefined)) {
							throw new Error(
								`C ${what} ${variant}: ${body.length} items, errors: ${JSON.stringify(body.find((i) => i.error))}`,
							);
						}
						times[variant].push(ms);
					}
				}
				const [node, http] = [median(times.node), median(times.http)];
				log(
					`C. ${what} at 25 ms: node ${(node / 1000).toFixed(2)} s, HTTP Request ${(http / 1000).toFixed(2)} s${what.startsWith('Sync') ? ' (HTTP Request: one /sync-crm call per lead)' : ''} (medians of ${times.node.length})`,
				);
				row(`C ${what} node/HTTP`, (node / http).toFixed(2), '≤ 1.0', node / http <= 1.0);
			}
			await latency(0);
		}

		if (ONLY.has('D')) {
			const SIZES = [5000, 50000];
			const figures = {};
			for (const variant of ['node', 'http'])
				for (const size of SIZES)
					figures[`${variant} ${size}`] = { ms: [], held: [], inUse: [], rss: [] };
			const mb = (bytes) => bytes / 1024 / 1024;
			// The 5,000-lead run takes about 0.15 s, so one hiccup moves the time ratio by a whole unit: every
			// figure is the median of at least 5 rounds, variants and sizes alternating their order.
			for (let round = 0; round < Math.max(ROUNDS, MIN_ROUNDS); round++) {
				for (const variant of round % 2 === 0 ? ['node', 'http'] : ['http', 'node']) {
					for (const size of round % 2 === 0 ? SIZES : [...SIZES].reverse()) {
						await reset();
						await control('POST', '/_sandbox/seed', { seed: 9, leads: size });
						const figure = figures[`${variant} ${size}`];
						await idle(n8n.pid);
						const timed = await hook(`${variant}-getall`, [{}]);
						if (timed.body?.id === undefined)
							throw new Error(`D ${variant} ${size}: no lead in ${JSON.stringify(timed.body)}`);
						figure.ms.push(timed.ms);
						// Memory: the same run once more, from a settled heap (full collections in n8n), paused
						// by its probe step while it holds every lead; the resident set's peak read exactly
						// (VmHWM reset when the run starts).
						const settled = await settle();
						const exactPeak = resetPeak(n8n.pid);
						probed = undefined;
						await hook(`${variant}-getall-memory`, [{}]);
						if (probed === undefined)
							throw new Error(`D ${variant} ${size}: the probe step did not run`);
						figure.held.push(mb(probed.live - settled.live));
						figure.inUse.push(mb(probed.inUsePeak - settled.live));
						if (exactPeak) figure.rss.push(rssMb(n8n.pid, 'VmHWM') - mb(settled.rss));
					}
				}
			}
			const at = (variant, size, key) => median(figures[`${variant} ${size}`][key]);
			const ratio = (variant, key) =>
				at(variant, 50000, key) / Math.max(at(variant, 5000, key), 0.1);
			for (const variant of ['node', 'http']) {
				const what =
					variant === 'node' ? 'this node' : 'HTTP Request node (pagination) + Split Out';
				log(
					`D. Return All, ${what}: 5,000 leads ${(at(variant, 5000, 'ms') / 1000).toFixed(2)} s, held +${at(variant, 5000, 'held').toFixed(1)} MB, peak in use +${at(variant, 5000, 'inUse').toFixed(1)} MB, resident +${at(variant, 5000, 'rss').toFixed(1)} MB; 50,000 leads ${(at(variant, 50000, 'ms') / 1000).toFixed(2)} s, held +${at(variant, 50000, 'held').toFixed(1)} MB, peak in use +${at(variant, 50000, 'inUse').toFixed(1)} MB, resident +${at(variant, 50000, 'rss').toFixed(1)} MB (medians of ${figures[`${variant} 5000`].ms.length})`,
				);
			}
			row('D time 50k/5k', ratio('node', 'ms').toFixed(2), '≤ 11', ratio('node', 'ms') <= 11);
			// What the run holds (n8n's heap and buffers after a full collection, all leads out): linear if
			// nothing is kept twice.
			row(
				'D memory held 50k/5k',
				ratio('node', 'held').toFixed(2),
				'≤ 11',
				ratio('node', 'held') <= 11,
			);
			// The most n8n had in use during the run, garbage not yet collected included.
			row(
				'D peak memory in use 50k/5k',
				ratio('node', 'inUse').toFixed(2),
				'≤ 11',
				ratio('node', 'inUse') <= 11,
			);
			// The resident set also counts heap V8 reserved before the run: a 5,000-lead run fits in it, so
			// its growth is a few MB and the ratio says more about V8's heap sizing than about the run.
			row(
				'D resident set growth 50k/5k',
				ratio('node', 'rss').toFixed(2),
				'',
				undefined,
				`(for reference; HTTP Request node ${ratio('http', 'rss').toFixed(2)})`,
			);
			for (const [key, label] of [
				['ms', 'time'],
				['held', 'memory held'],
				['inUse', 'peak memory in use'],
			]) {
				row(
					`D 50k ${label}: node/HTTP Request`,
					(at('node', 50000, key) / at('http', 50000, key)).toFixed(2),
					'',
					undefined,
					`(HTTP Request 50k/5k ${ratio('http', key).toFixed(2)})`,
				);
			}
		}

		if (ONLY.has('F'))
			await figureF({
				log,
				row,
				median,
				hook,
				reset,
				latency,
				allLeads,
				control,
				pid: n8n.pid,
				maxParallel: DEFAULT_MAX_PARALLEL,
			});

		if (ONLY.has('G'))
			await figureG({
				log,
				row,
				hook,
				control,
				allLeads,
				pid: n8n.pid,
				sandboxUrl: sandbox.url,
				apiKey: keys.full,
			});

		await dumpProfile('end');
	} finally {
		await n8n?.stop();
		probeServer?.close();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
