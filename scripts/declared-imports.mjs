// package.json tells the truth about what the code uses: every package imported by nodes/, credentials/,
// sandbox/, test/, scripts/ or bench/ is declared (dependencies, devDependencies or peerDependencies), and
// every devDependency is used: imported, a type package (@types/…), or named by a script, a config file or
// a command (jest's ts-jest preset, npx prettier, …). Run by `npm run lint`; on its own:
// `node scripts/declared-imports.mjs`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

import { checkResult, runWhenMain } from './check-result.mjs';

const FOLDERS = ['nodes', 'credentials', 'sandbox', 'test', 'scripts', 'bench'];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.cache', 'fixture-package']);
/** Packages named in code that runs elsewhere, not in this package's node_modules. */
const NOT_OURS = {
	sqlite3:
		'required by a script run inside the n8n install in the cache folder (scripts/e2e/install-n8n.mjs)',
	'@n8n/backend-network':
		"n8n 2.41's, required by the harness only in the generation-2 run, from compat/n8n-2.41/ (scripts/test-gen2.mjs)",
};
/** Files outside the folders that name tools by their package name. */
const CONFIG_FILES = [
	'jest.config.js',
	'eslint.config.mjs',
	'eslint.dev.config.mjs',
	'tsconfig.json',
	'tsconfig.dev.json',
	'.ci/run',
];
// The specifier of an import or export from, a dynamic import, require or require.resolve, a bare import.
const SPECIFIER =
	/(?:\bfrom[ \t]+|\bimport\([ \t]*|\brequire(?:\.resolve)?\([ \t]*|^[ \t]*import[ \t]+)['"]([^'"\s]+)['"]/gm;

function sourceFiles(dir) {
	let entries;
	try {
		entries = readdirSync(dir);
	} catch {
		return [];
	}
	return entries.flatMap((name) => {
		if (SKIP.has(name)) return [];
		const file = path.join(dir, name);
		if (statSync(file).isDirectory()) return sourceFiles(file);
		return SOURCE.test(name) ? [file] : [];
	});
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for relative paths and Node built-ins. */
function packageOf(specifier) {
	if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
		return undefined;
	const parts = specifier.split('/');
	const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
	return builtinModules.includes(name) ? undefined : name;
}

/** The commands a package installs (its package.json `bin`). */
function binNames(root, name) {
	try {
		const { bin } = JSON.parse(
			readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'),
		);
		return typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin ?? {});
	} catch {
		return [];
	}
}

export function checkDeclaredImports(root) {
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const declared = new Set(
		['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
			Object.keys(pkg[field] ?? {}),
		),
	);
	const importedBy = new Map();
	const texts = [];
	// The config files at the root import too (eslint.config.mjs: @n8n/node-cli/eslint).
	const configFiles = CONFIG_FILES.map((file) => path.join(root, file)).filter((file) =>
		existsSync(file),
	);
	for (const file of [
		...FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder))),
		...configFiles,
	]) {
		const text = readFileSync(file, 'utf8');
		texts.push(text);
		for (const [, specifier] of text.matchAll(SPECIFIER)) {
			const name = packageOf(specifier);
			if (name === undefined) continue;
			if (!importedBy.has(name)) importedBy.set(name, new Set());
			importedBy.get(name).add(path.relative(root, file));
		}
	}
	const problems = [];
	for (const [name, files] of importedBy) {
		if (!declared.has(name) && !(name in NOT_OURS))
			problems.push(
				`${name} is imported (${[...files].join(', ')}) but not declared in package.json`,
			);
	}
	for (const name of Object.keys(pkg.devDependencies ?? {})) {
		if (importedBy.has(name) || name.startsWith('@types/')) continue;
		// Named as a whole quoted string (a preset, a spawned command's package) or run by a script.
		const named = [`'${name}'`, `"${name}"`, `npx ${name}`];
		// A package used through its command (@n8n/node-cli's n8n-node) counts under that name too.
		const commands = [name, ...binNames(root, name)];
		const scripts = Object.values(pkg.scripts ?? {});
		if (
			!texts.some((text) => named.some((form) => text.includes(form))) &&
			!scripts.some((script) => script.split(/\s+/).some((word) => commands.includes(word)))
		)
			problems.push(
				`devDependency ${name} is used nowhere (not imported, named by no script or config)`,
			);
	}
	return checkResult(problems);
}

runWhenMain(import.meta.url, checkDeclaredImports);
