// Per-item cost of the node inside n8n's engine (test harness, n8n-core WorkflowExecute), for profiling:
//   node --cpu-prof --cpu-prof-dir=.tmp/prof --import tsx bench/profile-harness.ts [items] [maxParallel]
// Creates `items` leads (default 2,000) in one run against the sandbox in this process and prints ms/item.
import path from 'node:path';

// First: keeps n8n-core's instance settings inside the project (see test/setup-env.ts).
import '../test/setup-env';
import { startSandbox } from '../sandbox/src/server';
import { createHarness } from '../test/harness';

async function main(): Promise<void> {
	const count = Number(process.argv[2] ?? 2000);
	const maxParallel = Number(process.argv[3] ?? 50);
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const keys = (await (await fetch(`${sandbox.url}/_sandbox/keys`)).json()) as { full: string };
	await fetch(`${sandbox.url}/_sandbox/config`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ rate_limit: null }),
	});
	const harness = await createHarness({
		packageRoot: path.resolve(__dirname, '..'),
		credentials: { contentMarketingApi: { apiKey: keys.full, baseUrl: sandbox.url } },
	});
	const type = harness.typeName('contentMarketing');
	const input = (tag: string) =>
		Array.from({ length: count }, (_, i) => ({ json: { email: `${tag}${i}@bench.example` } }));
	const parameters = {
		resource: 'lead',
		operation: 'create',
		email: '={{ $json.email }}',
		options: { maxParallelRequests: maxParallel },
	};
	await harness.runNode({ type, parameters, input: input('warm').slice(0, 100) });
	const started = performance.now();
	const result = await harness.runNode({ type, parameters, input: input('run') });
	const ms = performance.now() - started;
	if (result.error !== undefined || result.items.length !== count)
		throw new Error(`run failed: ${result.error?.message}`);
	console.log(
		`${count} Lead › Create in the harness, Max Parallel Requests ${maxParallel}: ${(ms / count).toFixed(3)} ms/item`,
	);
	await harness.close();
	await sandbox.close();
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
