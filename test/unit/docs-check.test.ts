// scripts/docs-check.ts (in `npm run lint`) on a small repository in a temporary folder: quiet when every
// name holds, and one problem, naming the file and line, for each kind of broken name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { anchors, checkDocs } from '../../scripts/docs-check';

let root: string;

function write(file: string, text: string): void {
	fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
	fs.writeFileSync(path.join(root, file), text);
}

beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-docs-check-'));
	write('package.json', JSON.stringify({ scripts: { build: 'x', 'test:e2e': 'y' } }));
	write('scripts/build.mjs', '');
	write(
		'README.md',
		'# Title\n\n## What it does: in short\n\nRun `npm run build`, see `scripts/build.mjs` and [docs](docs/guide.md#the-loop).\n',
	);
	write('CONTRIBUTING.md', '# Contributing\n\n[back](README.md#what-it-does-in-short)\n');
	write('CHANGELOG.md', '# Changelog\n\n## 0.1.0 - 2026-11-27\n');
	write(
		'docs/guide.md',
		'# Guide\n\n## The loop\n\n```bash\nnpm run test:e2e   # in a fence: scripts are checked\n```\n\n[up](../README.md) `nodes/<resource>/x.ts` `transport/retry.ts`\n',
	);
	write('docs/api-contract.md', 'Timestamps look like `2026-11-21T08:15:00Z`.\n');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('a repository whose docs name only what exists passes (placeholders and shorthand paths are not names)', () => {
	expect(checkDocs(root)).toEqual([]);
});

test('a planted broken path, script, link or anchor is named with its file and line', () => {
	write('docs/guide.md', '# Guide\n\nSee `scripts/missing.mjs` and `npm run bulid`.\n');
	write('CONTRIBUTING.md', '# Contributing\n\n[a](docs/nowhere.md) [b](README.md#no-such-part)\n');
	expect(checkDocs(root)).toEqual(
		[
			'CONTRIBUTING.md:3: link docs/nowhere.md: docs/nowhere.md does not exist',
			'CONTRIBUTING.md:3: link README.md#no-such-part: README.md has no heading with the anchor #no-such-part',
			'docs/guide.md:3: `npm run bulid`: no such script',
			'docs/guide.md:3: `scripts/missing.mjs` does not exist',
			'README.md:5: link docs/guide.md#the-loop: docs/guide.md has no heading with the anchor #the-loop',
		].sort((a, b) => order(a) - order(b)),
	);
});

test('a date or a commit hash in README, CONTRIBUTING or docs/ fails; CHANGELOG may carry dates', () => {
	write('docs/guide.md', '# Guide\n\n## The loop\n\nMeasured 2026-11-27 at 9d680cf.\n');
	expect(checkDocs(root)).toEqual([
		'docs/guide.md:5: a date (2026-11-27): dated runs go to CHANGELOG.md',
		'docs/guide.md:5: a commit hash (9d680cf): runs go to commit messages',
	]);
});

test('README above 15 KB fails with its size', () => {
	write('README.md', `# Title\n\n## What it does: in short\n\n${'x'.repeat(15 * 1024)}\n`);
	const bytes = fs.statSync(path.join(root, 'README.md')).size;
	expect(checkDocs(root)).toEqual([`README.md: ${bytes} bytes, over its ${15 * 1024}`]);
});

test("GitHub's anchors: punctuation dropped, spaces as hyphens, repeats numbered, fences skipped", () => {
	expect([
		...anchors('# A: b (c)\n## A: b (c)\n```\n# not a heading\n```\n### `npm run x` & [y](z)\n'),
	]).toEqual(['a-b-c', 'a-b-c-1', 'npm-run-x--y']);
});

/** The order checkDocs reports in: README, CONTRIBUTING, CHANGELOG, then docs/ by name. */
function order(problem: string): number {
	return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'docs/'].findIndex((file) =>
		problem.startsWith(file),
	);
}
