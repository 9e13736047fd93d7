// npm run check -- <area> [<area> ...] [--no-e2e] [--n8n=<version>]: the quick loop, only the checks an
// area needs: its jest suites on both generations (scripts/test.mjs with the suites' paths), then its
// end-to-end checks on real n8n (E2E_CHECKS for scripts/e2e/check.mjs, or the area's own e2e script).
// An operation (`lead:getScore`) narrows the jest part to what covers that one operation: the area's
// suites that name it (`operation: 'getScore'`), its cases of the suites that run every operation (output
// schemas, wrong types: CHECK_OPERATION, test/node/checked-operation.ts) and the editor's suites.
// `npm run check` alone lists the areas. A change still gets one full run (.ci/run) before it lands.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureNode24 } from './node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The suites that run a case for every operation of the action node (a new operation gets its own). */
const EVERY_OPERATION = ['test/node/output-schemas', 'test/node/wrong-types'];
/** What the editor shows: descriptions, load options, list search, n8n's UX texts. */
const EDITOR = [
	'test/node/editor',
	'test/node/load-options',
	'test/node/list-search',
	'test/vocabulary',
];

/**
 * jest: suite paths (prefixes, as jest matches them); e2e: names in scripts/e2e/check.mjs's checks;
 * scripts: other e2e commands (package.json scripts) the area needs.
 */
export const AREAS = {
	lead: {
		what: 'Lead operations (actions/lead/)',
		jest: [
			'test/node/lead',
			'test/node/parallel',
			'test/sandbox/leads',
			...EVERY_OPERATION,
			...EDITOR,
		],
		e2e: ['manual-examples', 'bulk-faults'],
	},
	'content-resource': {
		what: 'Content Resource operations, uploads (actions/contentResource/)',
		jest: [
			'test/node/content-resource',
			'test/node/multipart',
			'test/sandbox/uploads',
			...EVERY_OPERATION,
			...EDITOR,
		],
		e2e: ['manual-examples'],
	},
	analytics: {
		what: 'Analytics operations, the behaviour engine (actions/analytics/)',
		jest: ['test/node/analytics', 'test/behaviour', ...EVERY_OPERATION, ...EDITOR],
		e2e: ['manual-examples'],
	},
	'webhook-endpoint': {
		what: 'Webhook Endpoint operations (actions/webhookEndpoint/)',
		jest: ['test/node/webhook-', 'test/sandbox/webhooks', ...EVERY_OPERATION, ...EDITOR],
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
		jest: EDITOR,
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
		'\nan operation (lead:getScore): the suites that name it, its output-schema and wrong-type cases, the editor suites; before a change lands: .ci/run',
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

/** The test files (relative, sorted) under jest's path prefixes. */
function testFiles(prefixes) {
	const all = fs
		.readdirSync(path.join(root, 'test'), { recursive: true })
		.map((file) => `test/${String(file).split(path.sep).join('/')}`)
		.filter((file) => file.endsWith('.test.ts'));
	return all.filter((file) => prefixes.some((prefix) => file.startsWith(prefix))).sort();
}

/** `lead:getScore` → { area: 'lead', resource: 'lead', operation: 'getScore' }; an area alone → undefined. */
function operationOf(name) {
	const [, operation] = name.split(/[:.]/);
	if (!operation) return undefined;
	const area = areaOf(name);
	return { area, resource: area.replace(/-([a-z])/g, (_, c) => c.toUpperCase()), operation };
}

const parts = [];
const operations = names.map(operationOf);
let jest = union('jest');
let jestEnv;
if (operations.every((operation) => operation !== undefined)) {
	// only what covers these operations (an area's other suites do not name them)
	const named = operations.flatMap(({ area, operation }) => {
		const files = testFiles(AREAS[area].jest).filter(
			(file) =>
				!EVERY_OPERATION.some((prefix) => file.startsWith(prefix)) &&
				fs.readFileSync(path.join(root, file), 'utf8').includes(`operation: '${operation}'`),
		);
		if (files.length === 0) {
			console.error(
				`no suite of the ${area} area names operation: '${operation}' (its test goes in test/node/<resource>.test.ts)`,
			);
			process.exit(2);
		}
		return files;
	});
	jest = [...new Set([...named, ...EVERY_OPERATION, ...EDITOR])];
	if (operations.length === 1)
		jestEnv = { CHECK_OPERATION: `${operations[0].resource}.${operations[0].operation}` };
}
if (jest.length)
	parts.push({
		what: `jest ${jest.join(' ')}${jestEnv ? ` (CHECK_OPERATION=${jestEnv.CHECK_OPERATION})` : ''}`,
		args: ['scripts/test.mjs', ...jest],
		env: jestEnv,
	});
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

// one build for every part (each would build again otherwise), left out when nothing changed since the last
const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-changed'], {
	cwd: root,
	stdio: 'inherit',
});
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
