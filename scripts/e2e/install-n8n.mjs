#!/usr/bin/env node
// Installs a real n8n into n8n-<version>-node24/ of the project's cache folder (scripts/cache-dir.mjs:
// ~/.cache/n8n-nodes-content-marketing/, outside the project) for the end-to-end check. Two releases
// are checked (N8N_VERSIONS): 2.8.4, the oldest supported (its engines: Node >=20.19 <=24.x), and the
// newest 2.41.x (Node >= 24). Both run on the project's Node, the exact Node 24 release pinned in
// scripts/node24.mjs (the npm package `node` with pnpm next to it in the cache's tools-node24/), whichever
// Node runs this script: it runs their pnpm install, sqlite3's native build and every n8n command.
//
//   node scripts/e2e/install-n8n.mjs [--n8n=<version>]    # install (skips when already done)
//   node scripts/e2e/install-n8n.mjs --all                 # every version in N8N_VERSIONS
//   node scripts/e2e/install-n8n.mjs --force               # reinstall from scratch
//   node scripts/e2e/install-n8n.mjs --check               # exit 0 when installed, 1 otherwise
//   node scripts/e2e/install-n8n.mjs --node=22             # for another Node line (n8n-<version>-node22/;
//        only the manual-install check runs one: n8n 2.8.4 on Node 22, scripts/node-releases.mjs)
//   node scripts/e2e/install-n8n.mjs --save-lockfile       # copy the resolved pnpm-lock.yaml to
//        scripts/e2e/n8n-<version>.pnpm-lock.yaml; when that file exists, installs use it frozen
//
// The version defaults to E2E_N8N_VERSION, else 2.8.4: the constants below (N8N_VERSION, N8N_DIR,
// ...) describe that one, so scripts that import them without choosing a version keep using 2.8.4.
//
// Why pnpm: `npm i n8n@<version>` cannot finish against the npm registry (some transitive versions are
// gone and one dependency is a tarball URL outside the registry). pnpm 10 with the overrides below
// resolves everything from the registry. pnpm itself comes from the npm registry too (next to Node 24),
// so nothing has to be installed by hand.
//
// Everything stays in the cache folder: the store in pnpm-store/ (same filesystem, so pnpm hard-links
// instead of copying; shared by both versions) and its metadata cache in pnpm-cache/; removing the
// folder resets it all. The folder names carry the Node major: sqlite3's
// native addon is built for one Node ABI (an install for Node 20 may sit next to it, unused).

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CACHE_DIR, shownPath, withCacheLock } from '../cache-dir.mjs';
import {
	installPinnedNode24,
	NODE24_VERSION,
	PINNED_NODE_BIN,
	PNPM_CJS,
	PNPM_VERSION,
	TOOLS_DIR,
} from '../node24.mjs';
import { installNodeRelease, nodeRelease } from '../node-releases.mjs';

export const DEFAULT_N8N_VERSION = '2.8.4';
/** The releases `npm run test:e2e` checks, oldest first. */
export const N8N_VERSIONS = ['2.8.4', '2.41.3'];
export { PNPM_VERSION };

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROJECT_ROOT = path.resolve(here, '..', '..');
export const PNPM_STORE = path.join(CACHE_DIR, 'pnpm-store');

/**
 * What differs between the checked releases: `overrides`, pnpm overrides that make the install resolvable
 * from the registry here (see the recipe in the project's notes). Every release runs on NODE24_VERSION.
 */
const RELEASES = {
	'2.8.4': {
		overrides: {
			// xlsx's newer versions are published outside the npm registry only
			xlsx: '0.18.5',
			// the version pinned transitively is missing from the registry
			'@langchain/langgraph-checkpoint': '1.0.1',
		},
	},
	'2.41.3': {
		// n8n 2.41.3 pins patch releases of its own packages that the registry here lacks: the CLI
		// 2.41.3 runs on n8n-core 2.41.1 / n8n-workflow 2.41.0 / editor-ui 2.41.0 and these siblings
		overrides: {
			xlsx: '0.18.5',
			'@langchain/langgraph-checkpoint': '1.0.1',
			'@n8n/api-types': '1.41.0',
			'@n8n/blob-storage': '1.9.1',
			'@n8n/chat-hub': '1.34.0',
			'@n8n/agents': '0.26.1',
			'@n8n/ai-node-sdk': '0.31.1',
			'@n8n/client-oauth2': '1.23.1',
			'@n8n/config': '2.39.0',
			'@n8n/backend-network': '1.15.1',
			'@n8n/ai-workflow-builder': '1.41.1',
			'@n8n/engine': '0.21.0',
			'@n8n/instance-ai': '1.26.1',
			'@n8n/ai-utilities': '0.34.1',
			'@n8n/backend-common': '1.41.1',
			'@n8n/mcp-apps': '0.18.0',
			'@n8n/decorators': '1.41.0',
			'@n8n/telemetry': '1.9.0',
			'@n8n/node-engine-compatibility': '0.9.1',
			'@n8n/task-runner': '2.41.1',
			'@n8n/n8n-nodes-langchain': '2.41.1',
			'n8n-core': '2.41.1',
			'n8n-editor-ui': '2.41.0',
		},
	},
};

const n8nNpmrc = [
	'node-linker=hoisted',
	'auto-install-peers=true',
	'strict-peer-dependencies=false',
	// the project's .npmrc says ignore-scripts=true; never let that reach this install,
	// sqlite3 has to run its install script (prebuild download fails offline -> node-gyp build)
	'ignore-scripts=false',
	'fund=false',
	'audit=false',
	'update-notifier=false',
	'',
].join('\n');

/**
 * Everything about one n8n release: its folder, marker, committed lockfile, the Node that runs it
 * (`nodeBin`) and the pnpm that installs it. `nodeMajor`: another Node line than the project's 24 to run
 * it on (scripts/node-releases.mjs; only the manual-install check runs n8n 2.8.4 on Node 22), in its own
 * folder: sqlite3's native addon is built for one Node ABI.
 */
export function n8nRuntime(version = N8N_VERSION, nodeMajor = 24) {
	const release = RELEASES[version];
	if (!release)
		throw new Error(
			`no install recipe for n8n ${version}; known: ${Object.keys(RELEASES).join(', ')}`,
		);
	const other = Number(nodeMajor) === 24 ? undefined : nodeRelease(nodeMajor);
	const nodeVersion = other?.version ?? NODE24_VERSION;
	const dir = path.join(CACHE_DIR, `n8n-${version}-node${nodeVersion.split('.')[0]}`);
	const committedLockfile = path.join(here, `n8n-${version}.pnpm-lock.yaml`);
	const lockfileText = fs.existsSync(committedLockfile)
		? fs.readFileSync(committedLockfile, 'utf8')
		: '';
	const packageJson = {
		name: 'n8n-e2e-runtime',
		private: true,
		description:
			'Real n8n for the end-to-end check of n8n-nodes-content-marketing (generated by scripts/e2e/install-n8n.mjs)',
		dependencies: { n8n: version },
		pnpm: {
			overrides: release.overrides,
			// sqlite3 needs its native addon built (n8n's default DB is sqlite via
			// @n8n/typeorm's "sqlite-pooled" driver on top of the sqlite3 package).
			onlyBuiltDependencies: ['sqlite3'],
		},
	};
	const hash = createHash('sha256')
		.update(JSON.stringify(packageJson))
		.update(n8nNpmrc)
		.update(PNPM_VERSION)
		.update(nodeVersion)
		.update(lockfileText);
	return {
		version,
		dir,
		marker: path.join(dir, '.install-complete.json'),
		committedLockfile,
		lockfileText,
		packageJson,
		/** Exact Node release from npm (scripts/node24.mjs, or scripts/node-releases.mjs). */
		nodeVersion,
		nodeMajor: Number(nodeVersion.split('.')[0]),
		/** Where that Node's npm package is: its bin/ goes first on PATH, its headers build sqlite3. */
		toolsDir: other?.dir ?? TOOLS_DIR,
		/** The Node executable that runs this n8n, its pnpm install and sqlite3's build. */
		nodeBin: other?.nodeBin ?? PINNED_NODE_BIN,
		pnpmDir: TOOLS_DIR,
		pnpmCjs: PNPM_CJS,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		configHash: hash.digest('hex').slice(0, 16),
	};
}

/** The release this process works with: E2E_N8N_VERSION, else 2.8.4; on E2E_N8N_NODE's line, else 24. */
export const N8N_VERSION = process.env.E2E_N8N_VERSION || DEFAULT_N8N_VERSION;
export const N8N_NODE_MAJOR = Number(process.env.E2E_N8N_NODE || 24);
const current = n8nRuntime(N8N_VERSION, N8N_NODE_MAJOR);
export const N8N_DIR = current.dir;
export const PNPM_DIR = current.pnpmDir;
export const MARKER = current.marker;
/** Optional committed lockfile: when present, the install is exactly reproducible (--frozen-lockfile). */
export const COMMITTED_LOCKFILE = current.committedLockfile;
/** The Node executable that runs the selected n8n (the pinned Node 24 of scripts/node24.mjs). */
export const N8N_NODE = current.nodeBin;

function log(msg) {
	process.stderr.write(`[install-n8n] ${msg}\n`);
}

function fail(msg) {
	log(`ERROR: ${msg}`);
	process.exit(1);
}

// npm_config_* settings that say how to reach the registry: keep them for the child installers
const KEEP_NPM_CONFIG =
	/^npm_config_(registry|@[^:]+:registry|cafile|ca|strict_ssl|proxy|https_proxy|http_proxy|noproxy|no_proxy)$/i;

/** Environment for child installers: drop npm_config_* inherited from `npm run` / `npm exec`
 * (they carry the project's .npmrc, e.g. npm_config_ignore_scripts=true) and friends,
 * except the registry/proxy/TLS ones. */
function cleanEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		const lk = k.toLowerCase();
		if (lk.startsWith('npm_config_') && !KEEP_NPM_CONFIG.test(k)) continue;
		if (lk.startsWith('npm_package_') || lk.startsWith('pnpm_')) continue;
		if (lk === 'npm_lifecycle_event' || lk === 'npm_lifecycle_script' || lk === 'init_cwd')
			continue;
		env[k] = v;
	}
	return { ...env, ...extra };
}

/** Extra environment for the pnpm install, i.e. for sqlite3's install script. */
function nativeBuildEnv(rt) {
	const env = {
		// sqlite3's script is `prebuild-install -r napi || node-gyp rebuild`: prebuild-install
		// would try to download from GitHub (unreachable here); go straight to the local build.
		npm_config_build_from_source: 'true',
		JOBS: 'max', // node-gyp: compile with all cores
	};
	// install scripts call `node`: the Node that will load the addon; build against its headers
	// (shipped in the npm package node-<platform>-<arch>; node-gyp cannot download headers here),
	// never a nodedir set for another Node
	env.PATH = `${path.join(rt.toolsDir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`;
	env.npm_config_nodedir = path.join(
		rt.toolsDir,
		'node_modules',
		'node',
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
	return env;
}

function run(cmd, args, { cwd, env } = {}) {
	return new Promise((resolve, reject) => {
		log(`$ ${[cmd, ...args].join(' ')}   (in ${shownPath(cwd)})`);
		const child = spawn(cmd, args, { cwd, env, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code, signal) => {
			if (code === 0) resolve();
			else reject(new Error(`${cmd} ${args.join(' ')} exited with ${signal ?? code}`));
		});
	});
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

export function n8nBinPath(version = N8N_VERSION) {
	return n8nRuntime(version).n8nBin;
}

/** Loads sqlite3 from the n8n folder with the Node that runs n8n and opens an in-memory database. */
function checkSqlite(rt) {
	return new Promise((resolve) => {
		const code = `
			const sqlite3 = require('sqlite3');
			const db = new sqlite3.Database(':memory:');
			db.get('select sqlite_version() as v', (err, row) => {
				if (err) { console.error(err.message); process.exit(1); }
				console.log(row.v);
				db.close();
			});`;
		const child = spawn(rt.nodeBin, ['-e', code], {
			cwd: rt.dir,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('exit', (code) => resolve({ ok: code === 0, output: out.trim() }));
		child.on('error', (e) => resolve({ ok: false, output: e.message }));
	});
}

/** Node's version and native-module ABI as the runtime's Node reports them (undefined when missing). */
function nodeInfo(rt) {
	if (!fs.existsSync(rt.nodeBin)) return undefined;
	const res = spawnSync(
		rt.nodeBin,
		['-p', 'process.versions.node + " " + process.versions.modules'],
		{ encoding: 'utf8' },
	);
	if (res.status !== 0) return undefined;
	const [node, modules] = res.stdout.trim().split(' ');
	return { node, modules };
}

/** True when the marker says this exact configuration is installed and the files are there. */
export function isInstalled(version = N8N_VERSION, nodeMajor = N8N_NODE_MAJOR) {
	const rt = n8nRuntime(version, nodeMajor);
	const marker = readJson(rt.marker);
	if (!marker) return false;
	if (marker.n8n !== version || marker.configHash !== rt.configHash) return false;
	// native addon ABI: the Node that runs n8n must be the one sqlite3 was built for
	if (marker.node !== rt.nodeVersion || !fs.existsSync(rt.nodeBin)) return false;
	const pkg = readJson(path.join(rt.dir, 'node_modules', 'n8n', 'package.json'));
	return pkg?.version === version && fs.existsSync(rt.n8nBin);
}

/** pnpm and the pinned Node 24 from the npm registry (scripts/node24.mjs), into the cache's tools-node24/. */
async function ensureTools(rt) {
	installPinnedNode24();
	if (rt.nodeMajor !== 24) installNodeRelease(rt.nodeMajor);
	if (!fs.existsSync(rt.pnpmCjs))
		throw new Error(`pnpm was installed but ${rt.pnpmCjs} is missing`);
}

/**
 * The Node executable that runs n8n `version`: for a release that needs its own Node (2.41.3: Node 24),
 * fetched from the npm registry into the cache's tools-node<major>/ when it is not there yet (with pnpm, as an
 * install does). The second run of the test suites (scripts/test-gen2.mjs) runs on it.
 */
export async function ensureRuntimeNode(version = N8N_VERSION) {
	const rt = n8nRuntime(version);
	if (rt.toolsDir && nodeInfo(rt)?.node !== rt.nodeVersion) await ensureTools(rt); // holds its own lock
	return rt.nodeBin;
}

/**
 * Installs n8n `version` (default: the selected one) unless the marker says it is there.
 * @returns {Promise<{ skipped: boolean, seconds: number, version: string }>}
 */
export async function installN8n({
	version = N8N_VERSION,
	nodeMajor = N8N_NODE_MAJOR,
	force = false,
} = {}) {
	const rt = n8nRuntime(version, nodeMajor);
	const installed = async () => {
		if (force || !isInstalled(version, nodeMajor)) return false;
		const sqlite = await checkSqlite(rt);
		if (sqlite.ok) {
			log(
				`n8n ${version} already installed in ${shownPath(rt.dir)} (marker ok, sqlite ${sqlite.output}); nothing to do`,
			);
			return true;
		}
		log(`marker present but sqlite3 does not load (${sqlite.output}); reinstalling`);
		return false;
	};
	if (await installed()) return { skipped: true, seconds: 0, version };
	// the cache is shared by every checkout: one install of a release at a time, then look again
	// (different releases may install at once: pnpm's store is safe for that)
	const lock =
		rt.nodeMajor === 24 ? `install-n8n-${version}` : `install-n8n-${version}-node${rt.nodeMajor}`;
	return await withCacheLock(lock, async () => {
		if (await installed()) return { skipped: true, seconds: 0, version };
		return await install(rt, { force });
	});
}

async function install(rt, { force }) {
	const { version } = rt;
	const t0 = Date.now();

	log(`installing n8n ${version} into ${shownPath(rt.dir)} (1.3 to 1.9 GB, a few minutes)`);
	if (force && fs.existsSync(rt.dir)) {
		log('--force: removing the previous install');
		fs.rmSync(rt.dir, { recursive: true, force: true });
	}
	fs.rmSync(rt.marker, { force: true });
	fs.mkdirSync(rt.dir, { recursive: true });
	fs.writeFileSync(
		path.join(rt.dir, 'package.json'),
		JSON.stringify(rt.packageJson, null, 2) + '\n',
	);
	fs.writeFileSync(path.join(rt.dir, '.npmrc'), n8nNpmrc);
	if (rt.lockfileText) {
		fs.writeFileSync(path.join(rt.dir, 'pnpm-lock.yaml'), rt.lockfileText);
		log(`using the committed lockfile ${path.relative(PROJECT_ROOT, rt.committedLockfile)}`);
	}

	const tTools = Date.now();
	await ensureTools(rt);
	log(`pnpm and Node ${rt.nodeVersion} ready in ${((Date.now() - tTools) / 1000).toFixed(1)} s`);

	const tInstall = Date.now();
	const pnpmArgs = [
		rt.pnpmCjs,
		'install',
		'--config.ignore-scripts=false',
		`--store-dir=${PNPM_STORE}`,
		`--config.cache-dir=${path.join(CACHE_DIR, 'pnpm-cache')}`, // registry metadata cache
		'--reporter=append-only',
		// without a committed lockfile resolve afresh (CI=true would make pnpm default to
		// --frozen-lockfile and fail on the missing lockfile)
		rt.lockfileText ? '--frozen-lockfile' : '--no-frozen-lockfile',
		'--config.confirmModulesPurge=false',
	];
	await run(rt.nodeBin, pnpmArgs, { cwd: rt.dir, env: cleanEnv(nativeBuildEnv(rt)) });
	log(`pnpm install finished in ${((Date.now() - tInstall) / 1000).toFixed(1)} s`);

	const pkg = readJson(path.join(rt.dir, 'node_modules', 'n8n', 'package.json'));
	if (pkg?.version !== version)
		throw new Error(`node_modules/n8n is ${pkg?.version ?? 'missing'}, expected ${version}`);
	if (!fs.existsSync(rt.n8nBin)) throw new Error(`n8n binary missing at ${rt.n8nBin}`);

	let sqlite = await checkSqlite(rt);
	if (!sqlite.ok) {
		// e.g. node_modules kept from another Node ABI: pnpm install does not rebuild it by itself
		log(`sqlite3 does not load (${sqlite.output.split('\n')[0]}); rebuilding it`);
		await run(rt.nodeBin, [rt.pnpmCjs, 'rebuild', 'sqlite3', `--store-dir=${PNPM_STORE}`], {
			cwd: rt.dir,
			env: cleanEnv(nativeBuildEnv(rt)),
		}).catch((e) => log(e.message));
		sqlite = await checkSqlite(rt);
	}
	if (!sqlite.ok) {
		throw new Error(
			`sqlite3's native binding does not load (n8n needs it for its default sqlite DB): ${sqlite.output}\n` +
				'  The sqlite3 install script must run (onlyBuiltDependencies + ignore-scripts=false) and, offline, build with\n' +
				'  node-gyp against local Node headers (npm_config_nodedir) with python3, make and a C++ compiler.',
		);
	}
	log(`sqlite3 native binding loads (SQLite ${sqlite.output})`);

	const seconds = (Date.now() - t0) / 1000;
	const info = nodeInfo(rt);
	fs.writeFileSync(
		rt.marker,
		JSON.stringify(
			{
				n8n: version,
				pnpm: PNPM_VERSION,
				configHash: rt.configHash,
				node: info?.node,
				nodeModules: info?.modules,
				sqlite: sqlite.output,
				seconds,
				installedAt: new Date().toISOString(),
			},
			null,
			2,
		) + '\n',
	);
	log(`done: n8n ${version} installed in ${seconds.toFixed(1)} s`);
	return { skipped: false, seconds, version };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const args = process.argv.slice(2);
	const chosen = args.find((a) => a.startsWith('--n8n='))?.slice('--n8n='.length);
	const versions = args.includes('--all') ? N8N_VERSIONS : [chosen ?? N8N_VERSION];
	if (args.includes('--save-lockfile')) {
		// pin the current resolution: commit the written file to make every install identical
		for (const version of versions) {
			const rt = n8nRuntime(version);
			const lock = path.join(rt.dir, 'pnpm-lock.yaml');
			if (!isInstalled(version) || !fs.existsSync(lock))
				fail(`install first: node scripts/e2e/install-n8n.mjs --n8n=${version}`);
			fs.copyFileSync(lock, rt.committedLockfile);
			log(
				`wrote ${path.relative(PROJECT_ROOT, rt.committedLockfile)} (${fs.statSync(rt.committedLockfile).size} bytes)`,
			);
		}
		process.exit(0);
	}
	if (args.includes('--check')) {
		const missing = versions.filter((version) => !isInstalled(version));
		for (const version of versions)
			log(`n8n ${version} is ${missing.includes(version) ? 'not ' : ''}installed`);
		process.exit(missing.length ? 1 : 0);
	}
	const nodeMajor = Number(
		args.find((a) => a.startsWith('--node='))?.slice('--node='.length) ?? N8N_NODE_MAJOR,
	);
	try {
		await Promise.all(
			versions.map((version) =>
				installN8n({ version, nodeMajor, force: args.includes('--force') }),
			),
		);
	} catch (err) {
		fail(`${err.message}\n  Re-run with --force to start from scratch.`);
	}
}
