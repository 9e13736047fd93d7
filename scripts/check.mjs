// npm run check -- <area> [<area> ...] [--no-e2e] [--n8n=<version>]: the quick loop, only the checks an
// area needs: its jest suites on both generations (scripts/test.mjs with the suites' paths), then its
// end-to-end checks on real n8n (E2E_CHECKS for scripts/e2e/check.mjs, or the area's own e2e script).
// `npm run check` alone lists the areas. A change still gets one full run (.ci/run) before it lands.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureNode24 } from './node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * jest: suite paths (prefixes, as jest matches them); e2e: names in scripts/e2e/check.mjs's checks;
 * scripts: other e2e commands (package.json scripts) the area needs.
 */
export const AREAS = {
	lead: {
		what: 'Lead operations (actions/lead/)',
		jest: ['test/node/lead', 'test/node/parallel', 'test/node/wrong-types', 'test/sandbox/leads'],
		e2e: ['manual-examples', 'bulk-faults'],
	},
	'content-resource': {
		what: 'Content Resource operations, uploads (actions/contentResource/)',
		jest: ['test/node/content-resource', 'test/node/multipart', 'test/sandbox/uploads'],
		e2e: ['manual-examples'],
	},
	analytics: {
		what: 'Analytics operations, the behaviour engine (actions/analytics/)',
		jest: ['test/node/analytics', 'test/behaviour'],
		e2e: ['manual-examples'],
	},
	'webhook-endpoint': {
		what: 'Webhook Endpoint operations (actions/webhookEndpoint/)',
		jest: ['test/node/webhook-', 'test/sandbox/webhooks'],
		e2e: ['trigger'],
	},
	trigger: {
		what: 'the webhook trigger (trigger/, leadEvents/)',
		jest: ['test/trigger', 'test/node/webhook-'],
		e2e: ['trigger'],
		scripts: ['test:e2e:faults'],
	},
	'poll-trigger': {
		what: 'the poll trigger (pollTrigger/)',
		jest: ['test/poll-trigger'],
		e2e: ['poll-trigger', 'poll-schedulers'],
	},
	editor: {
		what: "what the editor shows: descriptions, load options, list search, n8n's UX texts",
		jest: [
			'test/node/editor',
			'test/node/load-options',
			'test/node/list-search',
			'test/vocabulary',
		],
		e2e: ['editor'],
	},
	credential: {
		what: 'the credential, the transport',
		jest: ['test/node/credential', 'test/node/transport', 'test/node/redirect', 'test/unit'],
		e2e: ['http-request-credential'],
	},
	mcp: { what: "the tool variants behind n8n's MCP Server Trigger", jest: [], e2e: ['mcp'] },
	sandbox: { what: 'the sandbox (sandbox/)', jest: ['test/sandbox'], e2e: [] },
	examples: {
		what: 'the example workflows (examples/)',
		jest: ['test/examples'],
		e2e: ['manual-examples', 'trigger'],
	},
	queue: { what: 'queue mode', jest: [], e2e: [], scripts: ['test:e2e:queue'] },
	install: { what: "README's manual install", jest: [], e2e: [], scripts: ['test:e2e:install'] },
	dev: { what: 'npm run dev (hot reload)', jest: [], e2e: [], scripts: ['test:e2e:dev'] },
};

/** `lead`, `lead:create` or `lead.create` (an operation: its resource's checks), `contentResource`. */
function areaOf(name) {
	const resource = name.split(/[:.]/)[0];
	const kebab = resource.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
	return AREAS[kebab] ? kebab : undefined;
}

const argv = process.argv.slice(2);
const names = argv.filter((a) => !a.startsWith('--'));
const n8nArg = argv.find((a) => a.startsWith('--n8n='));
const withE2e = !argv.includes('--no-e2e');

if (names.length === 0) {
	console.log('npm run check -- <area> [<area> ...] [--no-e2e] [--n8n=<version>]\n\nareas:');
	for (const [name, area] of Object.entries(AREAS))
		console.log(`  ${name.padEnd(17)} ${area.what}`);
	console.log(
		"\nan operation (lead:create) runs its resource's checks; before a change lands: .ci/run",
	);
	process.exit(0);
}
const unknown = names.filter((name) => !areaOf(name));
if (unknown.length) {
	console.error(`unknown area ${unknown.join(', ')} (npm run check lists them)`);
	process.exit(2);
}
const chosen = [...new Set(names.map(areaOf))].map((name) => AREAS[name]);
const union = (key) => [...new Set(chosen.flatMap((area) => area[key] ?? []))];

const parts = [];
const jest = union('jest');
if (jest.length)
	parts.push({ what: `jest ${jest.join(' ')}`, args: ['scripts/test.mjs', ...jest] });
if (withE2e) {
	const e2e = union('e2e');
	if (e2e.length)
		parts.push({
			what: `e2e ${e2e.join(',')}`,
			args: ['scripts/e2e/check.mjs', ...(n8nArg ? [n8nArg] : [])],
			env: { E2E_CHECKS: e2e.join(',') },
		});
	const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	for (const script of union('scripts')) {
		const [, file] = scripts[script].split(' '); // "node scripts/e2e/<file>.mjs"
		parts.push({ what: `npm run ${script}`, args: [file, ...(n8nArg ? [n8nArg] : [])] });
	}
}

// one build for every part (each would build again otherwise)
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(1);
process.env.E2E_PACKAGE_BUILT = '1';

const results = [];
for (const part of parts) {
	console.log(`\n[check] ${part.what}`);
	const started = Date.now();
	const { status } = spawnSync(process.execPath, part.args, {
		cwd: root,
		stdio: 'inherit',
		env: { ...process.env, ...part.env },
	});
	results.push({ ...part, ok: status === 0, seconds: (Date.now() - started) / 1000 });
}
console.log('\n[check] summary:');
for (const r of results)
	console.log(`  ${r.seconds.toFixed(0).padStart(5)} s  ${r.ok ? 'passed' : 'FAILED'}  ${r.what}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
