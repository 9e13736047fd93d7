// Benchmark (not a test): 1,000 signed deliveries at 200/s over HTTP to the Content Marketing Trigger's
// webhook() (through the test harness' local webhook server), with its endpoint registered on a sandbox.
// Run after `node scripts/build.mjs`:  npx tsx scripts/bench-trigger.ts [count] [ratePerSecond]
import { createHmac, randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(__dirname, '..');
process.env.N8N_USER_FOLDER ??= path.join(ROOT, '.n8n-test');

const COUNT = Number(process.argv[2] ?? 1000);
const RATE = Number(process.argv[3] ?? 200);
/** Sent first and left out of the figures: the first calls load modules and warm up V8. */
const WARM_UP = 50;

interface Answer {
	status: number;
	ms: number;
}

function post(agent: Agent, url: URL, body: string, signature: string): Promise<Answer> {
	const started = performance.now();
	return new Promise((resolve) => {
		const req = request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					'cm-signature': signature,
				},
			},
			(res) => {
				res.resume();
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
				);
			},
		);
		req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
		req.end(body);
	});
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function delivery(secret: string): { body: string; signature: string } {
	const body = JSON.stringify({
		id: `evt_${randomBytes(8).toString('hex')}`,
		type: 'lead.created',
		created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
		api_version: 'v1',
		account_id: 'acct_demo000000000001',
		data: {
			lead: {
				id: `lead_${randomBytes(8).toString('hex')}`,
				email: 'bench@example.com',
				status: 'new',
			},
		},
	});
	const t = Math.floor(Date.now() / 1000);
	const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
	return { body, signature: `t=${t},v1=${v1}` };
}

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/src/server');
	const { createHarness } = await import('../test/harness');

	const sandbox = (await startSandbox({ port: 0, host: '127.0.0.1' })) as {
		url: string;
		close(): Promise<void>;
	};
	const keys = (await (await fetch(`${sandbox.url}/_sandbox/keys`)).json()) as { full: string };
	const harness = await createHarness({
		packageRoot: ROOT,
		credentials: { contentMarketingApi: { apiKey: keys.full, baseUrl: sandbox.url } },
	});
	const agent = new Agent({ keepAlive: true, maxSockets: 64 });
	try {
		await harness.serveWebhooks();
		const trigger = harness.trigger({
			type: harness.typeName('contentMarketingTrigger'),
			parameters: { events: ['lead.created'] },
		});
		await trigger.activate('trigger');
		const url = new URL(trigger.webhookUrl('trigger'));
		const endpoints = trigger.nodeStaticData.endpoints as Record<string, { secret: string }>;
		const secret = endpoints[url.toString()].secret;

		await Promise.all(
			Array.from({ length: WARM_UP }, async () => {
				const { body, signature } = delivery(secret);
				return await post(agent, url, body, signature);
			}),
		);
		const warmUpEmitted = trigger.deliveries.length;

		const interval = 1000 / RATE;
		const started = performance.now();
		const pending: Array<Promise<Answer>> = [];
		for (let i = 0; i < COUNT; i++) {
			const due = started + i * interval;
			const wait = due - performance.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
			const { body, signature } = delivery(secret);
			pending.push(post(agent, url, body, signature));
		}
		const sentIn = (performance.now() - started) / 1000;
		const answers = await Promise.all(pending);
		const total = (performance.now() - started) / 1000;

		const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
		const byStatus = new Map<number, number>();
		for (const { status } of answers) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
		const answered = answers.filter((a) => a.status >= 200 && a.status < 300).length;
		const emitted = trigger.deliveries
			.slice(warmUpEmitted)
			.reduce((sum, d) => sum + d.items.length, 0);

		console.log(`warm-up:          ${WARM_UP} deliveries (not counted)`);
		console.log(
			`deliveries sent:  ${COUNT} at ${RATE}/s target (${(COUNT / sentIn).toFixed(1)}/s achieved over ${sentIn.toFixed(2)} s)`,
		);
		console.log(
			`answered 2xx:     ${answered}/${COUNT}   by status: ${JSON.stringify(Object.fromEntries(byStatus))}`,
		);
		console.log(`emitted items:    ${emitted}`);
		console.log(
			`latency ms:       p50 ${percentile(latencies, 50).toFixed(2)}  p99 ${percentile(latencies, 99).toFixed(2)}  max ${latencies[latencies.length - 1].toFixed(2)}`,
		);
		console.log(`wall time:        ${total.toFixed(2)} s`);

		await trigger.deactivate('trigger');
	} finally {
		agent.destroy();
		await harness.close();
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
