// Whether every sender waits out a 429's Retry-After: 60 Lead › Create items at the defaults through n8n's
// engine (test harness), a proxy before the sandbox holding each request 20 ms and answering 10 POSTs from the
// 16th on with 429 and Retry-After: 2. Prints, per round, the requests that arrived 0.3 to 1.7 s after the
// first 429 (what was on its way arrives first; the target is 0) and when sending resumed, with the core count.
//   npx tsx bench/pause-after-429.ts [rounds]   (after a build)
import os from 'node:os';
import path from 'node:path';

// First: keeps n8n-core's instance settings inside the project (see test/setup-env.ts).
import '../test/setup-env';
import { startSandbox } from '../sandbox/src/server';
import { createHarness } from '../test/harness';
import { ParallelProxy } from '../test/node/parallel-proxy';

async function main(): Promise<void> {
	const rounds = Number(process.argv[2] ?? 3);
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const keys = (await (await fetch(`${sandbox.url}/_sandbox/keys`)).json()) as { full: string };
	await fetch(`${sandbox.url}/_sandbox/config`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ rate_limit: null }),
	});
	const proxy = await ParallelProxy.start(sandbox.url);
	const harness = await createHarness({
		packageRoot: path.resolve(__dirname, '..'),
		credentials: { contentMarketingApi: { apiKey: keys.full, baseUrl: proxy.url } },
	});
	const type = harness.typeName('contentMarketing');
	const parameters = { resource: 'lead', operation: 'create', email: '={{ $json.email }}' };
	try {
		for (let round = 0; round < rounds; round++) {
			let refused = 0;
			proxy.reset({
				delay: () => 20,
				rule: (request, index) => {
					if (request.method !== 'POST' || index < 15 || refused >= 10) return 'forward';
					refused++;
					return {
						status: 429,
						headers: { 'retry-after': '2' },
						body: { error: { code: 'rate_limited', message: 'slow down' } },
					};
				},
			});
			const input = Array.from({ length: 60 }, (_, i) => ({
				json: { email: `r${round}p${i}@bench.example` },
			}));
			const result = await harness.runNode({ type, parameters, input });
			if (result.error !== undefined || result.items.length !== 60)
				throw new Error(`round ${round} failed: ${result.error?.message}`);
			const posts = proxy.requests.filter((request) => request.method === 'POST');
			const first429 = Math.min(
				...posts.filter((r) => r.status === 429).map((r) => r.answeredAt ?? Infinity),
			);
			const after = posts.map((r) => r.arrivedAt - first429).filter((ms) => ms > 0);
			const during = after.filter((ms) => ms > 300 && ms < 1_700).length;
			const resumed = Math.min(...after.filter((ms) => ms >= 300));
			console.log(
				`round ${round + 1}: ${during} requests arrived 0.3 to 1.7 s after the first 429 (target 0); sending resumed ${resumed} ms after it (Retry-After 2 s)`,
			);
		}
		console.log(`${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
	} finally {
		await harness.close();
		await proxy.close();
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
