// npm run dev:n8n: the e2e setup left running for hands-on work. n8n (editor), the sandbox and the
// SMTP sink stay up with the package, the credentials and every example imported (the trigger
// example published); e-mails the sink receives are printed. Ctrl+C stops everything.
// Ports: N8N_PORT (default 5678) and SANDBOX_PORT (default 4010, the examples' default), or free ones.
//
// npm run dev (--hot-reload): the same, as `n8n-node dev` would run it: n8n with N8N_DEV_RELOAD=true and
// `tsc --watch`; each compile is copied into the installed package, which n8n reloads and pushes to the
// editor (reopen the node). Why not `n8n-node dev` itself: CONTRIBUTING.md, "n8n's CLI".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

import { readExample, WORKFLOWS } from './examples.mjs';
import { N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { E2E_OWNER, ownerCookie } from './n8n.mjs';
import { publishTrigger, startServer } from './check-trigger.mjs';
import { createProgress } from './progress.mjs';
import { createStack } from './stack.mjs';
import { ensureNode24 } from '../node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const userFolder = path.join(PROJECT_ROOT, '.cache', 'e2e-dev');

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

const hotReload = process.argv.includes('--hot-reload');
const installedPackage = path.join(
	userFolder,
	'.n8n',
	'nodes',
	'node_modules',
	'n8n-nodes-content-marketing',
);

/** `tsc --watch` (as n8n-node dev runs it); after each compile dist/ is copied into the installed package. */
function watchAndCopy(stack) {
	const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
	const child = spawn(
		process.execPath,
		[tsc, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'],
		{
			cwd: PROJECT_ROOT,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	stack.onClose(() => child.kill());
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (text) => {
		for (const line of text.split('\n')) if (line.trim()) console.log(`[tsc] ${line.trim()}`);
		// "Found 0 errors. Watching for file changes.": copy; with errors, keep the last good copy
		if (/Found 0 errors/.test(text)) {
			fs.cpSync(path.join(PROJECT_ROOT, 'dist'), path.join(installedPackage, 'dist'), {
				recursive: true,
			});
			console.log(
				'[dev] dist/ copied into the installed package: n8n reloads it (reopen the node)',
			);
		}
	});
}

const { step } = createProgress({ prefix: 'dev' });
const stack = createStack({ userFolder });
// n8n's hot reload of community packages (inDevelopment: NODE_ENV unset), as `n8n-node dev` sets it
if (hotReload) stack.n8nEnv.N8N_DEV_RELOAD = 'true';
try {
	await stack.setUp({
		step,
		sandboxPort: await preferredPort(Number(process.env.SANDBOX_PORT) || 4010),
		onMessage: printMessage,
	});
	await step('publish the trigger example', () => publishTrigger(stack));
	const n8n = await step('n8n start', async () =>
		startServer(stack, {
			port: (await preferredPort(Number(process.env.N8N_PORT) || 5678)) || undefined,
		}),
	);
	await ownerCookie(n8n.baseUrl);
	if (hotReload) watchAndCopy(stack);

	const { sandbox, smtp } = stack;
	console.log(
		[
			'',
			`n8n ${N8N_VERSION} editor:   ${n8n.baseUrl}/   (log in as ${E2E_OWNER.email} / ${E2E_OWNER.password})`,
			`sandbox:             ${sandbox.url}   (API under /v1, control under /_sandbox)`,
			...Object.entries(sandbox.keys).map(([role, key]) => `  key ${role.padEnd(24)} ${key}`),
			`SMTP sink:           127.0.0.1:${smtp.port}   (mails are printed here)`,
			`user folder:         ${path.relative(PROJECT_ROOT, userFolder)}`,
			'workflows:',
			...Object.entries(WORKFLOWS).map(
				([key, { id }]) => `  ${n8n.baseUrl}/workflow/${id}   ${readExample(key).name}`,
			),
			'',
			`Try: curl -s -X POST ${sandbox.url}/v1/leads -H 'Authorization: Bearer ${sandbox.keys.full}' \\`,
			`       -H 'Content-Type: application/json' -d '{"email":"new.lead@acme.example","name":"New Lead","company":"Acme"}'`,
			'',
			'Ctrl+C stops n8n, the sandbox and the SMTP sink.',
		].join('\n'),
	);

	// n8n.mjs stops n8n on these signals and exits; this only tells an interrupt from a crash
	let interrupted = false;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
		process.once(signal, () => (interrupted = true));
	const { code, signal } = await n8n.exited;
	if (interrupted) {
		console.log('\nstopping n8n, the sandbox and the SMTP sink');
	} else {
		console.error(`n8n exited (${signal ?? code}); stopping the sandbox and the SMTP sink`);
		process.exitCode = 1;
	}
} catch (error) {
	console.error(`\ndev FAILED in step "${error.step ?? 'unknown'}":\n${error.stack ?? error}`);
	process.exitCode = 1;
} finally {
	await stack.close().catch(() => {});
}
