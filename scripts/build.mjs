// Compiles nodes/ and credentials/ into dist/ and copies the icons, codex files and output schemas next to them.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
execFileSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')],
	{
		cwd: root,
		stdio: 'inherit',
	},
);

const ASSET = /\.(svg|png|json)$/;
const SCHEMA_DIR = '__schema__';
function copyAssets(dir) {
	if (!existsSync(path.join(root, dir))) return;
	for (const name of readdirSync(path.join(root, dir))) {
		if (name === SCHEMA_DIR) continue;
		const rel = path.join(dir, name);
		if (statSync(path.join(root, rel)).isDirectory()) copyAssets(rel);
		else if (ASSET.test(name)) cpSync(path.join(root, rel), path.join(dist, rel));
	}
}
copyAssets('nodes');
copyAssets('credentials');

// Output schemas (scripts/generate-schemas.ts): n8n serves <node folder>/__schema__/v<version>/<resource>/
// <operation>.json for GET /schemas/<node type>/<version>/... (cli's LoadNodesAndCredentials.resolveSchema),
// the version padded to three parts, so there is one copy per version of the node.
// The triggers share the vendor folder but have no operations: only the action node's versions count.
for (const node of JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).n8n.nodes) {
	const source = path.join(root, path.dirname(node).replace(/^dist\//, ''), SCHEMA_DIR);
	if (!existsSync(source)) continue;
	const NodeClass = Object.values(require(path.join(root, node)))[0];
	const { description } = new NodeClass();
	if (description.group.includes('trigger')) continue;
	// tsc emitted the version-less sources too (tsconfig includes nodes/**/*.json): only the copies below stay.
	rmSync(path.join(root, path.dirname(node), SCHEMA_DIR), { recursive: true, force: true });
	const versions = [description.version].flat();
	for (const version of versions) {
		const padded = String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
		cpSync(source, path.join(root, path.dirname(node), SCHEMA_DIR, `v${padded}`), {
			recursive: true,
		});
	}
}
