// The docs check (part of `npm run lint`; alone: `npx tsx scripts/docs-check.ts`): what README.md,
// CONTRIBUTING.md, CHANGELOG.md and docs/ name must exist, and the reader's documents stay within budget.
// - every `npm run <script>` is a script of package.json;
// - every repository path in backticks (its first segment a top-level file or folder of the repository,
//   no placeholder such as <resource> or *) exists;
// - every relative Markdown link lands on a file, and its #anchor on a heading (GitHub's slug rules);
// - README.md ≤ 15 KB, CONTRIBUTING.md ≤ 12 KB, docs/ without api-contract.md ≤ 50 KB (KB: 1,024 bytes);
// - no line of README.md, CONTRIBUTING.md or docs/ carries a date (YYYY-MM-DD; an ISO timestamp such as
//   2026-11-21T08:15:00Z in an API example is not one) or a commit hash: dated runs go to CHANGELOG.md or
//   the commit message, and a figure in the docs sits beside the command that prints it.
import fs from 'node:fs';
import path from 'node:path';

export const BUDGETS: Array<{ what: string; files: (root: string) => string[]; bytes: number }> = [
	{ what: 'README.md', files: () => ['README.md'], bytes: 15 * 1024 },
	{ what: 'CONTRIBUTING.md', files: () => ['CONTRIBUTING.md'], bytes: 12 * 1024 },
	{
		what: 'docs/ without api-contract.md',
		files: (root) =>
			fs
				.readdirSync(path.join(root, 'docs'))
				.filter((name) => name !== 'api-contract.md')
				.map((name) => `docs/${name}`),
		bytes: 50 * 1024,
	},
];

/** The documents checked, relative to the repository; `datesAllowed`: CHANGELOG.md only. */
export function documents(root: string): Array<{ file: string; datesAllowed: boolean }> {
	const docs = fs
		.readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => ({ file: `docs/${name}`, datesAllowed: false }));
	return [
		{ file: 'README.md', datesAllowed: false },
		{ file: 'CONTRIBUTING.md', datesAllowed: false },
		{ file: 'CHANGELOG.md', datesAllowed: true },
		...docs,
	];
}

/** The lines of a Markdown text with a flag for those inside a fenced code block (fences included). */
function linesOf(markdown: string): Array<{ text: string; number: number; fenced: boolean }> {
	let fenced = false;
	return markdown.split('\n').map((text, index) => {
		const fence = /^\s*(```|~~~)/.test(text);
		if (fence) fenced = !fenced;
		return { text, number: index + 1, fenced: fenced || fence };
	});
}

/** GitHub's anchor for each heading (outside code fences): lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` on repeats. */
export function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const line of linesOf(markdown)) {
		const heading = !line.fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line.text);
		if (!heading) continue;
		const text = heading[1]
			.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
			.replace(/<[^>]+>/g, '');
		const slug = text
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		result.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return result;
}

/** What is wrong with a link to `file` (relative to the repository) and `anchor`, or undefined. */
export function linkProblem(root: string, file: string, anchor?: string): string | undefined {
	const target = path.join(root, file);
	if (!fs.existsSync(target)) return `${file} does not exist`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!file.endsWith('.md')) return `#${anchor} in a file that is not Markdown`;
	return anchors(fs.readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))
		? undefined
		: `${file} has no heading with the anchor #${anchor}`;
}

/** The repository's top-level entries a backticked path may start with (not what a build or install makes). */
function topLevel(root: string): Set<string> {
	const ignored = new Set(['node_modules', 'dist', '.git', '.cache', '.tmp', 'coverage']);
	return new Set(
		fs.readdirSync(root).filter((name) => !ignored.has(name) && !name.startsWith('.n8n-test')),
	);
}

/** A backticked text that names a path of the repository (`docs/x.md`, `scripts/e2e/`, `docs/x.md §5`), or undefined. */
export function repositoryPath(code: string, entries: Set<string>): string | undefined {
	const first = code.trim().split(/\s+/)[0].replace(/:\d+$/, '');
	if (!/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(first) || !first.includes('/')) return undefined;
	if (!entries.has(first.split('/')[0])) return undefined;
	return first.replace(/\/$/, '');
}

/** Every problem of the documents, as `file:line: what`. */
export function checkDocs(root: string): string[] {
	const problems: string[] = [];
	const scripts = Object.keys(
		JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {},
	);
	const entries = topLevel(root);
	for (const { file, datesAllowed } of documents(root)) {
		const markdown = fs.readFileSync(path.join(root, file), 'utf8');
		// a file the walk-through creates (scripts/check-walkthrough.mjs) exists only in its replay
		const created = new Set(
			[...markdown.matchAll(/<!-- replay: create (\S+) -->/g)].map((match) => match[1]),
		);
		for (const line of linesOf(markdown)) {
			const at = `${file}:${line.number}`;
			for (const [, script] of line.text.matchAll(/\bnpm run ([\w:.-]+)/g))
				if (!scripts.includes(script))
					problems.push(`${at}: \`npm run ${script}\`: no such script`);
			if (!datesAllowed) {
				const date = /(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])/.exec(line.text);
				if (date) problems.push(`${at}: a date (${date[0]}): dated runs go to CHANGELOG.md`);
				for (const [word] of line.text.matchAll(/(?<![\w./-])[0-9a-f]{7,40}(?![\w/-])/g))
					if (/[a-f]/.test(word) && /\d/.test(word))
						problems.push(`${at}: a commit hash (${word}): runs go to commit messages`);
			}
			if (line.fenced) continue;
			const prose = line.text.replace(/``[^`]*``/g, '');
			for (const [, code] of prose.matchAll(/`([^`]+)`/g)) {
				const named = repositoryPath(code, entries);
				if (named && !created.has(named) && !fs.existsSync(path.join(root, named)))
					problems.push(`${at}: \`${named}\` does not exist`);
			}
			const withoutCode = prose.replace(/`[^`]*`/g, '');
			for (const [, target] of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
				if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
				const [address, anchor] = target.split('#');
				const linked =
					address === ''
						? file
						: path.posix.normalize(path.posix.join(path.posix.dirname(file), address));
				const found = linkProblem(root, linked, anchor);
				if (found) problems.push(`${at}: link ${target}: ${found}`);
			}
		}
	}
	for (const budget of BUDGETS) {
		const bytes = budget
			.files(root)
			.reduce((sum, file) => sum + fs.statSync(path.join(root, file)).size, 0);
		if (bytes > budget.bytes)
			problems.push(`${budget.what}: ${bytes} bytes, over its ${budget.bytes}`);
	}
	return problems;
}

if (require.main === module) {
	const root = path.resolve(__dirname, '..');
	const problems = checkDocs(root);
	for (const problem of problems) console.log(problem);
	process.exit(problems.length ? 1 : 0);
}
