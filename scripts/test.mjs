// The test command: build the package (tests load the compiled nodes like n8n does), then run the suites
// that run n8n's engine on n8n 2.41's packages with Node 24 (scripts/test-gen2.mjs), then every suite on
// n8n 2.8's packages with Node 22, the oldest Node n8n 2.8.4 accepts that is still maintained (the
// package's engines allow it; scripts/node-releases.mjs fetches it). The build and this script run on
// Node 24 (scripts/node24.mjs). Jest arguments go to both runs.
//
// Generation 2 goes first because n8n-workflow 2.41 runs resource-locator regexes in a `vm` with a 250 ms
// wall-clock limit, which other work on the machine can exceed: with CM_TEST_GEN2_ENDED=<file> the script
// writes that file once generation 2 has ended, and .ci/run starts its steps that need no n8n engine
// beside generation 1 only then.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode24 } from './node24.mjs';
import { installNodeRelease } from './node-releases.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

import { shownPath } from './cache-dir.mjs';
import { runGeneration2 } from './test-gen2.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = (args, node = process.execPath) =>
	execFileSync(node, args, { cwd: root, stdio: 'inherit' });
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

const args = process.argv.slice(2);
// E2E_PACKAGE_BUILT=1: the caller has just built dist/ (.ci/run, npm run check)
if (process.env.E2E_PACKAGE_BUILT !== '1') run([path.join(root, 'scripts/build.mjs')]);
const oldest = installNodeRelease(22);
const second = Date.now();
const code = await runGeneration2(args);
const secondTook = seconds(second);
if (process.env.CM_TEST_GEN2_ENDED) fs.writeFileSync(process.env.CM_TEST_GEN2_ENDED, `${code}\n`);
const started = Date.now();
let failed = false;
console.log(
	`\n[test] generation 1: n8n-core and n8n-workflow of n8n 2.8 on Node ${oldest.version} (${shownPath(oldest.nodeBin)})`,
);
try {
	run([require.resolve('jest/bin/jest'), ...args], oldest.nodeBin);
} catch {
	failed = true;
}
console.log(
	`[test] generation 2 ${code === 0 ? 'passed' : 'FAILED'} in ${secondTook}, generation 1 ${failed ? 'FAILED' : 'passed'} in ${seconds(started)}`,
);
process.exit(failed || code !== 0 ? 1 : 0);
