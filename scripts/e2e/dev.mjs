// npm run dev:n8n: the e2e setup left running for hands-on work. n8n (editor), the sandbox and the
// SMTP sink stay up with the package, the credentials and every example imported (the trigger
// example published); e-mails the sink receives are printed. Ctrl+C stops everything.
// Ports: N8N_PORT (default 5678) and SANDBOX_PORT (default 4010, the examples' default), or free ones.
//
// npm run dev (--n8n-node-dev): the same around n8n's CLI, as the n8n-nodes-starter runs it: `n8n-node dev
// --external-n8n` links the project root into the user folder's custom/ folder and runs `tsc --watch`
// (scripts/e2e/node-cli-dev.mjs); n8n from the cache folder runs with the environment the CLI gives its own n8n
// (N8N_DEV_RELOAD=true, DB_SQLITE_POOL_SIZE=10) and reloads the nodes after each compile. n8n names the
// nodes it loads from custom/ `CUSTOM.*`, so the examples are imported with those types
// (CONTRIBUTING.md, "n8n's CLI").
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { readExample, WORKFLOWS } from './examples.mjs';
import { N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { E2E_OWNER, ownerCookie } from './n8n.mjs';
import { startNodeCliDev } from './node-cli-dev.mjs';
import { publishTrigger, startServer } from './check-trigger.mjs';
import { createProgress } from './progress.mjs';
import { createStack } from './stack.mjs';
import { CACHE_DIR, OLD_CACHE_DIR, shownPath } from '../cache-dir.mjs';
import { checkCustomLoaderFiles } from '../custom-loader-files.mjs';
import { ensureNode24 } from '../node24.mjs';

// `kill <npm's pid>`: npm passes SIGTERM to its `sh -c`, which dies without passing it on, and this process
// is left to init. It stops when its parent goes, as on a signal (both Nodes: this runs before the re-run).
const parent = process.ppid;
const orphanWatch = setInterval(() => {
	if (process.ppid === parent) return;
	clearInterval(orphanWatch);
	process.kill(process.pid, 'SIGTERM');
}, 1000).unref();

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const viaCli = process.argv.includes('--n8n-node-dev');
/**
 * n8n-node dev's user folder must lie outside the project: n8n's custom loader walks the linked project,
 * dot folders included, following links, so a user folder below it (holding the link back to the project)
 * makes the walk endless (measured: n8n stuck at loading the nodes for 200 s; fast-glob out of memory
 * after 3 min 40 s). One folder per checkout in the system's temporary folder, fresh at every run.
 */
function nodeCliUserFolder() {
	const hash = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8);
	const folder = path.join(os.tmpdir(), `n8n-nodes-content-marketing-dev-${hash}`);
	const project = fs.realpathSync(PROJECT_ROOT) + path.sep;
	fs.mkdirSync(folder, { recursive: true });
	if ((fs.realpathSync(folder) + path.sep).startsWith(project))
		throw new Error(
			`${folder} is inside the project (TMPDIR): n8n would never finish loading the nodes`,
		);
	return folder;
}
const userFolder = viaCli ? nodeCliUserFolder() : path.join(PROJECT_ROOT, '.tmp', 'dev-n8n');

/** The cache inside the project (older checkouts): n8n walks its n8n installs at every reload. */
function warnOldCache() {
	const fix = fs.existsSync(CACHE_DIR)
		? 'remove it (rm -rf .cache)'
		: `move it where the scripts look now (mv .cache ${CACHE_DIR})`;
	console.warn(
		`\nwarning: .cache/ in the project (an older checkout's n8n installs) slows every hot reload, as n8n walks it (12-24 s instead of 5-6 s measured, CONTRIBUTING.md): ${fix}\n`,
	);
}

function portIsFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

async function preferredPort(wanted) {
	return (await portIsFree(wanted)) ? wanted : 0;
}

function printMessage(message) {
	const line = '-'.repeat(72);
	console.log(
		`\n${line}\nmail to ${message.envelope.to.join(', ')}: ${message.subject}\n${line}\n${message.text}\n${line}`,
	);
}

/** n8n's log lines a developer wants to see while the CLI rebuilds: the reloads and the errors. */
function printN8nLines(text) {
	for (const line of text.split('\n'))
		if (/Hot reload|\berror\b/i.test(line)) console.log(`[n8n] ${line.trim()}`);
}

const { step } = createProgress({ prefix: 'dev' });
const stack = createStack({ userFolder });
// Ctrl+C / SIGTERM / SIGHUP, at any step: n8n.mjs stops the n8n processes (its handler runs beside this
// one) and exits; this stops the rest (n8n-node dev, the sandbox, the SMTP sink). Listening for good:
// the same signal again (a terminal's Ctrl+C reaches this process and the Node 20 one that forwards it)
// must not kill this process before it is done.
let interrupted;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
	process.on(signal, () => {
		if (interrupted) return;
		interrupted = signal;
		console.log(
			`\n${signal}: stopping ${viaCli ? 'n8n-node dev, ' : ''}n8n, the sandbox and the SMTP sink`,
		);
		void stack
			.close()
			.catch(() => {})
			.finally(() => process.exit(128 + os.constants.signals[signal]));
	});
// what `n8n-node dev` sets for the n8n it starts (hot reload needs NODE_ENV unset: n8n's inDevelopment)
if (viaCli) Object.assign(stack.n8nEnv, { N8N_DEV_RELOAD: 'true', DB_SQLITE_POOL_SIZE: '10' });
let cli;
try {
	await stack.setUp({
		step,
		sandboxPort: await preferredPort(Number(process.env.SANDBOX_PORT) || 4010),
		onMessage: printMessage,
		customFolder: viaCli,
		// n8n loads every *.node.js / *.credentials.js below the linked project: none but ours may exist
		afterBuild: viaCli
			? () =>
					step('only our nodes and credentials for n8n to load in the project', () => {
						const result = checkCustomLoaderFiles(PROJECT_ROOT);
						if (!result.passed) throw new Error(`${result.message}\n${result.details}`);
						if (fs.existsSync(OLD_CACHE_DIR)) warnOldCache();
					})
			: undefined,
	});
	await step('publish the trigger example', () => publishTrigger(stack));
	if (viaCli) {
		cli = await step(
			'n8n-node dev --external-n8n (links the project into custom/, tsc --watch)',
			async () => {
				const started = startNodeCliDev({
					userFolder,
					onLine: (line) => console.log(`[n8n-node dev] ${line}`),
				});
				stack.onClose(() => started.stop());
				const errors = await started.compiled;
				return Object.assign(started, { detail: `first compile: ${errors} error(s)` });
			},
		);
	}
	const n8n = await step('n8n start', async () =>
		startServer(stack, {
			port: (await preferredPort(Number(process.env.N8N_PORT) || 5678)) || undefined,
			onOutput: viaCli ? printN8nLines : undefined,
		}),
	);
	await ownerCookie(n8n.baseUrl);

	const { sandbox, smtp } = stack;
	console.log(
		[
			'',
			`n8n ${N8N_VERSION} editor:   ${n8n.baseUrl}/   (log in as ${E2E_OWNER.email} / ${E2E_OWNER.password})`,
			`sandbox:             ${sandbox.url}   (API under /v1, control under /_sandbox)`,
			...Object.entries(sandbox.keys).map(([role, key]) => `  key ${role.padEnd(24)} ${key}`),
			`SMTP sink:           127.0.0.1:${smtp.port}   (mails are printed here)`,
			`user folder:         ${shownPath(userFolder)}`,
			...(viaCli
				? [
						`nodes:               CUSTOM.contentMarketing, ... from ${shownPath(userFolder)}/.n8n/custom/node_modules/ (the project, linked by n8n-node dev)`,
						'                     n8n reloads them after each compile of tsc --watch (about 5 s after a save here; npm run test:e2e:dev times it): reopen the node to see it',
					]
				: []),
			'workflows:',
			...Object.entries(WORKFLOWS).map(
				([key, { id }]) => `  ${n8n.baseUrl}/workflow/${id}   ${readExample(key).name}`,
			),
			'',
			`Try: curl -s -X POST ${sandbox.url}/v1/leads -H 'Authorization: Bearer ${sandbox.keys.full}' \\`,
			`       -H 'Content-Type: application/json' -d '{"email":"new.lead@acme.example","name":"New Lead","company":"Acme"}'`,
			'',
			`Ctrl+C stops ${viaCli ? 'n8n-node dev, ' : ''}n8n, the sandbox and the SMTP sink.`,
		].join('\n'),
	);

	const { name, code, signal } = await Promise.race([
		n8n.exited.then((result) => ({ name: 'n8n', ...result })),
		...(cli ? [cli.exited.then((result) => ({ name: 'n8n-node dev', ...result }))] : []),
	]);
	if (!interrupted) {
		console.error(`${name} exited (${signal ?? code}); stopping everything else`);
		process.exitCode = 1;
	}
} catch (error) {
	console.error(`\ndev FAILED in step "${error.step ?? 'unknown'}":\n${error.stack ?? error}`);
	process.exitCode = 1;
} finally {
	await stack.close().catch(() => {});
}
