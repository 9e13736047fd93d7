// npm run build: n8n's CLI (`n8n-node build`: tsc, then the icons and __schema__ files copied into dist/), then
// what it cannot do: one copy of the output schemas per version of the action node (below).
// --if-changed (the quick loop, scripts/check.mjs): the CLI's build is left out when the last one came
// after every change to what it compiles (BUILD_INPUTS: each file and folder, so a deleted file counts);
// the output schemas are copied either way, as `npm run schemas` writes them after a build.
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureNode24 } from './node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SCHEMA_DIR = '__schema__';

/** What n8n-node build compiles or copies (the output schemas aside: they are copied below every time). */
const BUILD_INPUTS = ['nodes', 'credentials', 'package.json', 'tsconfig.json'];
/** Written after each CLI build; outside dist/, which is published. */
const STAMP = path.join(root, '.tmp', 'last-build');

/** The newest modification time (ms) among the build's inputs, folders included. */
function newestInput() {
	let newest = 0;
	const visit = (file) => {
		const stat = statSync(file);
		newest = Math.max(newest, stat.mtimeMs);
		if (!stat.isDirectory()) return;
		for (const name of readdirSync(file)) if (name !== SCHEMA_DIR) visit(path.join(file, name));
	};
	for (const input of BUILD_INPUTS) visit(path.join(root, input));
	return newest;
}

const upToDate =
	process.argv.includes('--if-changed') &&
	existsSync(STAMP) &&
	existsSync(path.join(root, 'dist')) &&
	statSync(STAMP).mtimeMs > newestInput();
if (upToDate) {
	console.log('[build] dist/ is newer than every change to nodes/ and credentials/: tsc left out');
} else {
	const started = Date.now();
	try {
		execFileSync(
			process.execPath,
			[path.join(root, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'build'],
			// its spinners and boxes on stderr only when something fails (tsc's errors are in its output)
			{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
		);
	} catch (error) {
		process.stderr.write(String(error.stdout ?? '') + String(error.stderr ?? ''));
		rmSync(STAMP, { force: true });
		process.exit(1);
	}
	// stamped with the time the build started: a change saved during the build makes the next one run
	mkdirSync(path.dirname(STAMP), { recursive: true });
	writeFileSync(STAMP, '');
	const startedAt = new Date(started);
	utimesSync(STAMP, startedAt, startedAt);
}

// Output schemas (scripts/generate-schemas.ts): n8n serves <node folder>/__schema__/v<version>/<resource>/
// <operation>.json for GET /schemas/<node type>/<version>/... (cli's LoadNodesAndCredentials.resolveSchema),
// the version padded to three parts, so there is one copy per version of the node.
// The CLI copies them as they are in the source, without the version folder, so n8n would not find them.
// The triggers share the vendor folder but have no operations: only the action node's versions count.
for (const node of JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).n8n.nodes) {
	const source = path.join(root, path.dirname(node).replace(/^dist\//, ''), SCHEMA_DIR);
	if (!existsSync(source)) continue;
	const NodeClass = Object.values(require(path.join(root, node)))[0];
	const { description } = new NodeClass();
	if (description.group.includes('trigger')) continue;
	// the version-less copies (the CLI's, and tsc's: tsconfig includes nodes/**/*.json) make way for these
	rmSync(path.join(root, path.dirname(node), SCHEMA_DIR), { recursive: true, force: true });
	const versions = [description.version].flat();
	for (const version of versions) {
		const padded = String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
		cpSync(source, path.join(root, path.dirname(node), SCHEMA_DIR, `v${padded}`), {
			recursive: true,
		});
	}
}
