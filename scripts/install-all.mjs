#!/usr/bin/env node
// `node scripts/install-all.mjs`: everything the checks fetch, installed once up front, each part skipped
// when it is there: Node 20 and 22 (scripts/node-releases.mjs), n8n 2.41's packages for the second test
// generation (compat/), n8n 2.8.4 and 2.41.3 for the end-to-end checks (and 2.8.4 on Node 22 for the
// install check), Debian's chromium, postgresql and redis-server. .ci/run runs it as its own step, so
// that its table says what installing took on a fresh machine (and about nothing on a warm one). Each
// check still installs what it needs when run alone.
import { installNewest } from './compat.mjs';
import { installNodeRelease } from './node-releases.mjs';
import { ensureChromium } from './e2e/check-editor.mjs';
import { installN8n, N8N_VERSIONS } from './e2e/install-n8n.mjs';
import { ensurePackages } from './e2e/queue/services.mjs';

const parts = [
	['Node 20 and 22', () => ['20', '22'].forEach((major) => installNodeRelease(major))],
	["n8n 2.41's packages (compat/)", () => installNewest()],
	...N8N_VERSIONS.map((version) => [
		`n8n ${version}`,
		async () => await installN8n({ version, nodeMajor: 24 }),
	]),
	['n8n 2.8.4 on Node 22', async () => await installN8n({ version: '2.8.4', nodeMajor: 22 })],
	['chromium', () => ensureChromium()],
	['postgresql, redis-server', () => ensurePackages()],
];

const started = Date.now();
for (const [name, install] of parts) {
	const since = Date.now();
	await install();
	console.log(`[install] ${name}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
}
console.log(`[install] all in ${((Date.now() - started) / 1000).toFixed(1)} s`);
