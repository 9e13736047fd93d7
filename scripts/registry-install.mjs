// One npm install of pinned packages from the npm registry into a folder of the cache (scripts/node24.mjs:
// Node 24 and pnpm; scripts/node-releases.mjs: a Node release and its npm).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** npm_config_* of an `npm run` (the project's ignore-scripts=true) must not reach this install. */
function installEnv() {
	const env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (
			/^npm_config_/i.test(key) &&
			!/^npm_config_(registry|cafile|ca|strict_ssl|.*proxy)$/i.test(key)
		)
			continue;
		env[key] = value;
	}
	return env;
}

/**
 * Installs `packages` (e.g. `node@24.9.0`) into `dir` as the private package `name`, npm's report on
 * stderr (a script that prints a path on stdout stays readable). All in one install: a later install of
 * one alone would prune the others. Returns npm's exit status (or signal).
 */
export function installFromRegistry(dir, { name, description, packages }) {
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name, private: true, description }, null, 2) + '\n',
	);
	fs.writeFileSync(path.join(dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const res = spawnSync(
		npm,
		['install', '--no-save', '--no-package-lock', '--ignore-scripts=false', ...packages],
		{ cwd: dir, env: installEnv(), stdio: ['ignore', 2, 2] },
	);
	return res.status ?? res.signal;
}
