// The test command: build the package (tests load the compiled nodes like n8n does), then run jest.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

run([path.join(root, 'scripts/build.mjs')]);
try {
	run([require.resolve('jest/bin/jest'), ...process.argv.slice(2)]);
} catch {
	process.exit(1);
}
