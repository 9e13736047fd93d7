// Compiles nodes/ and credentials/ into dist/ and copies the icons and codex files next to them.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')], {
	cwd: root,
	stdio: 'inherit',
});

const ASSET = /\.(svg|png|json)$/;
function copyAssets(dir) {
	if (!existsSync(path.join(root, dir))) return;
	for (const name of readdirSync(path.join(root, dir))) {
		const rel = path.join(dir, name);
		if (statSync(path.join(root, rel)).isDirectory()) copyAssets(rel);
		else if (ASSET.test(name)) cpSync(path.join(root, rel), path.join(dist, rel));
	}
}
copyAssets('nodes');
copyAssets('credentials');
