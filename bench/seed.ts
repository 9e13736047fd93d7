// How long the sandbox's bulk seed takes (POST /_sandbox/seed, 1,000 leads and 10 resources, as the
// tests seed): an in-process sandbox, reset before each of 7 rounds; prints the median and the slowest,
// with the core count. Run: npx tsx bench/seed.ts [leads]
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { startSandbox } from '../sandbox/src/server';

const ROUNDS = 7;

async function main(): Promise<void> {
	const leads = Number(process.argv[2] ?? 1000);
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
	const post = async (path: string, body?: unknown) => {
		const response = await fetch(sandbox.url + path, {
			method: 'POST',
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		await response.arrayBuffer();
		if (response.status >= 300) throw new Error(`POST ${path}: ${response.status}`);
	};
	try {
		const times: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			await post('/_sandbox/reset');
			const started = performance.now();
			await post('/_sandbox/seed', { seed: 42, leads, resources: 10 });
			times.push(performance.now() - started);
		}
		times.sort((a, b) => a - b);
		console.log(
			`seed of ${leads} leads and 10 resources over HTTP, ${ROUNDS} rounds: median ${times[ROUNDS >> 1].toFixed(0)} ms, slowest ${times[ROUNDS - 1].toFixed(0)} ms (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
		);
	} finally {
		await sandbox.close();
	}
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
