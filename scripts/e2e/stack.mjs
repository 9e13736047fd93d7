// What the e2e check and `npm run dev:n8n` share: n8n installed, the package built, the sandbox and
// the SMTP sink running, and a fresh n8n user folder with our package, the credentials and every
// example workflow imported. close() stops whatever was started, in reverse order.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
	credentialsFor,
	n8nFileAccessEnv,
	withCustomNodeTypes,
	workflowsFor,
} from './examples.mjs';
import { installN8n, N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { importJson, prepareUserFolder, saveWorkflowsRunning } from './n8n.mjs';
import { startSandboxInProcess } from './sandbox.mjs';
import { startSmtpSink } from './smtp-sink.mjs';

const BUILT_NODES = [
	'dist/nodes/ContentMarketing/ContentMarketing.node.js',
	'dist/nodes/ContentMarketing/ContentMarketingTrigger.node.js',
	'dist/credentials/ContentMarketingApi.credentials.js',
];

export function buildPackage() {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'build.mjs')], {
			cwd: PROJECT_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('error', reject);
		child.on('exit', (code) => {
			if (code !== 0)
				return reject(new Error(`node scripts/build.mjs exited with ${code}\n${output.trim()}`));
			const missing = BUILT_NODES.filter((rel) => !fs.existsSync(path.join(PROJECT_ROOT, rel)));
			if (missing.length)
				return reject(new Error(`the build did not produce ${missing.join(', ')}`));
			resolve();
		});
	});
}

export function createStack({ userFolder }) {
	const closers = [];
	const stack = {
		userFolder,
		/** Environment for every n8n command on this folder (file access for the CSV example). */
		n8nEnv: { ...n8nFileAccessEnv },
		sandbox: undefined,
		smtp: undefined,

		/**
		 * `afterBuild`: steps to run once dist/ is fresh, before anything is started. `build: false`
		 * when the caller has just built the package. `moreImports()`: `{ credentials, workflows }` to
		 * import with the examples' (one CLI command each: every n8n command costs seconds).
		 * `customFolder: true`: the package is not installed into the user folder (`n8n-node dev` links
		 * the project into its custom/ folder instead) and the examples name our nodes `CUSTOM.*`.
		 * `workflowsOnceRunning: true`: the workflows are not imported; the caller saves them with
		 * `stack.saveWorkflows(n8n)` once its n8n runs (no n8n command for them).
		 */
		async setUp({
			customFolder = false,
			step,
			sandboxPort = 0,
			smtpPort = 0,
			onMessage,
			afterBuild,
			build = true,
			moreImports,
			workflowsOnceRunning = false,
		}) {
			await step(`install n8n ${N8N_VERSION} if needed`, async () => {
				const { skipped, seconds } = await installN8n();
				return { detail: skipped ? 'already installed' : `installed in ${seconds.toFixed(1)} s` };
			});
			if (build) await step('build the package (node scripts/build.mjs)', buildPackage);
			await afterBuild?.();

			stack.sandbox = await step('start the sandbox with the demo data', async () => {
				const sandbox = await startSandboxInProcess({ port: sandboxPort, seedDemo: true });
				closers.push(() => sandbox.close());
				return Object.assign(sandbox, { detail: sandbox.url });
			});
			stack.smtp = await step('start the SMTP sink', async () => {
				const smtp = await startSmtpSink({ port: smtpPort, onMessage });
				closers.push(() => smtp.close());
				return Object.assign(smtp, { detail: `127.0.0.1:${smtp.port}` });
			});

			if (customFolder) {
				await step('prepare a fresh n8n user folder (the package comes from n8n-node dev)', () => {
					fs.rmSync(userFolder, { recursive: true, force: true });
					fs.mkdirSync(userFolder, { recursive: true });
					return { detail: userFolder };
				});
			} else {
				await step('prepare a fresh n8n user folder with the built package', async () => {
					const installed = prepareUserFolder(userFolder, { clean: true });
					return {
						detail: `${path.relative(PROJECT_ROOT, installed.installDir)} (${installed.files.length} entries)`,
					};
				});
			}
			const opts = { userFolder, env: stack.n8nEnv };
			const more = (await moreImports?.()) ?? {};
			await step(
				'import the credentials (Content Marketing -> sandbox, SMTP -> sink)',
				async () => {
					const credentials = [
						...credentialsFor({
							sandboxUrl: stack.sandbox.url,
							apiKey: stack.sandbox.keys.full,
							smtpPort: stack.smtp.port,
						}),
						...(more.credentials ?? []),
					];
					await importJson('import:credentials', credentials, opts);
					return { detail: credentials.map((c) => c.id).join(', ') };
				},
			);
			const workflows = [
				...workflowsFor({ sandboxUrl: stack.sandbox.url }),
				...(more.workflows ?? []),
			].map((workflow) => (customFolder ? withCustomNodeTypes(workflow) : workflow));
			if (workflowsOnceRunning)
				stack.saveWorkflows = (n8n) =>
					step("save the example workflows (the editor's REST API)", async () => ({
						detail: (await saveWorkflowsRunning(n8n, workflows)).join(', '),
					}));
			else
				await step('import the example workflows', async () => {
					await importJson('import:workflow', workflows, opts);
					return { detail: workflows.map((w) => w.id).join(', ') };
				});
			return stack;
		},

		/** Registers a cleanup to run at close() (before the ones registered earlier). */
		onClose(fn) {
			closers.push(fn);
		},

		async close() {
			const errors = [];
			while (closers.length) {
				try {
					await closers.pop()();
				} catch (error) {
					errors.push(error);
				}
			}
			if (errors.length) throw errors[0];
		},
	};
	return stack;
}
