// Generation 2 of the test suites: the suites that run nodes inside n8n's engine (compat/n8n-2.41/
// jest.config.js lists them) once more, on the n8n-core and n8n-workflow that n8n 2.41.3 runs
// (compat/n8n-2.41/, installed from its lockfile) under the Node 24 that n8n needs (fetched by
// scripts/e2e/install-n8n.mjs into the cache folder, scripts/cache-dir.mjs, as the end-to-end check uses it).
// `npm test` runs it before the first generation; alone: `npm run test:gen2 [-- <jest arguments>]`. Jest
// arguments that select none of its suites skip it when they select suites it leaves to the first
// generation, and fail it when they select no suite at all.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	installNewest,
	NEWEST_DIR,
	newestPackages,
	SUPPORTED_WORKFLOW_PACKAGES,
} from './compat.mjs';
import { shownPath } from './cache-dir.mjs';
import { ensureRuntimeNode } from './e2e/install-n8n.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Runs the second generation; resolves to jest's exit code. */
export async function runGeneration2(jestArgs = []) {
	const newest = SUPPORTED_WORKFLOW_PACKAGES.at(-1);
	installNewest();
	const node = await ensureRuntimeNode(newest.n8n);
	const packages = newestPackages()
		.map(({ name, installed }) => `${name} ${installed}`)
		.join(', ');
	const nodeVersion = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout;
	console.log(
		`\n[test] generation 2: ${packages} (as n8n ${newest.n8n} runs them, ${path.relative(root, NEWEST_DIR)}/) on Node ${nodeVersion.trim()} (${shownPath(node)})`,
	);
	const config = ['--config', path.join(NEWEST_DIR, 'jest.config.js')];
	if (jestArgs.length > 0 && suitesSelected(node, [...config, ...jestArgs]).length === 0) {
		// arguments meant for suites this generation leaves to the first (its jest.config.js says which)
		// skip it; arguments that select no suite at all name what did not run
		const first = suitesSelected(node, jestArgs);
		if (first.length === 0) {
			console.error(
				`[test] generation 2 FAILED: no suite matches the jest arguments "${jestArgs.join(' ')}", so none ran`,
			);
			return 1;
		}
		console.log(
			`[test] generation 2 skipped: the jest arguments "${jestArgs.join(' ')}" select only suites it leaves to generation 1 (${path.relative(root, NEWEST_DIR)}/jest.config.js): ${first.join(', ')}`,
		);
		return 0;
	}
	const args = [require.resolve('jest/bin/jest'), ...config, ...jestArgs];
	return await new Promise((resolve, reject) => {
		const child = spawn(node, args, { cwd: root, stdio: 'inherit' });
		child.on('error', reject);
		child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

/** The suites (paths from the root) jest would run with `args`. */
function suitesSelected(node, args) {
	const listed = spawnSync(node, [require.resolve('jest/bin/jest'), '--listTests', ...args], {
		cwd: root,
		encoding: 'utf8',
	});
	if (listed.status !== 0) throw new Error(`jest --listTests ${args.join(' ')}: ${listed.stderr}`);
	return listed.stdout
		.split('\n')
		.filter((line) => line.endsWith('.test.ts'))
		.map((file) => path.relative(root, file));
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const { execFileSync } = await import('node:child_process');
	execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
		cwd: root,
		stdio: 'inherit',
	});
	process.exit(await runGeneration2(process.argv.slice(2)));
}
