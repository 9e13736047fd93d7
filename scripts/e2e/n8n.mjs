// Helpers to drive a real n8n (installed by scripts/e2e/install-n8n.mjs) headless and offline:
// prepare a user folder with our package as an installed community package, run CLI
// commands, start/stop the server, count executions. Used by the e2e check and dev commands.
//
// Process hygiene: every n8n process is started in its own process group (detached) and
// stop()/timeouts kill the whole group (n8n forks a task-runner child). Any group still
// alive when this Node process exits (normally, by an uncaught error, or by SIGINT/SIGTERM)
// is SIGKILLed.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { N8N_DIR, N8N_NODE, N8N_VERSION, PROJECT_ROOT, isInstalled } from './install-n8n.mjs';

export { N8N_DIR, N8N_NODE, N8N_VERSION, PROJECT_ROOT };

/** Fixed key: `import:credentials` encrypts plain `data` with it, and every command must use the same. */
export const E2E_ENCRYPTION_KEY = 'n8n-nodes-content-marketing-e2e-encryption-key';
/** Printed by `n8n start` once the HTTP server, webhooks and active workflows are up. */
export const READY_LINE = 'Editor is now accessible';

// ---------------------------------------------------------------------------------------------
// paths

/** Absolute path of the n8n CLI script (a JS file: run it with N8N_NODE). */
export function n8nBin() {
	const bin = path.join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!fs.existsSync(bin) || !isInstalled()) {
		throw new Error(
			`n8n ${N8N_VERSION} is not installed in ${N8N_DIR}; run: node scripts/e2e/install-n8n.mjs --n8n=${N8N_VERSION}`,
		);
	}
	return bin;
}

/** require() bound to the n8n install (e.g. n8nRequire('sqlite3')). */
export const n8nRequire = createRequire(path.join(N8N_DIR, 'package.json'));

/** `<userFolder>/.n8n`: n8n's config file, database.sqlite, nodes/ and logs live there. */
export function n8nDataDir(userFolder) {
	return path.join(userFolder, '.n8n');
}

export function databasePath(userFolder) {
	return path.join(n8nDataDir(userFolder), 'database.sqlite');
}

// ---------------------------------------------------------------------------------------------
// user folder

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Files npm would publish for the package in packageDir (so a wrong "files" list shows up here). */
function packFileList(packageDir) {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const res = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: packageDir,
		encoding: 'utf8',
		env: withoutNpmEnv(process.env),
	});
	if (res.status !== 0) return undefined;
	try {
		const start = res.stdout.indexOf('[');
		return JSON.parse(res.stdout.slice(start))[0].files.map((f) => f.path);
	} catch {
		return undefined;
	}
}

/**
 * Installs a built node package into `<dir>/.n8n/nodes/node_modules/<name>`, the folder n8n's
 * community-packages module scans (glob `n8n-nodes-*` and `@*\/n8n-nodes-*`) at every start and
 * for every CLI command. Loaded node types are `<name>.<node name>`.
 *
 * Copies exactly what `npm pack` would publish (package.json, dist/, README, LICENSE, main),
 * falling back to that explicit list when npm cannot list it. The package's own `dependencies`
 * are not installed (ours has none; `n8n-workflow` is a peer that n8n resolves through NODE_PATH).
 *
 * n8n itself does not need `<dir>/.n8n/nodes/package.json`: it creates an empty one when missing.
 * We write one listing the package, like n8n's own installer would.
 *
 * @param {string} dir user folder (N8N_USER_FOLDER)
 * @param {{ packageDir?: string, clean?: boolean }} [opts] packageDir defaults to this project
 * @returns {{ name: string, version: string, installDir: string, files: string[] }}
 */
export function prepareUserFolder(dir, { packageDir = PROJECT_ROOT, clean = false } = {}) {
	const userFolder = path.resolve(dir);
	if (clean) fs.rmSync(userFolder, { recursive: true, force: true });
	const pkg = readJson(path.join(packageDir, 'package.json'));
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(pkg.name)) {
		throw new Error(
			`n8n only loads packages named n8n-nodes-* or @scope/n8n-nodes-* from nodes/node_modules (got ${pkg.name})`,
		);
	}
	for (const rel of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		if (!fs.existsSync(path.join(packageDir, rel))) {
			throw new Error(`${pkg.name}: ${rel} is missing; build the package first (npm run build)`);
		}
	}

	const nodesDir = path.join(n8nDataDir(userFolder), 'nodes');
	const installDir = path.join(nodesDir, 'node_modules', ...pkg.name.split('/'));
	fs.rmSync(installDir, { recursive: true, force: true });
	fs.mkdirSync(installDir, { recursive: true });

	let files = packFileList(packageDir);
	if (!files) {
		files = ['package.json', 'dist', pkg.main ?? 'index.js'];
		for (const f of fs.readdirSync(packageDir))
			if (/^(readme|license|licence|changelog)/i.test(f)) files.push(f);
	}
	for (const rel of files) {
		const from = path.join(packageDir, rel);
		if (!fs.existsSync(from)) continue;
		fs.cpSync(from, path.join(installDir, rel), { recursive: true });
	}

	const nodesPkgFile = path.join(nodesDir, 'package.json');
	const nodesPkg = fs.existsSync(nodesPkgFile)
		? readJson(nodesPkgFile)
		: { name: 'installed-nodes', private: true, dependencies: {} };
	nodesPkg.dependencies = { ...nodesPkg.dependencies, [pkg.name]: pkg.version };
	fs.writeFileSync(nodesPkgFile, JSON.stringify(nodesPkg, null, 2) + '\n');

	return { name: pkg.name, version: pkg.version, installDir, files };
}

// ---------------------------------------------------------------------------------------------
// environment

function withoutNpmEnv(env) {
	const out = {};
	for (const [k, v] of Object.entries(env)) {
		const lk = k.toLowerCase();
		if (lk.startsWith('npm_') || lk.startsWith('pnpm_') || lk === 'init_cwd') continue;
		out[k] = v;
	}
	return out;
}

/**
 * Environment for a headless, offline n8n. Everything n8n would fetch from the internet at
 * start-up or in the editor is switched off; the parent's N8N_* / DB_* variables are dropped so a
 * developer's own n8n settings cannot leak in. `env` entries win (undefined removes a variable).
 */
export function n8nEnv({ userFolder, port = 5678, brokerPort, env = {} } = {}) {
	if (!userFolder) throw new Error('n8nEnv: userFolder is required');
	const base = {};
	for (const [k, v] of Object.entries(withoutNpmEnv(process.env))) {
		if (
			/^(N8N_|DB_|EXECUTIONS_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODES_|QUEUE_|CREDENTIALS_|EXTERNAL_)/.test(
				k,
			)
		)
			continue;
		base[k] = v;
	}
	const result = {
		...base,
		// n8n's own children (task runner) and `#!/usr/bin/env node` scripts: the Node that runs n8n
		PATH: `${path.dirname(N8N_NODE)}${path.delimiter}${base.PATH ?? ''}`,
		// where n8n keeps everything: <userFolder>/.n8n/{config,database.sqlite,nodes,...}
		N8N_USER_FOLDER: path.resolve(userFolder),
		N8N_ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		// HTTP: loopback only
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		// DB: sqlite file in the user folder (default driver: @n8n/typeorm sqlite-pooled on sqlite3)
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		// executions: run in the main process, keep every execution so tests can count them
		EXECUTIONS_MODE: 'regular',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_PRUNE: 'false',
		// no calls home
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		// community packages: load what is in <userFolder>/.n8n/nodes/node_modules, never install
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_COMMUNITY_PACKAGES_PREVENT_LOADING: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		// task runners cannot be disabled in 2.x (N8N_RUNNERS_ENABLED is ignored); the internal JS
		// runner is a child process talking to a broker on N8N_RUNNERS_BROKER_PORT (default 5679,
		// so give each instance its own). The Python runner is off.
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort ?? port + 1),
		N8N_PYTHON_ENABLED: 'false',
		// public REST API on /api/v1 (needs an API key; see README)
		N8N_PUBLIC_API_DISABLED: 'false',
		// logs: plain text on stdout; "Editor is now accessible" is an info line
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '15',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		// no colours in captured logs
		NO_COLOR: '1',
		FORCE_COLOR: '0',
	};
	for (const [k, v] of Object.entries(env)) {
		if (v === undefined) delete result[k];
		else result[k] = String(v);
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// process groups

const liveGroups = new Set();
let cleanupInstalled = false;

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false; // ESRCH: group gone
	}
}

function groupAlive(pid) {
	return killGroup(pid, 0);
}

function installCleanup() {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	process.on('exit', () => {
		for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
	});
	for (const [sig, num] of [
		['SIGINT', 2],
		['SIGTERM', 15],
		['SIGHUP', 1],
	]) {
		process.once(sig, async () => {
			// graceful first (n8n closes its DB), SIGKILL after 10 s; the 'exit' hook is the backstop
			for (const pid of liveGroups) killGroup(pid, 'SIGTERM');
			for (let i = 0; i < 100 && [...liveGroups].some(groupAlive); i++)
				await new Promise((r) => setTimeout(r, 100));
			for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
			liveGroups.clear();
			process.exit(128 + num);
		});
	}
}

function spawnGroup(args, { userFolder, env }) {
	installCleanup();
	fs.mkdirSync(userFolder, { recursive: true });
	const child = spawn(N8N_NODE, [n8nBin(), ...args], {
		// n8n loads dotenv from cwd: run it in the user folder, never in a folder with a .env
		cwd: userFolder,
		env,
		detached: true, // own process group, killed as a whole
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	liveGroups.add(child.pid);
	const exited = new Promise((resolve) => {
		child.on('exit', (code, signal) => resolve({ code, signal }));
		child.on('error', (error) => resolve({ code: null, signal: null, error }));
	});
	// when the leader is gone, make sure no group member (task runner) survives it
	exited.then(() => {
		if (groupAlive(child.pid)) killGroup(child.pid, 'SIGKILL');
		liveGroups.delete(child.pid);
	});
	return { child, exited };
}

async function stopGroup(child, exited, { graceMs = 20_000 } = {}) {
	if (child.exitCode === null && child.signalCode === null) {
		killGroup(child.pid, 'SIGTERM');
		let timer;
		const timeout = new Promise((r) => (timer = setTimeout(() => r('timeout'), graceMs)));
		const first = await Promise.race([exited, timeout]);
		clearTimeout(timer);
		if (first === 'timeout') killGroup(child.pid, 'SIGKILL');
	}
	const result = await exited;
	for (let i = 0; i < 50 && groupAlive(child.pid); i++) {
		killGroup(child.pid, 'SIGKILL');
		await new Promise((r) => setTimeout(r, 100));
	}
	liveGroups.delete(child.pid);
	return result;
}

// ---------------------------------------------------------------------------------------------
// CLI commands

/**
 * Runs `n8n <args>` to completion with the e2e environment and captures its output.
 * @param {string[]} args e.g. ['import:workflow', '--input', file]
 * @param {{ userFolder: string, port?: number, brokerPort?: number, env?: object, timeoutMs?: number, echo?: boolean }} opts
 * @returns {Promise<{ code: number|null, signal: string|null, stdout: string, stderr: string, seconds: number }>}
 */
export async function runN8n(
	args,
	{
		userFolder,
		port,
		brokerPort,
		env = {},
		timeoutMs = 180_000,
		echo = !!process.env.E2E_VERBOSE,
	} = {},
) {
	if (!userFolder) throw new Error('runN8n: userFolder is required');
	// `execute` starts the task broker: never collide with a running instance's broker
	brokerPort ||= await freePort();
	const t0 = Date.now();
	const { child, exited } = spawnGroup(args, {
		userFolder,
		env: n8nEnv({ userFolder, port, brokerPort, env }),
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (d) => {
		stdout += d;
		if (echo) process.stderr.write(d);
	});
	child.stderr.on('data', (d) => {
		stderr += d;
		if (echo) process.stderr.write(d);
	});
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		stopGroup(child, exited, { graceMs: 2_000 });
	}, timeoutMs);
	const { code, signal, error } = await exited;
	clearTimeout(timer);
	await new Promise((r) => setImmediate(r)); // let the pipes drain
	const result = { code, signal, stdout, stderr, seconds: (Date.now() - t0) / 1000 };
	if (error) throw Object.assign(new Error(`n8n ${args.join(' ')}: ${error.message}`), result);
	if (timedOut)
		throw Object.assign(
			new Error(
				`n8n ${args.join(' ')} timed out after ${timeoutMs / 1000} s\n${tail(stdout + stderr)}`,
			),
			result,
		);
	return result;
}

/** Like runN8n but throws (with the output's tail) unless the command exits 0. */
export async function runN8nOk(args, opts) {
	const res = await runN8n(args, opts);
	if (res.code !== 0) {
		throw Object.assign(
			new Error(
				`n8n ${args.join(' ')} exited with ${res.signal ?? res.code}\n${tail(res.stdout + res.stderr)}`,
			),
			res,
		);
	}
	return res;
}

/**
 * `n8n execute --id X --rawOutput` prints log lines, then the run's JSON
 * (pretty-printed IRun: { data: { resultData: { runData, lastNodeExecuted, ... } }, status, ... }),
 * and sometimes more log lines after it (e.g. the task runner registering late).
 * Returns the parsed JSON: from a line that is exactly "{" to a line that is exactly "}".
 */
export function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	for (let start = 0; start < lines.length; start++) {
		if (lines[start] !== '{') continue;
		for (let end = lines.length - 1; end > start; end--) {
			if (lines[end] !== '}') continue;
			try {
				return JSON.parse(lines.slice(start, end + 1).join('\n'));
			} catch {
				// a "{" or "}" inside the JSON: keep looking
			}
		}
	}
	throw new Error(`no JSON found in n8n output:\n${tail(stdout)}`);
}

/** Output items ({json}) of a node in a parsed `execute --rawOutput` result (last run, main output 0). */
export function nodeOutput(run, nodeName, { runIndex = -1, output = 0 } = {}) {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs?.length)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run?.data?.resultData?.runData ?? {}).join(', ')}`,
		);
	const task = runs.at(runIndex);
	if (task.error) throw new Error(`node "${nodeName}" failed: ${task.error.message}`);
	return task.data?.main?.[output] ?? [];
}

/** The parsed run when `stdout` holds a whole run that finished with success, else undefined. */
function finishedRun(stdout) {
	try {
		const run = parseRawOutput(stdout);
		return run.status === 'success' ? run : undefined;
	} catch {
		return undefined;
	}
}

/** Executes an imported workflow (it needs a Manual Trigger) and returns the parsed run. */
export async function executeWorkflow(id, opts) {
	const res = await runN8n(['execute', `--id=${id}`, '--rawOutput'], opts);
	// n8n 2.41.3's CLI can crash (SIGSEGV) while it exits, after it printed the run it finished: that run
	// is whole, and the checks assert its effects, so it counts. Any other exit fails the step.
	if (res.signal === 'SIGSEGV' && finishedRun(res.stdout)) {
		process.stderr.write(
			`[e2e] n8n execute --id=${id} crashed (SIGSEGV) on exit after printing its finished run; the run counts\n`,
		);
		return { run: finishedRun(res.stdout), ...res };
	}
	if (res.code !== 0) {
		throw Object.assign(
			new Error(
				`n8n execute --id=${id} exited with ${res.signal ?? res.code}\n${tail(res.stdout + res.stderr)}`,
			),
			res,
		);
	}
	return { run: parseRawOutput(res.stdout), ...res };
}

/** Writes `data` as JSON into a temporary file in the user folder and runs `n8n <command> --input file`. */
export async function importJson(command, data, opts) {
	const dir = path.join(opts.userFolder, 'import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(
		dir,
		`${command.replace(':', '-')}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return runN8nOk([command, `--input=${file}`], opts);
}

// ---------------------------------------------------------------------------------------------
// server

/** A free TCP port on 127.0.0.1 (race-prone by nature, fine for tests on one machine). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Starts `n8n start`. The handle's `ready` resolves (with the start-up seconds) on the log line
 * "Editor is now accessible" (after active workflows and their webhooks are registered) and
 * rejects when n8n exits first or readyTimeoutMs passes. Always call stop() (try/finally).
 *
 * @param {{ userFolder: string, port?: number, brokerPort?: number, env?: object,
 *           readyTimeoutMs?: number, echo?: boolean, onOutput?: (text: string) => void }} opts
 *        port 0/undefined picks a free one; onOutput gets n8n's output as it comes
 */
export async function startN8n({
	userFolder,
	port,
	brokerPort,
	env = {},
	readyTimeoutMs = 180_000,
	echo = !!process.env.E2E_VERBOSE,
	onOutput,
} = {}) {
	if (!userFolder) throw new Error('startN8n: userFolder is required');
	port ||= await freePort();
	brokerPort ||= await freePort();
	const t0 = Date.now();
	const { child, exited } = spawnGroup(['start'], {
		userFolder,
		env: n8nEnv({ userFolder, port, brokerPort, env }),
	});
	let output = '';
	const lineWaiters = [];
	const onData = (d) => {
		output += d;
		if (echo) process.stderr.write(d);
		onOutput?.(String(d));
		for (const w of [...lineWaiters]) if (w.test(output)) w.resolve();
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);

	/** Resolves when the output (from the start) matches `pattern` (string or RegExp). */
	const waitForOutput = (pattern, timeoutMs = 60_000) =>
		new Promise((resolve, reject) => {
			const test = (out) =>
				typeof pattern === 'string' ? out.includes(pattern) : pattern.test(out);
			if (test(output)) return resolve();
			const done = () => {
				clearTimeout(timer);
				const i = lineWaiters.indexOf(w);
				if (i >= 0) lineWaiters.splice(i, 1);
			};
			const w = { test, resolve: () => (done(), resolve()) };
			const timer = setTimeout(() => {
				done();
				reject(
					new Error(`n8n did not print ${pattern} within ${timeoutMs / 1000} s\n${tail(output)}`),
				);
			}, timeoutMs);
			lineWaiters.push(w);
			exited.then(({ code, signal }) => {
				if (!lineWaiters.includes(w)) return;
				done();
				// let the last output chunks arrive before reporting
				setImmediate(() =>
					reject(
						new Error(`n8n exited (${signal ?? code}) before printing ${pattern}\n${tail(output)}`),
					),
				);
			});
		});

	const ready = waitForOutput(READY_LINE, readyTimeoutMs).then(() => (Date.now() - t0) / 1000);
	ready.catch(() => {}); // the caller awaits it; avoid an unhandled rejection when it does not

	let stopping;
	return {
		pid: child.pid,
		port,
		brokerPort,
		baseUrl: `http://127.0.0.1:${port}`,
		ready,
		exited,
		waitForOutput,
		output: () => output,
		/** SIGTERM to the process group, SIGKILL after graceMs; resolves when the group is gone. */
		stop: ({ graceMs = 20_000 } = {}) => (stopping ??= stopGroup(child, exited, { graceMs })),
	};
}

// ---------------------------------------------------------------------------------------------
// executions (read straight from n8n's sqlite DB with n8n's own sqlite3)

export function queryDb(userFolder, sql, params = []) {
	const sqlite3 = n8nRequire('sqlite3');
	return new Promise((resolve, reject) => {
		const db = new sqlite3.Database(databasePath(userFolder), sqlite3.OPEN_READONLY, (err) => {
			if (err) return reject(err);
			db.configure('busyTimeout', 5000);
			db.all(sql, params, (err2, rows) => {
				db.close();
				if (err2) reject(err2);
				else resolve(rows);
			});
		});
	});
}

/**
 * Executions of a workflow as stored by n8n (table execution_entity):
 * [{ id, mode: 'cli'|'webhook'|'trigger'|'manual'|..., status: 'success'|'error'|..., finished, startedAt, stoppedAt }]
 * Works while n8n runs (sqlite WAL) or after it stopped.
 */
export async function listExecutions(userFolder, workflowId, { mode } = {}) {
	const where = ['workflowId = ?'];
	const params = [workflowId];
	if (mode) {
		where.push('mode = ?');
		params.push(mode);
	}
	return queryDb(
		userFolder,
		`SELECT id, mode, status, finished, startedAt, stoppedAt FROM execution_entity WHERE ${where.join(' AND ')} ORDER BY id`,
		params,
	);
}

/** Stored run data of one execution (table execution_data; `data` is flatted-serialised IRunExecutionData). */
export async function executionData(userFolder, executionId) {
	const rows = await queryDb(
		userFolder,
		'SELECT data, workflowData FROM execution_data WHERE executionId = ?',
		[executionId],
	);
	if (!rows.length) return undefined;
	const { parse } = n8nRequire('flatted');
	return { data: parse(rows[0].data), workflowData: JSON.parse(rows[0].workflowData) };
}

/** Whether the n8n process at `baseUrl` answers its readiness probe (database and, in queue mode, Redis up). */
export async function answersReady(baseUrl) {
	try {
		const res = await fetch(new URL('/healthz/readiness', baseUrl), {
			signal: AbortSignal.timeout(2000),
		});
		return res.ok;
	} catch {
		return false;
	}
}

/**
 * Whether n8n serves a POST webhook at `url`: a GET there answers "not registered for GET requests" once
 * the route is live, and "is not registered" before (n8n's WebhookNotFoundError, 2.8 and 2.41 alike).
 */
export async function postWebhookServed(url) {
	try {
		const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
		return res.status !== 404 || /not registered for GET/.test(await res.text());
	} catch {
		return false;
	}
}

/**
 * Polls until at least `count` finished executions of the workflow exist, then waits `settleMs`
 * and returns the list (so the caller can assert "exactly count").
 */
export async function waitForExecutions(
	userFolder,
	workflowId,
	{ count = 1, mode, timeoutMs = 30_000, settleMs = 1_000 } = {},
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const rows = (await listExecutions(userFolder, workflowId, { mode })).filter(
			(r) => r.stoppedAt || r.finished,
		);
		if (rows.length >= count) break;
		if (Date.now() > deadline) {
			// what n8n stored, unfinished ones and their errors included: a slow n8n from a failed run
			const all = await listExecutions(userFolder, workflowId);
			const described = await Promise.all(
				all.map(async (r) => {
					const error = (await executionData(userFolder, r.id).catch(() => undefined))?.data
						?.resultData?.error;
					return `${r.id} ${r.mode} ${r.status} started ${r.startedAt} stopped ${r.stoppedAt ?? '-'}${error ? ` error: ${error.message ?? JSON.stringify(error)}` : ''}`;
				}),
			);
			throw new Error(
				`only ${rows.length} finished execution(s) of workflow ${workflowId} after ${timeoutMs / 1000} s, expected ${count}; n8n stored ${all.length}:\n  ${described.join('\n  ') || '(none)'}`,
			);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	await new Promise((r) => setTimeout(r, settleMs));
	return listExecutions(userFolder, workflowId, { mode });
}

// ---------------------------------------------------------------------------------------------
// executions over HTTP (n8n running): internal REST API with an owner session, or the public API

export const E2E_OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-owner-Passw0rd',
};

async function postJson(url, body, headers = {}) {
	return fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
}

/**
 * Cookie header of an owner session: sets the instance owner up on a fresh DB
 * (POST /rest/owner/setup), logs in otherwise (POST /rest/login).
 */
export async function ownerCookie(baseUrl, owner = E2E_OWNER) {
	let res = await postJson(`${baseUrl}/rest/owner/setup`, owner);
	if (!res.ok)
		res = await postJson(`${baseUrl}/rest/login`, {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	if (!res.ok) throw new Error(`n8n owner setup/login failed: ${res.status} ${await res.text()}`);
	const cookie = res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	if (!cookie) throw new Error('n8n returned no session cookie');
	return cookie;
}

/** Executions of a workflow from GET /rest/executions (newest first). */
export async function restExecutions(baseUrl, cookie, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await fetch(`${baseUrl}/rest/executions?filter=${filter}`, { headers: { cookie } });
	if (!res.ok) throw new Error(`GET /rest/executions: ${res.status} ${await res.text()}`);
	return (await res.json()).data.results;
}

/** Execution states n8n does not leave again. */
const ENDED = new Set(['success', 'error', 'crashed', 'canceled']);

/**
 * Runs an imported workflow from its Manual Trigger in the running n8n at `n8n.baseUrl`, as the editor's
 * "Execute workflow" does (POST /rest/workflows/:id/run from that trigger), waits until n8n stored the
 * execution ended, and returns `{ run: { id, status, mode, data } }`: `data` is the stored
 * IRunExecutionData, the shape `n8n execute --rawOutput` prints under `data`, so nodeOutput() reads both.
 */
export async function runManually(n8n, userFolder, id, { timeoutMs = 180_000 } = {}) {
	const rest = (method, urlPath, body) => ownerRest(n8n, method, urlPath, body);
	const workflowData = await rest('GET', `/rest/workflows/${id}`);
	const trigger = workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${id} has no Manual Trigger`);
	const started = await rest('POST', `/rest/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: trigger.name },
	});
	if (!started?.executionId)
		throw new Error(`n8n started no execution of ${id}: ${JSON.stringify(started)}`);
	const executionId = String(started.executionId);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const [row] = await queryDb(
			userFolder,
			'SELECT id, mode, status, stoppedAt FROM execution_entity WHERE id = ?',
			[executionId],
		);
		if (row && ENDED.has(row.status) && row.stoppedAt) {
			const stored = await executionData(userFolder, executionId);
			if (stored)
				return { run: { id: executionId, status: row.status, mode: row.mode, data: stored.data } };
		}
		if (Date.now() > deadline)
			throw new Error(
				`execution ${executionId} of ${id} not ended after ${timeoutMs / 1000} s: ${JSON.stringify(row)}`,
			);
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** One call of the editor's REST API as the owner (logged in once per n8n); resolves to its `data`. */
async function ownerRest(n8n, method, urlPath, body) {
	n8n.ownerCookie ??= await ownerCookie(n8n.baseUrl);
	const res = await fetch(`${n8n.baseUrl}${urlPath}`, {
		method,
		headers: { cookie: n8n.ownerCookie, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text).data;
}

/**
 * Publishes workflow `id` in a running n8n as the editor's Publish button does (its current version):
 * n8n activates it at once, its triggers registering what they register, with no restart.
 */
export async function publishRunning(n8n, id) {
	const { versionId } = await ownerRest(n8n, 'GET', `/rest/workflows/${id}`);
	const published = await ownerRest(n8n, 'POST', `/rest/workflows/${id}/activate`, { versionId });
	if (!published?.active)
		throw new Error(`n8n did not publish ${id}: ${JSON.stringify(published)}`);
	return published;
}

/**
 * Saves workflows, unpublished and each with its own id, in a running n8n through the editor's REST API
 * (POST /rest/workflows keeps a given id in n8n 2.8 and 2.41): what `n8n import:workflow` stores, without
 * another n8n process starting to store it. Their credentials must exist (imported before).
 */
export async function saveWorkflowsRunning(n8n, workflows) {
	for (const { active: _active, ...workflow } of workflows)
		await ownerRest(n8n, 'POST', '/rest/workflows', workflow);
	return workflows.map(({ id }) => id);
}

/** A public-API key for the owner (header X-N8N-API-KEY on /api/v1/...). */
export async function createApiKey(baseUrl, cookie, { label = `e2e-${Date.now()}` } = {}) {
	const res = await postJson(
		`${baseUrl}/rest/api-keys`,
		{
			label,
			scopes: ['execution:list', 'execution:read', 'workflow:list', 'workflow:read'],
			expiresAt: null,
		},
		{ cookie },
	);
	if (!res.ok) throw new Error(`POST /rest/api-keys: ${res.status} ${await res.text()}`);
	return (await res.json()).data.rawApiKey;
}

// ---------------------------------------------------------------------------------------------

function tail(text, lines = 40) {
	return text.split('\n').slice(-lines).join('\n');
}

export const _internal = { tail, killGroup, groupAlive, liveGroups };

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	// tiny dev CLI: node scripts/e2e/n8n.mjs <userFolder> [n8n args...]
	// e.g. `node scripts/e2e/n8n.mjs .tmp/n8n start` runs n8n with our package installed
	const [userFolder, ...args] = process.argv.slice(2);
	if (!userFolder) {
		console.error(
			'usage: node scripts/e2e/n8n.mjs <userFolder> [n8n command and flags]   (default: start)',
		);
		process.exit(2);
	}
	try {
		prepareUserFolder(userFolder);
	} catch (err) {
		console.error(`error: ${err.message}`);
		process.exit(1);
	}
	if (!args.length || args[0] === 'start') {
		const port = Number(process.env.N8N_PORT) || 5678;
		const h = await startN8n({ userFolder, port, echo: true, readyTimeoutMs: 600_000 });
		const secs = await h.ready;
		console.error(`\nn8n ready in ${secs.toFixed(1)} s at ${h.baseUrl} (Ctrl-C to stop)`);
		await h.exited;
	} else {
		const res = await runN8n(args, { userFolder, echo: true, timeoutMs: 600_000 });
		process.exit(res.code ?? 1);
	}
}
