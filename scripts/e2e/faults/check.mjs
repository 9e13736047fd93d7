#!/usr/bin/env node
// `npm run test:e2e:faults`: no lead event lost when n8n is killed or its database stalls, on n8n 2.8.4
// and 2.41.3 (one n8n process, SQLite; `-- --n8n=<v>` runs one release). Two published workflows get
// the same `lead.created` events from the sandbox, with the service's retries compressed
// (FAULT_RETRIES_MS): Content Marketing Trigger -> No Op, and n8n's Webhook node (Respond Immediately)
// -> No Op, registered with POST /v1/webhooks. Leads are created at a steady rate while n8n is
// SIGKILLed while it serves them and restarted at once (one restart killed again while it starts), then
// while SQLite is write-locked. Once the service stopped retrying, the executions n8n stored are read
// per event. Fails when the trigger lost an event it acknowledged (or one the service never got
// acknowledged) or ran more than 1 % of the events to success twice (a killed run n8n re-ran counts
// once); prints the duplicates beside the Webhook node's, each with its attempts and executions, and
// n8n's start-up 200s apart (docs/triggers.md, "Faults"). The two releases run side by side (`-- --in-turn`: one after the other).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CREDENTIALS, importSandboxCredential } from '../examples.mjs';
import { buildPackage } from '../stack.mjs';
import { N8N_VERSION } from '../install-n8n.mjs';
import {
	answersReady,
	freePort,
	n8nRequire,
	databasePath,
	prepareUserFolder,
	publishRunning,
	queryDb,
	saveWorkflowsRunning,
	startN8n,
} from '../n8n.mjs';
import { createProgress } from '../progress.mjs';
import { chosenVersions, isReleaseChild, runEveryRelease } from '../releases.mjs';
import { startSandboxInProcess } from '../sandbox.mjs';
import {
	FAULT_RETRIES_MS,
	deliveriesOutstanding,
	describeEvent,
	describeFigures,
	eventIdsIn,
	eventFigures,
	KILLED_TWICE_SHARE,
	waitForExecutionsSettled,
	waitForServiceDone,
} from './figures.mjs';
import { ensureNode24 } from '../../node24.mjs';

await ensureNode24();

if (!isReleaseChild()) {
	process.exit(
		await runEveryRelease({
			script: fileURLToPath(import.meta.url),
			versions: chosenVersions(process.argv),
			// Side by side: a slow restart cannot run the compressed retries out, since the long gaps'
			// attempts run early once n8n answers ready (faults/figures.mjs waitForServiceDone).
			sideBySide: !process.argv.includes('--in-turn'),
			prefix: 'e2e:faults',
		}),
	);
}

/**
 * Leads created per second, for how long, and when the faults strike (seconds into the stream). The
 * E2E_FAULTS_* variables replace them for longer runs than CI's (scripts/e2e/README.md).
 */
const secondsList = (text) => (text.trim() === '' ? [] : text.split(',').map(Number));
const plan = (name, fallback, read = Number) =>
	process.env[name] === undefined ? fallback : read(process.env[name]);
const RATE = plan('E2E_FAULTS_RATE', 20);
const STREAM_SECONDS = plan('E2E_FAULTS_SECONDS', 30);
/** Each kill comes at its time or, when later, once n8n has served SERVING_SECONDS since it was ready. */
const KILLS_AT = plan('E2E_FAULTS_KILLS', [3, 10, 17], secondsList);
const SERVING_SECONDS = 2;
/** How many of the restarts after a kill are killed again while starting (1 s after the spawn). */
const STARTING_KILLS = plan('E2E_FAULTS_STARTING_KILLS', 1);
/** Each lock, too, comes once n8n has served SERVING_SECONDS: a stall of a running n8n. */
const LOCKS_AT = plan('E2E_FAULTS_LOCKS', [24], secondsList);
const LOCK_SECONDS = 6;
const STREAM_EVENTS = RATE * STREAM_SECONDS;
/**
 * Busy loops beside n8n from the stream's start until the service is done (E2E_FAULTS_BUSY_LOOPS=1): a
 * slow host, where n8n restarts in tens of seconds and answers late after a start. None in CI's plan.
 */
const BUSY_LOOPS = plan('E2E_FAULTS_BUSY_LOOPS', 0);
for (const value of [RATE, STREAM_SECONDS, STARTING_KILLS, BUSY_LOOPS, ...KILLS_AT, ...LOCKS_AT])
	if (!Number.isFinite(value) || value < 0)
		throw new Error(`E2E_FAULTS_*: ${value} is not a number of seconds or leads a second`);

const TRIGGER_WORKFLOW = 'cmFaultsTrigger001';
const WEBHOOK_WORKFLOW = 'cmFaultsWebhook001';
const TRIGGER_WEBHOOK_ID = '5b8f0c3e-2d41-4c6a-9e7b-1f2a3b4c5d6e';
const WEBHOOK_PATH = 'faults-webhook-node';
/** n8n 2.41 runs these with its legacy expression engine, as docs/queue-mode.md advises for bursts. */
const ENGINE_ENV = N8N_VERSION.startsWith('2.8.') ? {} : { N8N_EXPRESSION_ENGINE: 'legacy' };

const { step, print, seconds } = createProgress({ prefix: `e2e:faults ${N8N_VERSION}` });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function assert(condition, message) {
	if (!condition) throw new Error(message);
}

function workflow(id, name, first) {
	const noOp = {
		id: `${id}-noop`,
		name: 'No Op',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	return {
		id,
		name,
		active: false,
		nodes: [first, noOp],
		connections: { [first.name]: { main: [[{ node: 'No Op', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const WORKFLOWS = [
	workflow(TRIGGER_WORKFLOW, 'Faults: Content Marketing Trigger', {
		id: 'faults-trigger',
		name: 'New Lead',
		type: 'n8n-nodes-content-marketing.contentMarketingTrigger',
		typeVersion: 1,
		position: [0, 0],
		webhookId: TRIGGER_WEBHOOK_ID,
		parameters: { events: ['lead.created'], simple: true, options: {} },
		credentials: {
			contentMarketingApi: {
				id: CREDENTIALS.contentMarketing.id,
				name: CREDENTIALS.contentMarketing.name,
			},
		},
	}),
	workflow(WEBHOOK_WORKFLOW, 'Faults: Webhook node', {
		id: 'faults-webhook',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: '0c9d8e7f-6a5b-4c3d-8e1f-2a3b4c5d6e7f',
		parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
	}),
];

/** Holds SQLite's write lock (BEGIN IMMEDIATE) for `ms`, as another writer on the file would. */
async function lockDatabase(userFolder, ms, onLocked = () => {}) {
	const sqlite3 = n8nRequire('sqlite3');
	const db = await new Promise((resolve, reject) => {
		const opened = new sqlite3.Database(databasePath(userFolder), (error) =>
			error ? reject(error) : resolve(opened),
		);
	});
	db.configure('busyTimeout', 10_000);
	const exec = (sql) =>
		new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
	await exec('BEGIN IMMEDIATE');
	onLocked();
	await sleep(ms);
	await exec('COMMIT');
	await new Promise((resolve) => db.close(resolve));
}

/** Starts `count` processes that each keep one core busy; resolves to a function that ends them. */
function busyLoops(count) {
	const loops = Array.from({ length: count }, () =>
		spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
	);
	return () => {
		for (const loop of loops) loop.kill('SIGKILL');
	};
}

/** When the stream of events started: the failure messages count seconds from it. */
let t0Ms = Date.now();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-faults-'));
const stoppers = [];
let endBusyLoops = () => {};
let failed = false;

try {
	if (process.env.E2E_PACKAGE_BUILT !== '1')
		await step('build the package (node scripts/build.mjs)', buildPackage);
	const sandbox = await step('start the sandbox, retries compressed', async () => {
		const started = await startSandboxInProcess({ seedDemo: false });
		stoppers.push(started.close);
		await started.client.control('PATCH', '/_sandbox/config', {
			rate_limit: null,
			allow_http_webhooks: true,
			webhook_retry_delays_ms: FAULT_RETRIES_MS,
		});
		return Object.assign(started, {
			detail: `${started.url}, retries after ${FAULT_RETRIES_MS.map((ms) => ms / 1000).join(', ')} s`,
		});
	});
	const userFolder = path.join(tmp, 'n8n');
	const cli = { userFolder, env: ENGINE_ENV };
	await step('a fresh n8n user folder: the package, the credential', async () => {
		prepareUserFolder(userFolder, { clean: true });
		return { detail: await importSandboxCredential(sandbox, cli) };
	});

	const port = await freePort();
	const brokerPort = await freePort();
	let n8n;
	/** Starts n8n; resolves once it is spawned (its `ready` says when it serves the workflows). */
	const start = async () => {
		const spawnedAt = Date.now();
		n8n = Object.assign(await startN8n({ userFolder, port, brokerPort, env: ENGINE_ENV }), {
			spawnedAt,
		});
		const current = n8n;
		stoppers.push(() => current.stop());
		return current;
	};
	const baseUrl = `http://127.0.0.1:${port}`;
	const triggerUrl = `${baseUrl}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
	const endpoints = await step(
		"start n8n, both workflows saved and published in it (REST): the trigger registers its endpoint; the Webhook node's is registered by hand",
		async () => {
			const took = await (await start()).ready;
			await saveWorkflowsRunning(n8n, WORKFLOWS);
			for (const { id } of WORKFLOWS) await publishRunning(n8n, id);
			let ours;
			for (let i = 0; i < 120 && !ours; i++) {
				ours = (await sandbox.client.api('GET', '/v1/webhooks?limit=100')).data.find(
					(e) => e.url === triggerUrl,
				);
				if (!ours) await sleep(250);
			}
			assert(ours, `the trigger registered no endpoint for ${triggerUrl}`);
			const webhookNode = await sandbox.client.api('POST', '/v1/webhooks', {
				url: `${baseUrl}/webhook/${WEBHOOK_PATH}`,
				events: ['lead.created'],
			});
			return {
				trigger: ours.id,
				webhookNode: webhookNode.id,
				detail: `ready in ${took.toFixed(1)} s; trigger ${ours.id}, Webhook node ${webhookNode.id}`,
			};
		},
	);

	await step(
		[
			`${RATE} leads a second for ${STREAM_SECONDS} s`,
			KILLS_AT.length > 0 && `n8n SIGKILLed and restarted at ${KILLS_AT.join(', ')} s`,
			LOCKS_AT.length > 0 && `SQLite write-locked ${LOCK_SECONDS} s at ${LOCKS_AT.join(', ')} s`,
			'each fault at its time or, behind a slow restart, once n8n served 2 s, while events are owed',
		]
			.filter(Boolean)
			.join('; '),
		async () => {
			const t0 = Date.now();
			t0Ms = t0;
			endBusyLoops = busyLoops(BUSY_LOOPS);
			stoppers.push(endBusyLoops);
			const at = (s) => sleep(Math.max(0, t0 + s * 1000 - Date.now()));
			const faults = [];
			const restarts = [];
			/** Resolves once the current n8n has served `seconds` since it was ready; false if it exited. */
			const servingFor = async (seconds) => {
				const serving = n8n;
				const took = await serving.ready.catch(() => undefined);
				if (took === undefined) return false; // it exited while starting: see serving() below
				await sleep(Math.max(0, serving.spawnedAt + (took + seconds) * 1000 - Date.now()));
				return n8n === serving;
			};
			/** One restart per n8n that exited while starting, whoever notices it first. */
			const restartedAfter = new Map();
			let supervisorRestarts = 0;
			/**
			 * Resolves once an n8n has served SERVING_SECONDS: a fault always strikes a serving n8n, never
			 * skipped. An n8n that exited while starting (n8n 2.41 on a locked database) is started again, as
			 * a supervisor would.
			 */
			const serving = async () => {
				for (;;) {
					const current = n8n;
					if (await servingFor(SERVING_SECONDS)) return;
					if (n8n !== current) continue; // replaced meanwhile: wait for the new one
					if (current.killed) {
						await sleep(100); // a planned kill: its restart comes from killAndRestart
						continue;
					}
					if (!restartedAfter.has(current)) {
						supervisorRestarts++;
						if (supervisorRestarts > 3) throw new Error('n8n exited while starting 4 times');
						restartedAfter.set(current, start());
					}
					await restartedAfter.get(current);
				}
			};
			/**
			 * Records a fault as it strikes. It proves something only while the service still owes n8n
			 * deliveries (a slow restart can push a fault past the stream): one that finds every event
			 * answered fails the check, naming it.
			 */
			const struck = async (what) => {
				const atSeconds = ((Date.now() - t0) / 1000).toFixed(1);
				const { pending } = await deliveriesOutstanding(
					sandbox,
					[endpoints.trigger],
					STREAM_EVENTS,
				);
				if (pending === 0)
					throw new Error(
						`${what} at ${atSeconds} s struck when the service owed n8n no delivery (faults before it: ${faults.join(', ') || 'none'})`,
					);
				faults.push(`${what} at ${atSeconds} s (${pending} events owed)`);
			};
			/** SIGKILLs the running n8n and starts it again, as a supervisor would. */
			const killAndRestart = async (what) => {
				const victim = n8n;
				victim.killed = true;
				process.kill(-victim.pid, 'SIGKILL');
				await victim.exited;
				await struck(what);
				const since = Date.now();
				const restarted = await start();
				// Handled at once: a start killed before it is ready rejects, and that is expected here.
				restarts.push(
					restarted.ready.then(
						() => `${((Date.now() - since) / 1000).toFixed(1)} s`,
						() => 'killed while starting',
					),
				);
			};
			// Killed while it serves deliveries (n8n 2.41 re-runs at start what a kill left stored and
			// unrun), and some restarts again while they start. Each kill waits for a serving n8n: none is
			// skipped.
			const kills = (async () => {
				let startingKills = STARTING_KILLS;
				for (const s of KILLS_AT) {
					await at(s);
					await serving();
					await killAndRestart('kill while serving');
					if (startingKills-- > 0) {
						await sleep(1000);
						await killAndRestart('kill while starting');
					}
				}
			})();
			const locks = (async () => {
				for (const s of LOCKS_AT) {
					await at(s);
					await serving();
					let struckLock;
					await lockDatabase(userFolder, LOCK_SECONDS * 1000, () => {
						struckLock = struck('lock');
					});
					await struckLock;
				}
			})();
			let faultsOver = false;
			const faultsDone = Promise.all([kills, locks]).finally(() => {
				faultsOver = true;
			});
			const created = [];
			for (let i = 0; i < STREAM_EVENTS; i++) {
				await at(i / RATE);
				created.push(sandbox.client.api('POST', '/v1/leads', { email: `fault-${i}@example.com` }));
			}
			await Promise.all(created);
			// A fault that comes after the stream (behind a slow restart) meets the service's retries: those
			// due run early once n8n serves, so deliveries arrive when it strikes, as in the stream.
			while (!faultsOver) {
				if (await answersReady(baseUrl))
					await sandbox.client.control('POST', '/_sandbox/deliveries/retry-now', { max: RATE });
				await Promise.race([faultsDone.catch(() => {}), sleep(1000)]);
			}
			await faultsDone;
			// n8n 2.41 exits when its database is locked while it starts: restarted, as a supervisor would.
			for (;;) {
				const current = n8n;
				try {
					await current.ready;
					break;
				} catch (error) {
					if (++supervisorRestarts > 3) throw error;
					await start();
				}
			}
			const back = await Promise.all(restarts);
			return {
				detail: [
					`${created.length} leads`,
					back.length > 0 && `n8n restarts ready after ${back.join(', ')}`,
					faults.length > 0 && faults.join(', '),
					`restarted after it exited while starting: ${supervisorRestarts}`,
				]
					.filter(Boolean)
					.join('; '),
			};
		},
	);

	const log = await step(
		'wait until the service stopped retrying (every event acknowledged or out of attempts)',
		async () => {
			const entries = await waitForServiceDone(
				sandbox,
				[endpoints.trigger, endpoints.webhookNode],
				STREAM_EVENTS,
				{ receiverUp: () => answersReady(baseUrl) },
			);
			endBusyLoops();
			return Object.assign(entries, { detail: `${entries.length} attempts` });
		},
	);

	/** The event ids in the items that reached the workflow's last node (n8n stores run data flatted). */
	const flatted = n8nRequire('flatted');
	const reachedNoOp = (text) => {
		try {
			return eventIdsIn(JSON.stringify(flatted.parse(text).resultData.runData['No Op'] ?? []));
		} catch {
			return undefined;
		}
	};
	const stored = async (workflowId) =>
		(
			await queryDb(
				userFolder,
				'SELECT e.id, e.status, e.createdAt, e.startedAt, e.stoppedAt, d.data FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id WHERE e.workflowId = ? ORDER BY e.id',
				[workflowId],
			)
		).map((row) => ({ ...row, reached: reachedNoOp(row.data) }));
	await step('wait until n8n stored every execution', async () => {
		const rows = await waitForExecutionsSettled(() =>
			queryDb(userFolder, 'SELECT id, status FROM execution_entity'),
		);
		return { detail: `${rows.length} executions` };
	});

	await step(
		"each event acknowledged to the trigger ran (0 lost); duplicates beside the Webhook node's",
		async () => {
			const triggerLog = log.filter((d) => d.endpoint_id === endpoints.trigger);
			const triggerExecutions = await stored(TRIGGER_WORKFLOW);
			const trigger = eventFigures(triggerLog, triggerExecutions);
			// What a duplicate came from: each attempt (sent, answer) and each execution n8n stored.
			for (const id of trigger.twiceSucceededIds.slice(0, 5).map((text) => text.split(' ')[0]))
				print(describeEvent(id, triggerLog, triggerExecutions, t0Ms));
			const webhookNode = eventFigures(
				log.filter((d) => d.endpoint_id === endpoints.webhookNode),
				await stored(WEBHOOK_WORKFLOW),
			);
			print(describeFigures('Content Marketing Trigger', trigger));
			print(describeFigures("n8n's Webhook node", webhookNode));
			assert(
				trigger.events === STREAM_EVENTS,
				`${trigger.events} events reached the trigger's endpoint`,
			);
			assert(
				trigger.twiceSucceeded <= KILLED_TWICE_SHARE * trigger.events,
				`${trigger.twiceSucceeded} of ${trigger.events} events ran to success twice, more than ${KILLED_TWICE_SHARE * 100} %: ${trigger.twiceSucceededIds.slice(0, 5).join('; ')}`,
			);
			assert(
				trigger.lostAnswered.length === 0 && trigger.neverAcknowledged === 0,
				`the trigger lost ${trigger.lost - trigger.lostToStartup} events: ${trigger.lostAnswers.slice(0, 5).join('; ')}; ${trigger.lostAnswered.slice(0, 3).join('; ')}`,
			);
			return {
				detail: `trigger: lost ${trigger.lost - trigger.lostToStartup} (+${trigger.lostToStartup} to n8n's start-up 200), to success twice ${trigger.twiceSucceeded}/${trigger.events} (started twice ${trigger.twice}); Webhook node: lost ${webhookNode.lost - webhookNode.lostToStartup} (+${webhookNode.lostToStartup}), to success twice ${webhookNode.twiceSucceeded}/${webhookNode.events} (started twice ${webhookNode.twice})`,
			};
		},
	);
} catch (error) {
	failed = true;
	print(`FAILED${error.step ? ` at "${error.step}"` : ''}: ${error.message}`);
} finally {
	while (stoppers.length) {
		try {
			await stoppers.pop()();
		} catch (error) {
			print(`cleanup: ${error.message}`);
		}
	}
	fs.rmSync(tmp, { recursive: true, force: true });
}
print(
	`${failed ? 'FAILED' : 'passed'}: n8n ${N8N_VERSION}, one process (SQLite), ${seconds().toFixed(1)} s`,
);
process.exit(failed ? 1 : 0);
