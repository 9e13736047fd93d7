// npm run test:e2e:install: the README's manual install, run as written, then used by a real n8n.
//
//   node scripts/e2e/check-manual-install.mjs
//
// 1. `npm pack` of the built package; the README's manual-install code block (under "Installation"),
//    with the tarball's path in place of the package name, run by bash in a fresh home folder (a temporary
//    folder outside the project: npm installs into the nearest folder up with a package.json) with the npm
//    of each Node line n8n 2.8.4 and 2.41.3 run on: Node 20 (npm 10; end of life since 2026-04-30, still
//    in n8n 2.8.4's engines), 22 (npm 10) and 24 (npm 11), from scripts/node-releases.mjs. Each must add
//    exactly one package to ~/.n8n/nodes/node_modules (and to its package-lock.json), with no n8n-workflow
//    anywhere below it and none that Node can resolve from the package's files. (`--omit=peer` fails this:
//    npm 10 still resolves the peer's whole tree from the registry into the lockfile and leaves empty
//    scope folders; `--legacy-peer-deps` neither installs nor resolves peers.)
// 2. Node 20 loads the installed nodes and credential (require with n8n 2.8.4's node_modules on NODE_PATH,
//    as n8n does, see 3.): what the package's engines (>=20.19) promise.
// 3. n8n 2.8.4 on Node 22 (its own install, n8n-2.8.4-node22/ in the cache folder: sqlite3 is built for
//    that Node) with the folder Node 22's npm installed into, and n8n 2.41.3 on Node 24 with Node 24's:
//    `n8n execute` of Manual Trigger → Content Marketing Lead › Get Many against the sandbox; the output
//    must be the sandbox's leads. A preloaded hook (NODE_OPTIONS=--require) records each `n8n-workflow`
//    our files load: it must be n8n's own copy (n8n puts its module paths on NODE_PATH before it loads
//    community packages, load-nodes-and-credentials.js).
//
// Prints each step's time and what it found; exits 1 naming the failed step. Warm (everything installed):
// about a minute on 2 cores. Cold, the n8n 2.8.4 install for Node 22 adds about 2 minutes once (pnpm from
// the shared store, sqlite3 compiled for Node 22).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { installNodeRelease } from '../node-releases.mjs';
import { ensureNode24 } from '../node24.mjs';
import { CREDENTIALS, PACKAGE_NAME } from './examples.mjs';
import { installN8n, N8N_DIR, N8N_VERSION, n8nRuntime, PROJECT_ROOT } from './install-n8n.mjs';
import { executeWorkflow, importJson, n8nDataDir, nodeOutput } from './n8n.mjs';
import { createProgress } from './progress.mjs';
import { buildPackage } from './stack.mjs';

const thisFile = fileURLToPath(import.meta.url);
const README = path.join(PROJECT_ROOT, 'README.md');

/** npm's lines (Node 20 only for the install and a load: no n8n is run on it). */
const NPM_LINES = [20, 22, 24];
/** Each checked n8n release on the Node line that runs it, with the folder that line's npm installed. */
const RELEASES = [
	{ version: '2.8.4', nodeMajor: 22 },
	{ version: '2.41.3', nodeMajor: 24 },
];

/** The README's manual-install code block: the first fenced block after "**Manual install**". */
export function readmeInstallBlock(markdown = fs.readFileSync(README, 'utf8')) {
	const section = markdown.split(/^## /m).find((part) => part.startsWith('Installation'));
	assert.ok(section, 'README.md has a section "## Installation"');
	const after = section.slice(section.indexOf('**Manual install**'));
	const block = /```(?:bash|sh|shell)?\n([\s\S]*?)```/.exec(after);
	assert.ok(
		section.includes('**Manual install**') && block,
		'README.md: a code block after "**Manual install**"',
	);
	return block[1];
}

/** The block with `tarball` in place of the package name on its `npm install` lines. */
export function withTarball(block, tarball) {
	const lines = block
		.split('\n')
		.map((line) =>
			/^\s*npm (install|i)\b/.test(line)
				? line.replace(new RegExp(`(^|\\s)${PACKAGE_NAME}(?=\\s|$)`), `$1${tarball}`)
				: line,
		);
	assert.ok(
		lines.some((line) => line.includes(tarball)),
		`the README's block installs ${PACKAGE_NAME} with npm install`,
	);
	return lines.join('\n');
}

/** The environment of a user's shell: no npm_config_* of this `npm run`, that Node's npm first on PATH. */
function userEnv(home, binDir) {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(npm_|pnpm_|init_cwd$|node_options$|e2e_)/i.test(key)) continue;
		env[key] = value;
	}
	return {
		...env,
		HOME: home,
		PATH: `${binDir}${path.delimiter}${env.PATH ?? ''}`,
		// offline beside the install itself: no audit or funding requests, no update check
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
	};
}

function run(cmd, args, options) {
	const res = spawnSync(cmd, args, { encoding: 'utf8', ...options });
	if (res.status !== 0)
		throw new Error(
			`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}\n${res.stdout}${res.stderr}`,
		);
	return res;
}

/** Every folder named `name` below `dir` (following no links). */
function findFolders(dir, name, found = []) {
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		if (!entry.isDirectory()) continue;
		const full = path.join(dir, entry.name);
		if (entry.name === name) found.push(full);
		findFolders(full, name, found);
	}
	return found;
}

/** `run` without blocking: the three npm lines install at once (each waits mostly on the registry). */
function runAsync(cmd, args, options) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
		child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code, signal) =>
			code === 0
				? resolve({ stdout, stderr })
				: reject(
						new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}\n${stdout}${stderr}`),
					),
		);
	});
}

/** Runs the README's block with Node `major`'s npm in a fresh home; asserts one package, no n8n-workflow. */
async function installAsWritten(script, major, home) {
	const release = installNodeRelease(major);
	fs.rmSync(home, { recursive: true, force: true });
	fs.mkdirSync(home, { recursive: true });
	const t0 = Date.now();
	const res = await runAsync('bash', ['-euo', 'pipefail', '-c', script], {
		cwd: home,
		env: userEnv(home, release.binDir),
	});
	const seconds = (Date.now() - t0) / 1000;
	const nodesDir = path.join(home, '.n8n', 'nodes');
	const modules = path.join(nodesDir, 'node_modules');
	assert.ok(
		fs.existsSync(modules),
		`Node ${major}: nothing installed into ~/.n8n/nodes\n${res.stderr}`,
	);
	const top = fs.readdirSync(modules).filter((name) => !name.startsWith('.'));
	assert.deepEqual(top, [PACKAGE_NAME], `Node ${major}: exactly one package in node_modules`);
	const lock = JSON.parse(fs.readFileSync(path.join(nodesDir, 'package-lock.json'), 'utf8'));
	assert.deepEqual(
		Object.keys(lock.packages).filter((key) => key !== ''),
		[`node_modules/${PACKAGE_NAME}`],
		`Node ${major}: package-lock.json lists one package`,
	);
	assert.deepEqual(findFolders(modules, 'n8n-workflow'), [], `Node ${major}: no n8n-workflow`);
	const installed = path.join(modules, PACKAGE_NAME);
	// the files' own lookup (node_modules up to /) finds none: only n8n's NODE_PATH can provide it
	const lookup = spawnSync(release.nodeBin, ['-e', "require.resolve('n8n-workflow')"], {
		cwd: path.join(installed, 'dist'),
		env: { PATH: process.env.PATH },
		encoding: 'utf8',
	});
	assert.match(
		lookup.stderr,
		/Cannot find module 'n8n-workflow'/,
		`Node ${major}: n8n-workflow resolves from the installed package without n8n`,
	);
	const added = /added (\d+) packages?/.exec(res.stdout + res.stderr)?.[1];
	return {
		home,
		seconds,
		detail: `npm ${release.npmVersion} on Node ${release.version}: ${added ?? '?'} package added, ${top.join(', ')}, no n8n-workflow (${seconds.toFixed(1)} s)`,
	};
}

/** Node `major` requires every node and credential the installed package declares, n8n's way. */
function loadOnNode(major, home, n8nDir) {
	const release = installNodeRelease(major);
	const installed = path.join(home, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
	const files = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((rel) => path.join(installed, rel));
	const code = `
		const path = require('node:path');
		const names = [];
		for (const file of JSON.parse(process.argv[1])) {
			const className = path.basename(file).split('.')[0];
			const loaded = new (require(file)[className])();
			names.push(loaded.description?.name ?? loaded.name);
		}
		console.log(names.join(', '));`;
	const res = run(release.nodeBin, ['-e', code, JSON.stringify(files)], {
		env: { PATH: process.env.PATH, NODE_PATH: path.join(n8nDir, 'node_modules') },
	});
	return { detail: `Node ${release.version}: ${res.stdout.trim()}` };
}

// ---------------------------------------------------------------------------------------------
// one release, in a child process on the Node that runs it (E2E_N8N_VERSION, E2E_N8N_NODE)

const HOOK = `
const Module = require('node:module');
const fs = require('node:fs');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const resolved = resolve.call(this, request, parent, ...rest);
	if (request === 'n8n-workflow' && parent && /[\\\\/]node_modules[\\\\/]${PACKAGE_NAME}[\\\\/]/.test(parent.filename))
		fs.appendFileSync(process.env.CM_RESOLVE_LOG, JSON.stringify({ from: parent.filename, resolved }) + '\\n');
	return resolved;
};
`;

async function checkRelease() {
	const home = process.env.E2E_INSTALL_HOME;
	const progress = createProgress({ prefix: `install ${N8N_VERSION}` });
	const { step } = progress;
	const { startSandboxInProcess } = await import('./sandbox.mjs');
	const sandbox = await step('start the sandbox with the demo data', async () => {
		const started = await startSandboxInProcess({ port: 0, seedDemo: true });
		return Object.assign(started, { detail: started.url });
	});
	try {
		const hook = path.join(home, 'resolve-hook.cjs');
		const log = path.join(home, 'resolved.jsonl');
		fs.writeFileSync(hook, HOOK);
		fs.rmSync(log, { force: true });
		const opts = {
			userFolder: home,
			env: { NODE_OPTIONS: `--require ${hook}`, CM_RESOLVE_LOG: log },
		};
		const { contentMarketing } = CREDENTIALS;
		const workflow = {
			id: 'cmManualInstall01',
			name: 'Manual install: Lead › Get Many',
			nodes: [
				{
					parameters: {},
					id: '6a1c0000-0000-4000-8000-000000000001',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
				},
				{
					parameters: {
						resource: 'lead',
						operation: 'getAll',
						limit: 3,
						options: { sort: 'score', order: 'desc' },
					},
					id: '6a1c0000-0000-4000-8000-000000000002',
					name: 'Hot Leads',
					type: `${PACKAGE_NAME}.contentMarketing`,
					typeVersion: 1,
					position: [240, 0],
					credentials: {
						contentMarketingApi: { id: contentMarketing.id, name: contentMarketing.name },
					},
				},
			],
			connections: { Start: { main: [[{ node: 'Hot Leads', type: 'main', index: 0 }]] } },
			settings: {},
			active: false,
		};
		await step('import the credential (-> sandbox) and the workflow', async () => {
			await importJson(
				'import:credentials',
				[{ ...contentMarketing, data: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } }],
				opts,
			);
			await importJson('import:workflow', [workflow], opts);
			return { detail: `${n8nDataDir(home)}` };
		});
		await step('n8n execute: Lead › Get Many returns the sandbox leads', async () => {
			const { run: result } = await executeWorkflow(workflow.id, opts);
			assert.equal(result.status, 'success', `execution ended with status ${result.status}`);
			const got = nodeOutput(result, 'Hot Leads').map((item) => item.json.id);
			const expected = await sandbox.client.api('GET', '/v1/leads?sort=score&order=desc&limit=3');
			assert.deepEqual(
				got,
				expected.data.map((lead) => lead.id),
				'the three highest scores',
			);
			return { detail: got.join(', ') };
		});
		await step("our nodes loaded n8n's own n8n-workflow", async () => {
			const cli = createRequire(
				path.join(N8N_DIR, 'node_modules', 'n8n', 'dist', 'load-nodes-and-credentials.js'),
			);
			const own = fs.realpathSync(cli.resolve('n8n-workflow'));
			const lines = fs.existsSync(log)
				? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse)
				: [];
			assert.ok(lines.length > 0, 'the hook saw our files load n8n-workflow');
			const others = lines.filter(({ resolved }) => fs.realpathSync(resolved) !== own);
			assert.deepEqual(others, [], `every n8n-workflow our files load is ${own}`);
			const from = new Set(lines.map((line) => path.basename(line.from)));
			return {
				detail: `${lines.length} loads from ${from.size} files → ${path.relative(N8N_DIR, own)} (n8n ${N8N_VERSION}'s)`,
			};
		});
	} finally {
		await sandbox.close();
	}
	console.log(
		`install ${N8N_VERSION}: passed on Node ${process.versions.node} in ${progress.seconds().toFixed(1)} s`,
	);
}

// ---------------------------------------------------------------------------------------------
// the parent: install, pack, run the README's block on every Node line, then each release

function runChild(release, home) {
	const rt = n8nRuntime(release.version, release.nodeMajor);
	return new Promise((resolve) => {
		const child = spawn(rt.nodeBin, [thisFile], {
			cwd: PROJECT_ROOT,
			env: {
				...process.env,
				E2E_N8N_VERSION: release.version,
				E2E_N8N_NODE: String(release.nodeMajor),
				E2E_INSTALL_HOME: home,
			},
			stdio: 'inherit',
		});
		child.on('error', () => resolve(1));
		child.on('exit', (code) => resolve(code ?? 1));
	});
}

async function main() {
	const progress = createProgress({ prefix: 'install' });
	const { step } = progress;
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-manual-install-'));
	const homes = Object.fromEntries(
		NPM_LINES.map((major) => [major, path.join(work, `node${major}`)]),
	);
	let failed;
	try {
		await step('Node 20, 22 and 24 with their npm (scripts/node-releases.mjs)', () => ({
			detail: NPM_LINES.map((major) => {
				const release = installNodeRelease(major);
				return `${release.version} + npm ${release.npmVersion}`;
			}).join(', '),
		}));
		for (const release of RELEASES)
			await step(
				`install n8n ${release.version} for Node ${release.nodeMajor} if needed`,
				async () => {
					const { skipped, seconds } = await installN8n(release);
					return { detail: skipped ? 'already installed' : `installed in ${seconds.toFixed(1)} s` };
				},
			);
		if (process.env.E2E_PACKAGE_BUILT !== '1')
			await step('build the package (node scripts/build.mjs)', buildPackage);
		let tarball;
		await step('npm pack', () => {
			const npm24 = installNodeRelease(24);
			const res = run(
				npm24.nodeBin,
				[npm24.npmCli, 'pack', '--json', `--pack-destination=${work}`],
				{
					cwd: PROJECT_ROOT,
					env: userEnv(os.homedir(), npm24.binDir),
				},
			);
			const [packed] = JSON.parse(res.stdout);
			tarball = path.join(work, packed.filename);
			return {
				detail: `${packed.filename} (${packed.entryCount} files, ${(packed.size / 1024).toFixed(0)} kB)`,
			};
		});
		let script;
		await step("the README's manual-install block", () => {
			const block = readmeInstallBlock();
			script = withTarball(block, tarball);
			return {
				detail: block
					.trim()
					.split('\n')
					.filter((l) => !l.trim().startsWith('#'))
					.join(' ; '),
			};
		});
		// at once: separate homes (npm caches included), no time bound
		await Promise.all(
			NPM_LINES.map((major) =>
				step(`run it with Node ${major}'s npm in a fresh home`, () =>
					installAsWritten(script, major, homes[major]),
				),
			),
		);
		await step('Node 20 loads the installed nodes and credential', () =>
			loadOnNode(20, homes[20], n8nRuntime('2.8.4', 22).dir),
		);
		// side by side: each its own user folder, and no step has a time bound that CPU contention reaches
		// (an n8n command may take 180 s; here each takes seconds)
		const codes = await Promise.all(
			RELEASES.map((release) => runChild(release, homes[release.nodeMajor])),
		);
		for (const [i, code] of codes.entries())
			if (code !== 0)
				throw Object.assign(new Error(`exit ${code}`), { step: `n8n ${RELEASES[i].version}` });
	} catch (error) {
		failed = error;
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	const total = progress.seconds().toFixed(1);
	if (failed) {
		console.error(
			`\ninstall check FAILED in step "${failed.step ?? 'unknown'}" after ${total} s:\n${failed.stack ?? failed}`,
		);
		process.exitCode = 1;
	} else {
		console.log(
			`\ninstall check passed: the README's command on Node ${NPM_LINES.join(', ')}; n8n ${RELEASES.map((r) => `${r.version} on Node ${r.nodeMajor}`).join(', ')} (${total} s)`,
		);
	}
}

if (process.env.E2E_INSTALL_HOME) {
	try {
		await checkRelease();
	} catch (error) {
		console.error(
			`\ninstall ${N8N_VERSION} FAILED in step "${error.step ?? 'unknown'}":\n${error.stack ?? error}`,
		);
		process.exitCode = 1;
	}
} else {
	await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older
	await main();
}
