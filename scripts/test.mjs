// The test command: build the package (tests load the compiled nodes like n8n does), then run jest.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode24 } from './node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

run([path.join(root, 'scripts/build.mjs')]);
try {
	run([require.resolve('jest/bin/jest'), ...process.argv.slice(2)]);
} catch {
	process.exit(1);
}
