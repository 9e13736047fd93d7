// npm run test:e2e: the package inside a real n8n against the sandbox, end to end, on every n8n
// release in N8N_VERSIONS (2.8.4 on this Node, the newest 2.41.x on Node 24 from npm).
//
//   node scripts/e2e/check.mjs                  # every release: install if needed, build once, check
//   node scripts/e2e/check.mjs --n8n=2.41.3     # one release
//
// The parent installs each release and builds the package, then runs this same file once per
// release in a child process on the Node that runs that n8n (E2E_N8N_VERSION says which), so the
// helpers read n8n's own sqlite3 and files with the right Node. Exits non-zero, naming the release
// and the failed step, on any failure.
//
// A check is a module whose default export may have `prepare(ctx)` (sandbox and SMTP sink up: returns
// `{ credentials, workflows }` to import with the examples'), `manually(ctx)` (nothing published yet:
// ctx.runWorkflow(id) runs a workflow from its Manual Trigger, as the editor's "Execute workflow" does;
// n8n.mjs runManually), `publish(ctx)` (ctx.publish(id) publishes a workflow as the editor's Publish
// button does, n8n running; n8n.mjs publishRunning) and `whileRunning(ctx)` (the published workflows
// live: ctx.n8n), each running its own `ctx.step(title, fn)`s; ctx = { stack, step, n8n, runWorkflow,
// publish }. Hooks run in the order of CHECKS, all in one `n8n start`. The manual runs come while no
// trigger is active: the leads they create start no execution of a published workflow, which the live
// checks count. The workflows are saved in that n8n before the hooks (stack.saveWorkflows). Activation
// at n8n's start is the poll trigger check's restart here, the fault check's restarts and the queue
// check's restart of its main (scripts/e2e/README.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureChromium } from './check-editor.mjs';
import { checkExampleParameters } from './check-parameters.mjs';
import { startServer } from './check-trigger.mjs';
import { N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { publishRunning, runManually } from './n8n.mjs';
import { ensureNode24 } from '../node24.mjs';
import { createProgress } from './progress.mjs';
import { chosenVersions, runEveryRelease } from './releases.mjs';
import { createStack } from './stack.mjs';

const ALL_CHECKS = [
	'./check-manual-examples.mjs', // the Manual-Trigger examples, headless
	'./check-bulk-faults.mjs', // bulk Lead › Create under a 429 storm, headless: each lead once
	'./check-trigger.mjs', // the webhook trigger example live, and its test URL
	'./check-mcp.mjs', // tool variants behind n8n's MCP Server Trigger, driven by an MCP client
	'./check-http-request-credential.mjs', // the credential in the HTTP Request node
	'./check-editor.mjs', // what the editor shows, in headless Chromium
	'./check-poll-trigger.mjs', // the poll trigger (last: it restarts n8n)
];

// E2E_CHECKS=editor,mcp runs only those checks (file names without check- and .mjs), for the dev loop
const ONLY = process.env.E2E_CHECKS?.split(',');
const named = (file) => path.basename(file, '.mjs').replace(/^check-/, '');
const CHECKS = ALL_CHECKS.filter((file) => !ONLY || ONLY.includes(named(file)));
// A name that matches no check would run nothing and still pass: it fails, naming the known ones.
const unknownChecks = (ONLY ?? []).filter(
	(name) => name !== 'poll-schedulers' && !ALL_CHECKS.some((file) => named(file) === name),
);
if (unknownChecks.length > 0) {
	console.error(
		`E2E_CHECKS names no check: ${unknownChecks.map((name) => JSON.stringify(name)).join(', ')}; the checks are ${[...ALL_CHECKS.map(named), 'poll-schedulers'].join(', ')}`,
	);
	process.exit(1);
}

const thisFile = fileURLToPath(import.meta.url);

/** Runs every check on the release this process was started for (E2E_N8N_VERSION). */
async function checkOneRelease() {
	// per worktree (never a shared folder): two checkouts may run the check at the same time
	const userFolder = path.join(PROJECT_ROOT, '.tmp', `e2e-n8n-${N8N_VERSION}`);
	const progress = createProgress({ prefix: `e2e ${N8N_VERSION}` });
	const { step } = progress;
	const stack = createStack({ userFolder });
	const checks = await Promise.all(CHECKS.map(async (file) => (await import(file)).default));
	const ctx = { stack, step, n8n: undefined, runWorkflow: undefined };

	let failure;
	try {
		await stack.setUp({
			step,
			build: process.env.E2E_PACKAGE_BUILT !== '1',
			afterBuild: () =>
				step(
					'example workflows use node types, versions and parameters that exist',
					checkExampleParameters,
				),
			moreImports: async () => {
				const more = { credentials: [], workflows: [] };
				for (const check of checks) {
					const { credentials = [], workflows = [] } = (await check.prepare?.(ctx)) ?? {};
					more.credentials.push(...credentials);
					more.workflows.push(...workflows);
				}
				return more;
			},
			workflowsOnceRunning: true,
		});
		const n8n = await step('n8n start, nothing published', () => startServer(stack));
		await stack.saveWorkflows(n8n);
		ctx.runWorkflow = (id) => runManually(n8n, stack.userFolder, id);
		for (const check of checks) await check.manually?.(ctx);
		ctx.runWorkflow = undefined;
		ctx.n8n = n8n;
		ctx.publish = (id) => publishRunning(n8n, id);
		for (const check of checks) await check.publish?.(ctx);
		ctx.publish = undefined;
		for (const check of checks) await check.whileRunning?.(ctx);
	} catch (error) {
		failure = error;
	} finally {
		await step('stop n8n, the SMTP sink and the sandbox', () => stack.close()).catch((error) => {
			failure ??= error;
		});
	}

	const total = progress.seconds().toFixed(1);
	if (failure) {
		console.error(
			`\ne2e FAILED in step "${failure.step ?? 'unknown'}" after ${total} s (n8n ${N8N_VERSION}):\n${failure.stack ?? failure}`,
		);
		process.exitCode = 1;
	} else {
		const passed = progress.steps.filter((s) => s.ok).length;
		console.log(
			`\ne2e passed: ${passed} steps on n8n ${N8N_VERSION} (Node ${process.versions.node}) in ${total} s`,
		);
	}
}

const POLL_SCHEDULERS_RELEASE = '2.41.3';

if (process.env.E2E_N8N_VERSION) {
	await checkOneRelease();
} else {
	await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older
	const versions = chosenVersions();
	process.exitCode = await runEveryRelease({
		script: thisFile,
		versions,
		prefix: 'e2e',
		// each child: its own sandbox, user folder and ports
		sideBySide: true,
		// once, before the children: two apt-get runs at once fail on dpkg's lock (a fresh machine)
		before: CHECKS.some((file) => named(file) === 'editor')
			? {
					title: "Chromium for the editor check (Debian's package, apt-get when missing)",
					run: () => ({ detail: ensureChromium() }),
				}
			: undefined,
		// the poll trigger at a minute per poll: its own n8n processes, sandboxes and ports
		alongside:
			versions.includes(POLL_SCHEDULERS_RELEASE) && (!ONLY || ONLY.includes('poll-schedulers'))
				? [
						{
							what: 'poll trigger, n8n 2.41.3 schedulers',
							script: path.join(path.dirname(thisFile), 'check-poll-schedulers.mjs'),
						},
					]
				: [],
	});
}
