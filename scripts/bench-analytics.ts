// Latency of the analytics endpoints as tracked data grows: an in-process sandbox, simulated traffic of
// 10k, 100k and 1M events, then p50/p99 over real HTTP. Run: npx tsx scripts/bench-analytics.ts [sizes]
// (sizes: comma-separated event counts, default 10000,100000,1000000).
import { startSandbox } from '../sandbox/src/server';

const RESOURCES = 20;
const DAYS = 90;
const WARMUP = 5;
const SAMPLES = 200;
/** Upper bound of the time spent measuring one endpoint at one size. */
const BUDGET_MS = 4_000;

async function main(): Promise<void> {
	const sizes = (process.argv[2] ?? '10000,100000,1000000').split(',').map(Number);
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const call = async (
		method: string,
		path: string,
		body?: unknown,
		auth = true,
	): Promise<{ status: number; json: unknown }> => {
		const headers: Record<string, string> = auth
			? { authorization: `Bearer ${sandbox.keys.full}` }
			: {};
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(sandbox.url + path, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json: unknown = await response.json();
		if (response.status >= 300)
			throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
		return { status: response.status, json };
	};
	try {
		console.log(
			`analytics latency over HTTP (${SAMPLES} requests per endpoint after ${WARMUP} warm-up, at most ${BUDGET_MS / 1000} s each)`,
		);
		console.log(['events', 'endpoint'.padEnd(44), 'p50 ms', 'p99 ms', 'n'].join('\t'));
		for (const size of sizes) {
			await call('POST', '/_sandbox/reset', undefined, false);
			await call('PATCH', '/_sandbox/config', { rate_limit: null }, false);
			const ids: string[] = [];
			for (let i = 0; i < RESOURCES; i++) {
				const created = await call('POST', '/v1/resources', {
					title: `Resource ${i + 1}`,
					type: 'article',
					...(i % 4 === 3 ? {} : { cta_id: 'cta_demo00000000a001' }),
				});
				const id = (created.json as { id: string }).id;
				await call('POST', `/v1/resources/${id}/publish`);
				ids.push(id);
			}
			const simulated = await call(
				'POST',
				'/_sandbox/simulate',
				{ seed: 42, events: size, days: DAYS },
				false,
			);
			const { leads, duration_ms } = simulated.json as { leads: number; duration_ms: number };
			console.log(
				`${size}\tsimulated in ${duration_ms} ms (${leads} leads, ${DAYS} days, ${RESOURCES} resources); heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
			);
			const endpoints = [
				'/v1/analytics/overview',
				'/v1/analytics/overview?days=90&timezone=Asia%2FKathmandu',
				'/v1/analytics/resources',
				`/v1/analytics/resources/${ids[0]}?days=90`,
				`/v1/analytics/resources/${ids[0]}?days=90&granularity=week&timezone=-03:30`,
				'/v1/analytics/channels?days=90',
				'/v1/analytics/leads?days=90',
				`/v1/analytics/funnel?resource_id=${ids[1]}`,
			];
			for (const path of endpoints) {
				for (let i = 0; i < WARMUP; i++) await call('GET', path);
				const latencies: number[] = [];
				const deadline = performance.now() + BUDGET_MS;
				while (latencies.length < SAMPLES && performance.now() < deadline) {
					const started = performance.now();
					await call('GET', path);
					latencies.push(performance.now() - started);
				}
				latencies.sort((a, b) => a - b);
				const at = (q: number) =>
					latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)].toFixed(2);
				const label = path.replace('/v1/analytics', '').replace(/res_[a-z0-9]+/, '{id}');
				console.log([size, label.padEnd(44), at(0.5), at(0.99), latencies.length].join('\t'));
			}
		}
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
