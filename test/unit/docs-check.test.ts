// scripts/docs-check.ts (in `npm run lint`) on a small repository in a temporary folder: quiet when every
// name holds and every figure is at home, and one problem, naming the file, line, rule and fix, for each
// kind of violation planted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { anchors, checkDocs, commandsOf, normalFigure } from '../../scripts/docs-check';

let root: string;

function write(file: string, text: string): void {
	fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
	fs.writeFileSync(path.join(root, file), text);
}

/** The problems after `file` got `text` appended, without the fixes' wording. */
function plant(file: string, text: string): string[] {
	fs.appendFileSync(path.join(root, file), text);
	return checkDocs(root).map((problem) => problem.replace(/\. Fix: .*$/, ''));
}

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-docs-check-'));
	write(
		'package.json',
		JSON.stringify({
			scripts: {
				build: 'node scripts/build.mjs',
				'test:e2e': 'node scripts/e2e.mjs',
				test: 'node scripts/build.mjs',
			},
			devDependencies: { jest: '29.7.0', tsx: '4.0.0' },
		}),
	);
	write('scripts/build.mjs', "import { limit } from './limit.mjs';\n");
	write(
		'scripts/limit.mjs',
		"// --old: a comment names no flag\nexport const limit = process.argv.includes('--only') && process.env.BENCH_ROUNDS;\n",
	);
	write('scripts/e2e.mjs', 'const { values } = parseArgs({ options: { port: {} } });\n');
	write('test/unit/a.test.ts', '');
	// the code that defines CONSTANTS' values, as the repository has it
	for (const [file, text] of Object.entries(DEFINITIONS)) write(file, text);
	write(
		'README.md',
		'# Title\n\n## What it does: in short\n\nRun `npm run build -- --only`, see `scripts/build.mjs` and [docs](docs/guide.md#the-loop).\nA request waits at most 15 minutes; the import took [27 calls](docs/performance.md#figures).\n',
	);
	write('CONTRIBUTING.md', '# Contributing\n\n[back](README.md#what-it-does-in-short)\n');
	write('CHANGELOG.md', '# Changelog\n\n## 0.1.0 - 2026-11-27\n');
	write(
		'docs/guide.md',
		'# Guide\n\n## The loop\n\n```bash\nnpm run test:e2e -- --port 1   # in a fence: scripts, flags, paths\nBENCH_ROUNDS=0 node scripts/build.mjs && npx jest test/unit\n```\n\n[up](../README.md) `nodes/<resource>/x.ts` `transport/retry.ts` `../scripts/build.mjs`\n',
	);
	write(
		'docs/performance.md',
		'# Performance\n\n## Figures\n\n`npm run build`: 27 calls, 1.2x, 45 %.\n',
	);
	write('docs/api-contract.md', 'Timestamps look like `2026-11-21T08:15:00Z`; 600 a minute.\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('a repository whose docs name only what exists, with figures at home, passes', () => {
	expect(checkDocs(root)).toEqual([]);
});

test('a planted broken path, script, link or anchor is named with its file, line and rule', () => {
	write('docs/guide.md', '# Guide\n\nSee `scripts/missing.mjs` and `npm run bulid`.\n');
	write('CONTRIBUTING.md', '# Contributing\n\n[a](docs/nowhere.md) [b](README.md#no-such-part)\n');
	expect(checkDocs(root).map((problem) => problem.replace(/\. Fix: .*$/, ''))).toEqual([
		'README.md:5: [link] link docs/guide.md#the-loop: docs/guide.md has no heading with the anchor #the-loop',
		'CONTRIBUTING.md:3: [link] link docs/nowhere.md: docs/nowhere.md does not exist',
		'CONTRIBUTING.md:3: [link] link README.md#no-such-part: README.md has no heading with the anchor #no-such-part',
		'docs/guide.md:3: [path] `scripts/missing.mjs` does not exist',
		'docs/guide.md:3: [script] `npm run bulid`: no such script in package.json',
	]);
});

test('every problem says how to fix it', () => {
	write('docs/guide.md', '# Guide\n\n## The loop\n\nSee `scripts/missing.mjs`.\n');
	expect(checkDocs(root)).toEqual([
		'docs/guide.md:5: [path] `scripts/missing.mjs` does not exist. Fix: name the path as it is in the repository (from its root), or a placeholder such as <name>',
	]);
});

describe('commands: npm, npx and node name what exists', () => {
	test.each([
		['`npm instal x`', '[command] `npm instal`: not an npm command'],
		[
			'`npx jset test/unit`',
			'[command] `npx jset`: no such bin in node_modules/.bin nor devDependency',
		],
		[
			'`node scripts/nowhere.mjs`',
			'[command] `node scripts/nowhere.mjs`: scripts/nowhere.mjs does not exist',
		],
		['\n```bash\nnpm run bulid\n```\n', '[script] `npm run bulid`: no such script in package.json'],
		['`npx tsx scripts/gone.ts`', '[path] `scripts/gone.ts` does not exist'],
	])('%s fails', (planted, problem) => {
		const problems = plant('docs/guide.md', `\n${planted}\n`);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(/^docs\/guide\.md:\d+: /);
		expect(problems[0]).toContain(problem);
	});

	test("npm's own commands, `npm test`, a fetched `npx <package>@<version>`, `node -e` pass", () => {
		expect(
			plant(
				'docs/guide.md',
				"\n`npm ci`, `npm test`, `npm version 0.1.0 --allow-same-version`, `npx n8n@2.8.4`, `node -e 'x'`, `flock -x /tmp/l npm run build`\n",
			),
		).toEqual([]);
	});
});

describe("flags: given to one of our scripts, read by that script's code", () => {
	test.each([
		[
			'`npm run build -- --onyl`',
			'`--onyl`: scripts/build.mjs (and the files it imports) reads no such flag',
		],
		[
			'`npm run test:e2e -- --host 1`',
			'`--host`: scripts/e2e.mjs (and the files it imports) reads no such flag',
		],
		[
			'`node scripts/build.mjs --old`',
			'`--old`: scripts/build.mjs (and the files it imports) reads no such flag',
		],
	])('%s fails', (planted, problem) => {
		const problems = plant('docs/guide.md', `\n${planted}\n`);
		expect(problems).toEqual([expect.stringContaining(`[flag] ${problem}`)]);
	});

	test("a flag read in an imported file, a parseArgs option, npm's own flags pass", () => {
		expect(
			plant(
				'docs/guide.md',
				'\n`npm run build -- --only`, `npm run test:e2e -- --port 4010`, `npm ci --prefer-offline`\n',
			),
		).toEqual([]);
	});
});

describe('environment variables: named in code, read by the code', () => {
	test.each([
		['`BENCH_ROUNDZ=2 npm run build`', 'BENCH_ROUNDZ'],
		['`E2E_NOTHING`', 'E2E_NOTHING'],
		['\n```bash\nFOO_BAR=1 npm test\n```\n', 'FOO_BAR'],
	])('%s fails', (planted, name) => {
		expect(plant('docs/guide.md', `\n${planted}\n`)).toEqual([
			expect.stringContaining(`[env] environment variable ${name} appears in no code`),
		]);
	});

	test("one the code reads, and Node's own, pass", () => {
		expect(
			plant('docs/guide.md', '\n`BENCH_ROUNDS=1 npm run build`, `NODE_EXTRA_CA_CERTS`\n'),
		).toEqual([]);
	});
});

describe('paths: in code blocks and relative to the document', () => {
	test.each([
		['\n```bash\nnpx jest test/gone.test.ts\n```\n', '[path] `test/gone.test.ts` does not exist'],
		[
			'`../scripts/gone.mjs`',
			'[path] `../scripts/gone.mjs` (from docs/guide.md: scripts/gone.mjs) does not exist',
		],
		['see scripts/e2e/gone.mjs in prose', '[path] `scripts/e2e/gone.mjs` does not exist'],
	])('%s fails', (planted, problem) => {
		expect(plant('docs/guide.md', `\n${planted}\n`)).toEqual([expect.stringContaining(problem)]);
	});

	test('a relative import inside code is relative to the code, not to the document', () => {
		expect(plant('docs/guide.md', "\n```ts\nimport { x } from '../itemLoop';\n```\n")).toEqual([]);
	});
});

describe('figures: a measured figure lives only in its home', () => {
	test.each([
		['The import took 27 calls.', '"27 calls"'],
		['It ran in 31 s.', '"31 s"'],
		['A ratio of 1.2x.', '"1.2x"'],
		['45 % of the answers', '"45 %"'],
		['2,252 calls in all', '"2,252 calls"'],
		['\n```bash\nnpm run build   # 90 s\n```\n', '"90 s"'],
		['[27 calls](guide.md#the-loop): a link to a page that is not a home', '"27 calls"'],
	])('"%s" in docs/guide.md fails', (planted, figure) => {
		expect(plant('docs/guide.md', `\n${planted}\n`)).toEqual([
			expect.stringContaining(`[figure] ${figure} is a measured figure outside its home`),
		]);
	});

	test('README and CHANGELOG are checked too', () => {
		expect(plant('CHANGELOG.md', '\n- Faster: 2.5x.\n')).toEqual([
			expect.stringMatching(/^CHANGELOG\.md:\d+: \[figure\] "2\.5x"/),
		]);
	});

	test("a link's text to a home, a constant the code defines, a status code's plural, api-contract.md pass", () => {
		expect(
			plant(
				'docs/guide.md',
				'\n[1.2x](performance.md#figures) faster; at most 15 minutes (or 15 min); 429s are waited out.\n',
			),
		).toEqual([]);
		expect(plant('docs/api-contract.md', '\nAn upload over 50 MB takes 90 s.\n')).toEqual([]);
	});

	test('a constant whose code changed fails, naming the entry, and its figure is no longer allowed', () => {
		const retry = 'nodes/ContentMarketing/transport/retry.ts';
		write(retry, DEFINITIONS[retry].replace('15 * 60_000', '20 * 60_000'));
		const problems = checkDocs(root);
		expect(problems[0]).toMatch(
			/^scripts\/docs-check\.ts: \[figure\] CONSTANTS: nodes\/ContentMarketing\/transport\/retry\.ts no longer matches/,
		);
		expect(problems[1]).toMatch(/^README\.md:6: \[figure\] "15 minutes"/);
	});

	test('figures are compared in one spelling', () => {
		expect(normalFigure('2,252 calls')).toBe('2252 calls');
		expect(normalFigure('15 minutes')).toBe('15 min');
		expect(normalFigure('600 a minute')).toBe('600 /min');
		expect(normalFigure('1.2×')).toBe('1.2 x');
	});
});

test('a date or a commit hash in README, CONTRIBUTING or docs/ fails; CHANGELOG may carry dates', () => {
	write('docs/guide.md', '# Guide\n\n## The loop\n\nMeasured 2026-11-27 at 9d680cf.\n');
	expect(checkDocs(root).map((problem) => problem.replace(/\. Fix: .*$/, ''))).toEqual([
		'docs/guide.md:5: [date] a date (2026-11-27)',
		'docs/guide.md:5: [date] a commit hash (9d680cf)',
	]);
});

test('README above 15 KB fails with its size', () => {
	write('README.md', `# Title\n\n## What it does: in short\n\n${'x'.repeat(15 * 1024)}\n`);
	const bytes = fs.statSync(path.join(root, 'README.md')).size;
	expect(checkDocs(root)).toEqual([
		`README.md: [budget] ${bytes} bytes, over its ${15 * 1024}. Fix: cut ${bytes - 15 * 1024} bytes (depth goes to docs/, history to commit messages)`,
	]);
});

test("GitHub's anchors: punctuation dropped, spaces as hyphens, repeats numbered, fences skipped", () => {
	expect([
		...anchors('# A: b (c)\n## A: b (c)\n```\n# not a heading\n```\n### `npm run x` & [y](z)\n'),
	]).toEqual(['a-b-c', 'a-b-c-1', 'npm-run-x--y']);
});

test('a shell line splits into commands without assignments, flock and time', () => {
	expect(
		commandsOf('FOO=1 flock -x /tmp/l /usr/bin/time npm run x -- --a && node y.mjs # 3 s'),
	).toEqual([
		['npm', 'run', 'x', '--', '--a'],
		['node', 'y.mjs'],
	]);
});

/** The files CONSTANTS (scripts/docs-check.ts) read, with the text that defines each value. */
const DEFINITIONS: Record<string, string> = {
	'sandbox/src/config.ts': [
		'rate_limit: { requests: 600, window_seconds: 60 },',
		'webhook_timeout_ms: 5_000,',
		'webhook_retry_delays_ms: [10_000, 60_000, 600_000, 3_600_000, 21_600_000],',
	].join('\n'),
	'sandbox/src/routes/events.ts': 'export const EVENT_RETENTION_MS = 7 * DAY_MS;',
	'sandbox/src/model.ts':
		'export const UPLOAD_LIMIT_BYTES = { free: 52_428_800, paid: 524_288_000 };',
	'nodes/ContentMarketing/transport/retry.ts': [
		'export const MAX_KEY_WAIT_MS = 15 * 60_000;',
		'const MAX_DELAY_MS = 30_000;',
		'const MAX_RETRY_AFTER_MS = 60_000;',
		'delay * (1 + Math.random() * 0.1)',
	].join('\n'),
	'nodes/ContentMarketing/transport/keyPace.ts': 'const IDLE_MS = 10 * 60_000;',
	'nodes/ContentMarketing/transport/concurrency.ts': 'const SLOW_SLACK_MS = 100;',
	'nodes/ContentMarketing/pollTrigger/budget.ts': 'export const MAX_POLL_BUDGET_MS = 30_000;',
	'nodes/ContentMarketing/trigger/eventLedger.ts': [
		'export const PENDING_STALE_SECONDS = 60;',
		'export const RETRY_SETTLE_SECONDS = 30;',
		'export const DEDUPE_HORIZON_SECONDS = 8 * 3600;',
		'export const JOURNAL_SLACK_SECONDS = 45;',
		'export const JOURNAL_MAX_IDS = 4096;',
	].join('\n'),
	'nodes/ContentMarketing/trigger/saveOrder.ts': [
		'export const DEFER_AFTER_WAIT_MS = 1500;',
		'export const MAX_WAITING_CALLS = 8;',
	].join('\n'),
	'scripts/e2e/queue/workflows.mjs': 'export const BINARY_BYTES = 20 * 1024 * 1024;',
	'scripts/e2e/check-dev-reload.mjs': "const TIMEOUT = arg('timeout', 120);",
};
