// `npm run bench`: the figures of README "Rate limits and retries", measured in one run against the
// sandbox (in this process) and a real n8n (the one the e2e check installs). Each figure is a ratio of
// runs made in this run, rounds alternating the order of the variants. Prints the core count.
//   BENCH_ROUNDS=2 (rounds of A, C, D)   BENCH_ONLY=A,B,C,D (a subset)   BENCH_LATENCIES=0,25 (of A)
//   BENCH_PROFILE=<dir>: n8n runs with --cpu-prof, its profile is written to <dir> when it stops
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { isInstalled, N8N_VERSION, PROJECT_ROOT } from '../scripts/e2e/install-n8n.mjs';
import { importJson, prepareUserFolder, runN8nOk, startN8n } from '../scripts/e2e/n8n.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { benchWorkflow, CREDENTIAL, WORKFLOW_ID } from './workflow.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const D_ROUNDS = 5;
const ONLY = new Set((process.env.BENCH_ONLY ?? 'A,B,C,D').split(','));
const log = (...parts) => console.log(...parts);

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
	if (!isInstalled())
		throw new Error(`n8n ${N8N_VERSION} is not installed: run node scripts/e2e/install-n8n.mjs`);
	const cores = os.availableParallelism();
	log(
		`bench: n8n ${N8N_VERSION}, Node ${process.version}, ${cores} cores (os.availableParallelism()), load ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}, ${new Date().toISOString()}`,
	);
	await build();

	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const { client, keys } = sandbox;
	const control = client.control;
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-'));
	let n8n;
	try {
		prepareUserFolder(userFolder, { clean: true });
		// Executions are not stored: the run's time is the nodes', not the database's (same for every variant).
		const env = {
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'none',
			N8N_PAYLOAD_SIZE_MAX: '64',
		};
		const profileEnv = process.env.BENCH_PROFILE
			? {
					NODE_OPTIONS: `--require ${path.join(PROJECT_ROOT, 'bench', 'cpu-profile-preload.cjs')}`,
					BENCH_PROFILE_DIR: path.resolve(process.env.BENCH_PROFILE),
				}
			: {};
		/** Writes n8n's profile of everything since the last call (see cpu-profile-preload.cjs). */
		const dumpProfile = async () => {
			if (!process.env.BENCH_PROFILE) return;
			process.kill(n8n.pid, 'SIGUSR2');
			await new Promise((resolve) => setTimeout(resolve, 3000));
		};
		const opts = { userFolder, env };
		await importJson(
			'import:credentials',
			[{ ...CREDENTIAL, data: { apiKey: keys.full, baseUrl: sandbox.url } }],
			opts,
		);
		await importJson(
			'import:workflow',
			[benchWorkflow({ sandboxUrl: sandbox.url, key: keys.full, otherKey: keys.other_account })],
			opts,
		);
		await runN8nOk(['publish:workflow', `--id=${WORKFLOW_ID}`], opts);
		n8n = await startN8n({ userFolder, env: { ...env, ...profileEnv } });
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
		const leadCount = async () => {
			let count = 0;
			let cursor = null;
			do {
				const page = await client.api(
					'GET',
					`/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				);
				count += page.data.length;
				cursor = page.next_cursor;
			} while (cursor);
			return count;
		};
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
		await dumpProfile();

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

		if (ONLY.has('A')) {
			const N = 2000;
			for (const lat of (process.env.BENCH_LATENCIES ?? '0,25').split(',').map(Number)) {
				const times = { node: [], http: [], raw: [] };
				for (let round = 0; round < ROUNDS; round++) {
					const order = round % 2 === 0 ? ['node', 'http', 'raw'] : ['raw', 'http', 'node'];
					for (const variant of order) {
						await reset();
						await latency(lat);
						const items = emails(N, `${variant}${round}x`);
						const { ms } =
							variant === 'raw'
								? await rawLoop(items)
								: await hook(variant === 'node' ? 'node-create' : 'http-create', items);
						await latency(0);
						const count = await leadCount();
						if (count !== N)
							throw new Error(`A ${variant} at ${lat} ms created ${count} leads, not ${N}`);
						times[variant].push(ms / N);
					}
				}
				const [node, http, raw] = [median(times.node), median(times.http), median(times.raw)];
				log(
					`A. ${N} Lead › Create at ${lat} ms: node ${node.toFixed(2)} ms/item, HTTP Request ${http.toFixed(2)}, raw loop ${raw.toFixed(2)} (medians of ${ROUNDS})`,
				);
				const target = lat === 0 ? 1.25 : 1.0;
				row(
					`A ${lat} ms node/HTTP`,
					(node / http).toFixed(2),
					`≤ ${target}`,
					node / http <= target,
					`(node/raw ${(node / raw).toFixed(2)})`,
				);
			}
		}

		if (ONLY.has('B')) {
			const N = 6000;
			await reset({ rate_limit: { requests: 3000, window_seconds: 60 } });
			await control('PUT', '/_sandbox/faults', { latency_ms: 50, methods: ['POST'] });
			await control('DELETE', '/_sandbox/requests');
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
			const ids = [];
			let cursor = null;
			do {
				const page = await client.api(
					'GET',
					`/v1/leads?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
				);
				ids.push(...page.data.map((lead) => ({ id: lead.id })));
				cursor = page.next_cursor;
			} while (cursor);
			await latency(25);
			for (const [what, items, ours, theirs] of [
				['Update 2,000 leads', ids.slice(0, 2000), 'node-update', 'http-update'],
				['Sync Many to CRM 10,000 leads', ids, 'node-sync', 'http-sync'],
			]) {
				const times = { node: [], http: [] };
				for (let round = 0; round < ROUNDS; round++) {
					for (const variant of round % 2 === 0 ? ['node', 'http'] : ['http', 'node']) {
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
					`C. ${what} at 25 ms: node ${(node / 1000).toFixed(2)} s, HTTP Request ${(http / 1000).toFixed(2)} s${what.startsWith('Sync') ? ' (HTTP Request: one /sync-crm call per lead)' : ''}`,
				);
				row(`C ${what} node/HTTP`, (node / http).toFixed(2), '≤ 1.0', node / http <= 1.0);
			}
			await latency(0);
		}

		if (ONLY.has('D')) {
			const result = { 5000: { ms: [], mb: [] }, 50000: { ms: [], mb: [] } };
			// The 5,000-lead run takes about 0.15 s, so one hiccup moves the time ratio by a whole unit: the
			// times are the median of at least 5 rounds. Memory is the growth of n8n's resident set to its
			// peak (VmHWM, reset before the run) the first time each size runs (round 0, smaller first):
			// later rounds reuse a heap already grown, so their growth says nothing about one run's need.
			for (let round = 0; round < Math.max(ROUNDS, D_ROUNDS); round++) {
				for (const size of round % 2 === 0 ? [5000, 50000] : [50000, 5000]) {
					await reset();
					await control('POST', '/_sandbox/seed', { seed: 9, leads: size });
					await new Promise((resolve) => setTimeout(resolve, 1500));
					const before = rssMb(n8n.pid);
					const exactPeak = resetPeak(n8n.pid);
					let peak = before;
					const sampler = setInterval(() => (peak = Math.max(peak, rssMb(n8n.pid))), 10);
					const { ms } = await hook('node-getall', [{}]);
					clearInterval(sampler);
					peak = Math.max(peak, rssMb(n8n.pid), exactPeak ? rssMb(n8n.pid, 'VmHWM') : 0);
					result[size].ms.push(ms);
					if (round === 0) result[size].mb.push(peak - before);
				}
			}
			const [t5, t50] = [median(result[5000].ms), median(result[50000].ms)];
			const [m5, m50] = [median(result[5000].mb), median(result[50000].mb)];
			log(
				`D. Get Many Return All: 5,000 leads ${(t5 / 1000).toFixed(2)} s, +${m5.toFixed(0)} MB; 50,000 leads ${(t50 / 1000).toFixed(2)} s, +${m50.toFixed(0)} MB (n8n's resident memory, peak minus before)`,
			);
			row('D time 50k/5k', (t50 / t5).toFixed(2), '≤ 11', t50 / t5 <= 11);
			row(
				'D peak memory growth 50k/5k',
				(m50 / Math.max(m5, 1)).toFixed(2),
				'≤ 11',
				m50 / Math.max(m5, 1) <= 11,
			);
		}

		await dumpProfile();
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
	} finally {
		await n8n?.stop();
		await sandbox.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
