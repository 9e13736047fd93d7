// What n8n loads when `n8n-node dev` links the project root into `<user folder>/.n8n/custom/node_modules/`:
// n8n's CustomDirectoryLoader (n8n-core, nodes-loader/custom-directory-loader.js) globs `**/*.node.js` and
// `**/*.credentials.js` below the custom folder with fast-glob's defaults (symbolic links followed; folders
// whose name starts with a dot are walked too, only their files never match), so it walks the whole project
// root, node_modules/ included, and requires every match: one stray file (e.g. pkce-challenge's dist/index.node.js, which @modelcontextprotocol/sdk
// pulled in) and n8n refuses to start ("require(...).index is not a constructor"). The only matches
// allowed are the built nodes and credentials package.json lists. Run by `npm run lint` (after the build)
// and by `npm run dev` before it starts n8n; on its own: `node scripts/custom-loader-files.mjs`.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

import { checkResult, runWhenMain } from './check-result.mjs';

const LOADED = /\.(node|credentials)\.js$/;

/**
 * Walks `dir` as n8n's custom loader does: links followed, each real folder once (a link back up must not
 * loop); `visit(file, isDirectory)` for every entry. fast-glob enters dot folders too, though nothing in
 * them matches: `skipDot` leaves them out where only matches count.
 */
export function walkAsCustomLoader(dir, visit, { skipDot = false } = {}) {
	const seen = new Set();
	const walk = (folder) => {
		const real = realpathSync(folder);
		if (seen.has(real)) return;
		seen.add(real);
		for (const entry of readdirSync(folder, { withFileTypes: true })) {
			if (skipDot && entry.name.startsWith('.')) continue;
			const file = path.join(folder, entry.name);
			let isDirectory = entry.isDirectory();
			if (entry.isSymbolicLink()) {
				try {
					isDirectory = statSync(file).isDirectory();
				} catch {
					continue; // a dangling link: fast-glob skips it too
				}
			}
			visit(file, isDirectory);
			if (isDirectory) walk(file);
		}
	};
	walk(dir);
}

/** Every file below `dir` that n8n's custom loader would require, as paths relative to `dir`. */
export function customLoaderFiles(dir) {
	const found = [];
	walkAsCustomLoader(
		dir,
		(file, isDirectory) => {
			if (!isDirectory && LOADED.test(path.basename(file))) found.push(path.relative(dir, file));
		},
		{ skipDot: true },
	);
	return found.sort();
}

/** Lint-style result: passed when the custom loader would find exactly package.json's nodes and credentials. */
export function checkCustomLoaderFiles(root) {
	const { n8n } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const listed = new Set([...n8n.nodes, ...n8n.credentials].map((file) => path.normalize(file)));
	const found = customLoaderFiles(root);
	const stray = found.filter((file) => !listed.has(file));
	const missing = [...listed].filter((file) => !found.includes(file));
	const problems = [
		...stray.map(
			(file) =>
				`${file}: n8n would load it as a node or credential (remove it, or the dependency that brings it)`,
		),
		...missing.map((file) => `${file} is missing: build first (npm run build)`),
	];
	return checkResult(problems);
}

runWhenMain(import.meta.url, checkCustomLoaderFiles);
