// Figure I in queue mode (`BENCH_I_QUEUE=1 npm run bench -- --only=I`): the double submit of figure-i.mjs
// with n8n 2.8.4 in queue mode: a main that takes the webhook calls and 2 workers (concurrency 5) that run
// the executions, on PostgreSQL and Redis (scripts/e2e/queue/, imported as they are). The copies of an
// e-mail run on either worker: two processes, so only the e-mail's Idempotency-Key keeps one lead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { importJson, runN8nOk } from '../scripts/e2e/n8n.mjs';
import { n8nProcess, queueEnv } from '../scripts/e2e/queue/cluster.mjs';
import { ensurePackages, startPostgres, startRedis } from '../scripts/e2e/queue/services.mjs';
import { startSandboxInProcess } from '../scripts/e2e/sandbox.mjs';
import { describeFormResult, FORM_CASES, formWorkflows, runFormCase } from './figure-i.mjs';
import { CREDENTIAL } from './workflow.mjs';

const CASES = new Set((process.env.BENCH_I_CASES ?? 'a,b,c').split(','));
const IDS = { node: 'cmBenchFormNode', http: 'cmBenchFormHttp' };
const PATHS = { node: 'bench-form-node', http: 'bench-form-http' };

export async function figureIQueue({ log, row }) {
	const cores = os.availableParallelism();
	ensurePackages();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-i-queue-'));
	const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-i-pg-'));
	const stoppers = [];
	try {
		const postgres = await startPostgres(pgDir);
		stoppers.push(postgres.stop);
		const redis = await startRedis(fs.mkdtempSync(path.join(tmp, 'redis-')));
		stoppers.push(redis.stop);
		const sandbox = await startSandboxInProcess({ seedDemo: false });
		stoppers.push(sandbox.close);
		const sharedEnv = queueEnv({ postgres, redis, webhookUrl: 'http://127.0.0.1:1/' });
		const make = (kind, name) =>
			n8nProcess({ kind, name, userFolder: path.join(tmp, name), sharedEnv });
		const main = make('main', 'main');
		const workers = [make('worker', 'worker-1'), make('worker', 'worker-2')];
		stoppers.push(() => Promise.all([main, ...workers].map((proc) => proc.kill())));
		const cli = { userFolder: main.userFolder, env: sharedEnv };
		await importJson(
			'import:credentials',
			[{ ...CREDENTIAL, data: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } }],
			cli,
		);
		await importJson('import:workflow', formWorkflows(sandbox.url), cli);
		for (const id of Object.values(IDS)) await runN8nOk(['publish:workflow', `--id=${id}`], cli);
		await main.start();
		await Promise.all(workers.map((worker) => worker.start()));
		log(
			`I. A form sent twice, queue mode: a main (webhooks) and 2 workers (concurrency 5), PostgreSQL, Redis, ${cores} cores`,
		);
		const byWorker = (workflowId) =>
			postgres
				.query(
					`SELECT id, status, "stoppedAt" FROM execution_entity WHERE "workflowId" = '${workflowId}' ORDER BY id`,
				)
				.map((e) => ({ ...e, stoppedAt: e.stoppedAt ?? null }));
		for (const kase of FORM_CASES.filter((k) => CASES.has(k.id))) {
			for (const variant of ['node', 'http']) {
				const result = await runFormCase({
					control: sandbox.client.control,
					api: sandbox.client.api,
					webhookUrl: `http://127.0.0.1:${main.port}/webhook/${PATHS[variant]}`,
					listExecutionsOf: async () => byWorker(IDS[variant]),
					kase,
					tag: `q${kase.id}-${variant}-`,
				});
				const ran = workers.map(
					(worker) => (worker.output().match(/Worker started execution/g) ?? []).length,
				);
				const name = variant === 'node' ? 'Create or Update' : 'HTTP Request GET, IF, POST';
				log(
					`  I ${kase.id}) queue, ${kase.label}, ${name}: ${describeFormResult(kase, result)}; executions started per worker so far ${ran.join(' and ')}`,
				);
				const ours = variant === 'node';
				row(
					`I ${kase.id} queue (2 workers), ${name}: e-mails with 2+ leads`,
					`${result.twiceOrMore} of ${kase.count} (${result.leads} leads, ${result.none} none; executions ${JSON.stringify(result.executions.byStatus)})`,
					ours ? '0, 0 failed' : '',
					ours
						? result.twiceOrMore === 0 &&
								result.none === 0 &&
								(result.executions.byStatus.success ?? 0) === kase.count * kase.times
						: undefined,
					`(${cores} cores)`,
				);
			}
		}
	} finally {
		for (const stop of stoppers.reverse()) await stop();
		fs.rmSync(tmp, { recursive: true, force: true });
		fs.rmSync(pgDir, { recursive: true, force: true });
	}
}
