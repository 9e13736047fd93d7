#!/usr/bin/env node
// The Node releases a user of the package may run n8n on, each with the npm its line ships, for the checks
// that must run on them: n8n 2.8.4 accepts Node 20.19 to 24.x, n8n 2.41.3 Node 24. `npm test` runs its first
// generation on Node 22 (the oldest line n8n 2.8.4 accepts that is still maintained; Node 20 reached end of
// life on 2026-04-30), and `npm run test:e2e:install` runs the README's install command with each line's npm.
// Like scripts/node24.mjs, each comes from the npm registry (the npm packages `node` and `npm`) into
// node-<version>/ of the project's cache folder (scripts/cache-dir.mjs), once, shared by every checkout.
//
//   import { nodeRelease, installNodeRelease } from './node-releases.mjs';
//   installNodeRelease(22)   // → { version, npmVersion, dir, binDir, nodeBin, npmCli }, installed if missing
//
//   node scripts/node-releases.mjs 22     # installs it when missing, prints the node binary's path
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CACHE_DIR, shownPath, withCacheLockSync } from './cache-dir.mjs';
import { installFromRegistry } from './registry-install.mjs';
import { NODE24_VERSION } from './node24.mjs';

/** Per Node line: the exact release and the npm of that line's major (Node 20 and 22 ship npm 10, 24 npm 11). */
export const NODE_RELEASES = {
	20: { version: '20.20.2', npmVersion: '10.8.2' },
	22: { version: '22.23.3', npmVersion: '10.9.9' },
	24: { version: NODE24_VERSION, npmVersion: '11.6.0' },
};

const log = (message) => process.stderr.write(`[node-releases] ${message}\n`);

/** Where Node `major` lives in the cache (whether installed or not). */
export function nodeRelease(major) {
	const release = NODE_RELEASES[major];
	if (!release)
		throw new Error(`no Node ${major} release pinned; known: ${Object.keys(NODE_RELEASES)}`);
	const dir = path.join(CACHE_DIR, `node-${release.version}`);
	const modules = path.join(dir, 'node_modules');
	return {
		major: Number(major),
		...release,
		dir,
		/** `node`, `npm` and `npx` of this release: put it first on PATH. */
		binDir: path.join(modules, '.bin'),
		nodeBin: path.join(modules, 'node', 'bin', 'node'),
		npmCli: path.join(modules, 'npm', 'bin', 'npm-cli.js'),
	};
}

function versionOf(bin, args) {
	if (!fs.existsSync(bin)) return undefined;
	const res = spawnSync(bin, args, { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : undefined;
}

function isInstalled(release) {
	return (
		versionOf(release.nodeBin, ['-p', 'process.versions.node']) === release.version &&
		versionOf(release.nodeBin, [release.npmCli, '--version']) === release.npmVersion &&
		fs.existsSync(path.join(release.binDir, 'npm'))
	);
}

/** Node `major` with its npm, installed from the npm registry when missing (a 30 to 50 MB download). */
export function installNodeRelease(major) {
	const release = nodeRelease(major);
	if (isInstalled(release)) return release;
	return withCacheLockSync(`install-node-${release.version}`, () => {
		if (isInstalled(release)) return release;
		log(
			`installing Node ${release.version} and npm ${release.npmVersion} from the npm registry into ${shownPath(release.dir)}/`,
		);
		const status = installFromRegistry(release.dir, {
			name: `node-${release.version}`,
			description: 'Node and its npm for scripts/node-releases.mjs',
			packages: [`node@${release.version}`, `npm@${release.npmVersion}`],
		});
		if (status !== 0 || !isInstalled(release))
			throw new Error(
				`could not install Node ${release.version} and npm ${release.npmVersion} from the npm registry ` +
					`into ${release.dir} (npm exited with ${status})`,
			);
		return release;
	});
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const major = process.argv[2] ?? '22';
	try {
		process.stdout.write(`${installNodeRelease(major).nodeBin}\n`);
	} catch (error) {
		log(error.message);
		process.exit(1);
	}
}
