#!/usr/bin/env node
// The project's Node: 24, the active LTS (Node 20 reached end of life on 2026-04-30; n8n 2.41 needs 24).
// A machine whose Node is older needs no manual step: the exact release below comes from the npm registry
// (the npm package `node`, whose install script fetches the binary from the registry's
// node-<platform>-<arch> package), with the pnpm that installs n8n next to it, into tools-node24/ of the
// project's cache folder (scripts/cache-dir.mjs: ~/.cache/n8n-nodes-content-marketing/).
//
//   import { node24Bin, ensureNode24 } from './node24.mjs';
//   node24Bin()      // path of a Node >= 24: this one when it is, else the cache's tools-node24/ (installed if missing)
//   await ensureNode24()   // at the top of a script: on an older Node, re-runs this same process on Node 24
//
//   node scripts/node24.mjs <node arguments>   # e.g. `--import tsx scripts/demo.ts`: runs them on Node 24
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CACHE_DIR, shownPath, withCacheLockSync } from './cache-dir.mjs';
import { installFromRegistry } from './registry-install.mjs';

export const NODE24_VERSION = '24.9.0';
export const PNPM_VERSION = process.env.E2E_PNPM_VERSION || '10.34.9';
const MAJOR = 24;

export const TOOLS_DIR = path.join(CACHE_DIR, 'tools-node24');
/** The pinned Node 24 (runs every n8n of the e2e, whichever Node runs the scripts). */
export const PINNED_NODE_BIN = path.join(TOOLS_DIR, 'node_modules', 'node', 'bin', 'node');
/** pnpm, next to it (scripts/e2e/install-n8n.mjs installs n8n with it). */
export const PNPM_CJS = path.join(TOOLS_DIR, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');

const log = (message) => process.stderr.write(`[node24] ${message}\n`);
const majorOf = (version) => Number(version.split('.')[0]);

function pinnedVersion() {
	if (!fs.existsSync(PINNED_NODE_BIN)) return undefined;
	const res = spawnSync(PINNED_NODE_BIN, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : undefined;
}

/**
 * The pinned Node 24 and pnpm in the cache's tools-node24/, installed from the npm registry when missing
 * (about 30 s: a 50 MB download; one install at a time, the cache is shared by every checkout). Returns
 * the node binary's path. Throws with npm's answer on failure.
 */
export function installPinnedNode24() {
	if (isInstalled()) return PINNED_NODE_BIN;
	return withCacheLockSync('install-tools-node24', () =>
		isInstalled() ? PINNED_NODE_BIN : install(),
	);
}

function isInstalled() {
	const pnpmOk =
		fs.existsSync(PNPM_CJS) &&
		JSON.parse(
			fs.readFileSync(path.join(TOOLS_DIR, 'node_modules', 'pnpm', 'package.json'), 'utf8'),
		).version === PNPM_VERSION;
	return pinnedVersion() === NODE24_VERSION && pnpmOk;
}

function install() {
	log(
		`installing Node ${NODE24_VERSION} and pnpm ${PNPM_VERSION} from the npm registry into ${shownPath(TOOLS_DIR)}/`,
	);
	const status = installFromRegistry(TOOLS_DIR, {
		name: 'tools-node24',
		description: 'Node 24 and pnpm for scripts/node24.mjs',
		packages: [`node@${NODE24_VERSION}`, `pnpm@${PNPM_VERSION}`],
	});
	const got = pinnedVersion();
	if (status !== 0 || got !== NODE24_VERSION)
		throw new Error(
			`could not install Node ${NODE24_VERSION} from the npm registry into ${TOOLS_DIR} ` +
				`(npm exited with ${status}; that node reports ${got ?? 'nothing'}). ` +
				`Install Node.js ${MAJOR} (https://nodejs.org) and run the command again.`,
		);
	return PINNED_NODE_BIN;
}

/** A Node >= 24: the running one when it is, else the pinned one (installed if missing). */
export function node24Bin() {
	return majorOf(process.versions.node) >= MAJOR ? process.execPath : installPinnedNode24();
}

/** Environment whose `node` is `bin` (npm, npx and tsc started from there run on it too). */
export function envWithNode(bin, env = process.env) {
	return { ...env, PATH: `${path.dirname(bin)}${path.delimiter}${env.PATH ?? ''}` };
}

/**
 * Runs `args` on Node 24 with inherited stdio, passes on the signals this process gets (Ctrl+C, a timeout's
 * SIGTERM) and exits with its status. The returned promise never settles: the caller's code goes no further.
 */
function runOnNode24(args) {
	let bin;
	try {
		bin = node24Bin();
	} catch (error) {
		log(error.message);
		process.exit(1);
	}
	if (bin !== process.execPath)
		log(
			`Node ${process.versions.node} is older than ${MAJOR}: running on Node ${NODE24_VERSION} (${shownPath(bin)})`,
		);
	const child = spawn(bin, args, { stdio: 'inherit', env: envWithNode(bin) });
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
		process.on(signal, () => child.kill(signal));
	child.on('error', (error) => {
		log(error.message);
		process.exit(1);
	});
	child.on('exit', (code, signal) =>
		process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1)),
	);
	return new Promise(() => {});
}

/**
 * At the top of a script, `await ensureNode24();`: on a Node older than 24 it re-runs this process on Node
 * 24 and never returns (the process exits with the re-run's status); on Node 24 or newer it returns at once.
 */
export async function ensureNode24() {
	if (majorOf(process.versions.node) >= MAJOR) return;
	await runOnNode24([...process.execArgv, ...process.argv.slice(1)]);
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const args = process.argv.slice(2);
	if (args.length === 0 || args[0] === '--print') {
		process.stdout.write(`${node24Bin()}\n`);
	} else {
		runOnNode24(args);
	}
}
