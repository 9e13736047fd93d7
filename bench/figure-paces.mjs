// Figure P of `npm run bench` (alone, after `npm run build`: `node bench/figure-paces.mjs`): one API key
// shared by 1, 2 and 4 processes, as queue-mode workers share it. Each process runs the built key pace
// (dist/.../transport/keyPace.js, as the transport uses it: a turn before each attempt, the answer handed
// back, a 429's Retry-After pausing the key, the refused request sent again first) and sends its part of
// the creates with a fixed number in flight, against one sandbox with a rolling limit of the spec's form
// (requests per 60 s). Prints, per process count: calls and 429 answers (the sandbox's log), the time from
// the first request to the last answer against the limit's minimum for the work, the core count.
//   BENCH_P_LIMIT=120 (requests per 60 s)   BENCH_P_WORK=300 (creates in all)   BENCH_P_INFLIGHT=20 (per process)
//   BENCH_P_PROCESSES=1,2,4   BENCH_P_WINDOW=60 (seconds; the pace assumes the spec's minute, so others only to try the script)
//   BENCH_P_TRACE=1: also each process's attempts and 429s by second (where refusals come from)
// The minimum: the rolling window lets the first LIMIT requests go at once and every further LIMIT one
// window later, so the work takes at least (ceil(WORK / LIMIT) - 1) windows.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const LIMIT = Number(process.env.BENCH_P_LIMIT ?? 120);
const WORK = Number(process.env.BENCH_P_WORK ?? 300);
const IN_FLIGHT = Number(process.env.BENCH_P_INFLIGHT ?? 20);
const PROCESSES = (process.env.BENCH_P_PROCESSES ?? '1,2,4').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_P_WINDOW ?? 60);
const TRACE = process.env.BENCH_P_TRACE === '1';

/** One process: `count` creates through its own key pace; prints its first send and last answer (epoch ms). */
async function worker(url, key, count, inFlight) {
	const require = createRequire(import.meta.url);
	const { KeyPace } = require(
		path.join(ROOT, 'dist', 'nodes', 'ContentMarketing', 'transport', 'keyPace.js'),
	);
	const pace = new KeyPace();
	const who = {};
	let left = count;
	let first = Number.POSITIVE_INFINITY;
	let last = 0;
	/** BENCH_P_TRACE=1: every attempt as [sent, answered (epoch ms), status, X-RateLimit-Remaining, -Reset]. */
	const trace = [];
	async function one(index) {
		let retry = false;
		for (;;) {
			const turn = await pace.take(who, { first: retry });
			const sent = Date.now();
			first = Math.min(first, sent);
			const response = await fetch(`${url}/v1/leads`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${key}`,
					'content-type': 'application/json',
					'idempotency-key': `${process.pid}-${index}`,
				},
				body: JSON.stringify({ email: `p${process.pid}-${index}@example.com` }),
			});
			await response.arrayBuffer();
			pace.answered(turn, response.status, Object.fromEntries(response.headers));
			if (TRACE)
				trace.push([
					sent,
					Date.now(),
					response.status,
					Number(response.headers.get('x-ratelimit-remaining')),
					Number(response.headers.get('x-ratelimit-reset')),
				]);
			if (response.status !== 429) break;
			pace.pauseFor(Number(response.headers.get('retry-after') ?? 1) * 1000);
			retry = true;
		}
		last = Date.now();
	}
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (left > 0) await one(left--);
		}),
	);
	console.log(JSON.stringify({ first, last, trace }));
}

/**
 * BENCH_P_TRACE=1: per process, its attempts and 429s by the second they went (from the first send of
 * all), so where the refusals come from shows: the start, a window's reset, or a pause's end.
 */
function printTrace(log, ends) {
	const start = Math.min(...ends.map((end) => end.first));
	ends.forEach((end, index) => {
		const seconds = new Map();
		for (const [sent, , status] of end.trace) {
			const second = Math.floor((sent - start) / 1000);
			const [sends, refused] = seconds.get(second) ?? [0, 0];
			seconds.set(second, [sends + 1, refused + (status === 429 ? 1 : 0)]);
		}
		const line = [...seconds]
			.sort(([a], [b]) => a - b)
			.map(([second, [sends, refused]]) => `${second}s:${sends}${refused ? `/${refused}x` : ''}`)
			.join(' ');
		log(`    process ${index + 1} (first send +${end.first - start} ms): ${line}`);
	});
}

function run(args) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (chunk) => (out += chunk));
		child.on('exit', (code) =>
			code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`worker exited ${code}`)),
		);
	});
}

export async function figurePaces({ log, row }) {
	const { startSandboxInProcess } = await import('../scripts/e2e/sandbox.mjs');
	const sandbox = await startSandboxInProcess({ seedDemo: false });
	const control = sandbox.client.control;
	const minimumS = (Math.ceil(WORK / LIMIT) - 1) * WINDOW_S;
	log(
		`P. One key (${LIMIT} per rolling ${WINDOW_S} s) shared by processes, ${WORK} creates, ${IN_FLIGHT} in flight each, ${os.availableParallelism()} cores (os.availableParallelism()); minimum ${minimumS} s`,
	);
	try {
		for (const processes of PROCESSES) {
			await control('POST', '/_sandbox/reset');
			await control('PATCH', '/_sandbox/config', {
				rate_limit: { requests: LIMIT, window_seconds: WINDOW_S },
			});
			const parts = Array.from(
				{ length: processes },
				(_, index) => Math.floor(WORK / processes) + (index < WORK % processes ? 1 : 0),
			);
			const ends = await Promise.all(
				parts.map((count) =>
					run(['--worker', sandbox.url, sandbox.keys.full, String(count), String(IN_FLIGHT)]),
				),
			);
			if (TRACE) printTrace(log, ends);
			const requests = (await control('GET', '/_sandbox/requests')).filter(
				(request) => request.method === 'POST' && request.path === '/v1/leads',
			);
			const refused = requests.filter((request) => request.status === 429).length;
			const created = requests.filter((request) => request.status === 201).length;
			const seconds =
				(Math.max(...ends.map((end) => end.last)) - Math.min(...ends.map((end) => end.first))) /
				1000;
			const share = refused / requests.length;
			row(
				`P ${processes} process(es): 429 share`,
				`${(100 * share).toFixed(1)} % (${refused} of ${requests.length} calls; ${created} created)`,
				'≤ 5 %',
				share <= 0.05 && created === WORK,
			);
			row(
				`P ${processes} process(es): time / minimum`,
				`${(seconds / minimumS).toFixed(3)} (${seconds.toFixed(1)} s / ${minimumS} s)`,
				'≤ 1.15',
				seconds / minimumS <= 1.15,
			);
		}
	} finally {
		await control('PATCH', '/_sandbox/config', { rate_limit: null });
		await sandbox.close();
	}
}

if (process.argv[2] === '--worker') {
	const [url, key, count, inFlight] = process.argv.slice(3);
	await worker(url, key, Number(count), Number(inFlight));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const table = [];
	const log = (...parts) => console.log(...parts);
	await figurePaces({
		log,
		row: (figure, measured, target, met) => {
			table.push({ figure, measured, target, met });
			log(`  ${figure}: ${measured} (target ${target}: ${met ? 'met' : 'NOT met'})`);
		},
	});
	log(
		`cores: ${os.availableParallelism()}; load at end: ${os
			.loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}`,
	);
}
