// The n8n-workflow of each supported n8n, as the built package sees it at run time: the peer resolves to
// the user's n8n's copy, so a runtime import must exist in the oldest and in the newest supported release.
// The oldest (n8n 2.8.4 ships n8n-workflow 2.8.0) is the project's own devDependency; the newest (n8n
// 2.41.3 pins n8n-workflow 2.41.0) is installed into compat/n8n-2.41/ from its lockfile on first use,
// with the n8n-core that n8n runs, for the second run of the test suites (scripts/test-gen2.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NEWEST_DIR = path.join(root, 'compat', 'n8n-2.41');

/** n8n release → the n8n-workflow it runs our package with, and where that copy is installed. */
export const SUPPORTED_WORKFLOW_PACKAGES = [
	{ n8n: '2.8.4', version: '2.8.0', from: root },
	{ n8n: '2.41.3', version: '2.41.0', from: NEWEST_DIR },
];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The packages compat/n8n-2.41/package.json pins, with the version installed (undefined: missing). */
export function newestPackages() {
	const { dependencies } = readJson(path.join(NEWEST_DIR, 'package.json'));
	return Object.entries(dependencies).map(([name, pinned]) => {
		const manifest = path.join(NEWEST_DIR, 'node_modules', name, 'package.json');
		return {
			name,
			pinned,
			installed: existsSync(manifest) ? readJson(manifest).version : undefined,
		};
	});
}

/** Installs compat/n8n-2.41/ from its lockfile unless every package it pins is there at its version. */
export function installNewest() {
	if (newestPackages().every(({ pinned, installed }) => pinned === installed)) return;
	// --ignore-scripts: n8n-workflow 2.41 pulls isolated-vm, whose native build needs Node >= 24; its
	// exports load without it, and the engine runs expressions without it.
	try {
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: NEWEST_DIR,
			stdio: 'pipe',
		});
	} catch (error) {
		throw new Error(`npm ci in ${NEWEST_DIR} failed:\n${error.stderr ?? error.message}`);
	}
}

/** The names each supported n8n-workflow exports, checked to be the version that n8n release ships. */
export function supportedWorkflowExports() {
	installNewest();
	return SUPPORTED_WORKFLOW_PACKAGES.map(({ n8n, version, from }) => {
		const require = createRequire(path.join(from, 'package.json'));
		const installed = require('n8n-workflow/package.json').version;
		if (installed !== version)
			throw new Error(`n8n-workflow ${installed} in ${from}, expected ${version} (n8n ${n8n})`);
		return { n8n, version, names: new Set(Object.keys(require('n8n-workflow'))) };
	});
}

/**
 * Every runtime use of n8n-workflow in the compiled package: tsc turns `import { x } from 'n8n-workflow'`
 * into `const n8n_workflow_1 = require("n8n-workflow")` and each use into `n8n_workflow_1.x`; type-only
 * imports leave nothing behind. Returns name → the files that use it.
 */
export function runtimeWorkflowImports(distDir) {
	const uses = new Map();
	for (const file of readdirSync(distDir, { recursive: true })) {
		if (!String(file).endsWith('.js')) continue;
		const text = readFileSync(path.join(distDir, String(file)), 'utf8');
		const bindings = [
			...text.matchAll(/\b(?:const|var|let)\s+([\w$]+)\s*=\s*require\(["']n8n-workflow["']\)/g),
		].map((match) => match[1]);
		for (const binding of bindings) {
			for (const match of text.matchAll(new RegExp(`\\b${binding}\\.([\\w$]+)`, 'g'))) {
				const files = uses.get(match[1]) ?? new Set();
				files.add(path.posix.join('dist', String(file)));
				uses.set(match[1], files);
			}
		}
		// Any other form (destructuring, a dynamic import) would escape the check above.
		const requires = (text.match(/require\(["']n8n-workflow["']\)/g) ?? []).length;
		if (requires !== bindings.length)
			uses.set('<an n8n-workflow import this check cannot read>', new Set([String(file)]));
	}
	return uses;
}
