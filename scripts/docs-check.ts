// The docs check (part of `npm run lint`; alone: `npx tsx scripts/docs-check.ts`): what README.md,
// CONTRIBUTING.md, CHANGELOG.md and docs/ name must exist, each measured figure has one home, and the
// reader's documents stay within budget. Every problem is printed as `file:line: [rule] what. Fix: how`.
// Rules (RULES below names each):
// - script: every `npm run <script>` (and `npm test`, `npm start`) is a script of package.json;
// - command: every `npm <command>` is one of npm's commands, every `npx <bin>` a bin of node_modules/.bin
//   or a devDependency (or an explicit `<package>@<version>`, which npx fetches), every `node <file>` a file;
// - flag: every `--flag` given to one of our scripts (`npm run <script> -- --flag`, `node <file> --flag`,
//   `npx tsx <file> --flag`) appears in the code of that script (its file and the local files it imports);
// - env: every environment variable named in code (a `NAME=value` assignment, or a name with a prefix of
//   ENV_PREFIXES or in N8N_VARIABLES) appears in the repository's code (scripts/, bench/, sandbox/, test/,
//   compat/, .ci/, .github/), or is one the runtime reads (RUNTIME_VARIABLES);
// - path: every repository path (its first segment a top-level file or folder, no placeholder such as
//   <resource>, {a,b} or *) in backticks, in a fenced block or in prose with a file extension, and every
//   `./` or `../` path (relative to the document), exists; a file the walk-through creates is exempt;
// - link: every relative Markdown link lands on a file, and its #anchor on a heading (GitHub's slugs);
// - figure: a measured figure (a number with a unit of time, size, share, ratio, rate or calls: FIGURE)
//   appears only in its home, FIGURE_HOMES (docs/performance.md, docs/checks.md), beside the command that
//   measures it. Elsewhere it is allowed only as the text of a link to a home, or when it is a constant
//   the code defines: an entry of CONSTANTS, which names the figure, the file and the text there that
//   defines it (the entry fails when that text is gone, so a constant that changed cannot stay in the
//   docs). docs/api-contract.md defines the service (the sandbox implements it) and is not checked for
//   figures. Inline code (`...`) is not prose and is skipped;
// - date: no line of README.md, CONTRIBUTING.md or docs/ carries a date (YYYY-MM-DD; an ISO timestamp
//   such as 2026-11-21T08:15:00Z in an API example is not one) or a commit hash;
// - budget: README.md ≤ 15 KB, CONTRIBUTING.md ≤ 12 KB, docs/ without api-contract.md and the walk-through
//   ≤ 50 KB, the walk-through (docs/adding-an-operation.md, mostly replayed code) ≤ 12 KB.
import fs from 'node:fs';
import path from 'node:path';

export const BUDGETS: Array<{ what: string; files: (root: string) => string[]; bytes: number }> = [
	{ what: 'README.md', files: () => ['README.md'], bytes: 15 * 1024 },
	{ what: 'CONTRIBUTING.md', files: () => ['CONTRIBUTING.md'], bytes: 12 * 1024 },
	{
		what: 'docs/ without api-contract.md and adding-an-operation.md',
		files: (root) =>
			fs
				.readdirSync(path.join(root, 'docs'))
				.filter((name) => !['api-contract.md', 'adding-an-operation.md'].includes(name))
				.map((name) => `docs/${name}`),
		bytes: 50 * 1024,
	},
	// the walk-through is mostly the code CI replays (scripts/check-walkthrough.mjs)
	{
		what: 'docs/adding-an-operation.md',
		files: () => ['docs/adding-an-operation.md'],
		bytes: 12 * 1024,
	},
];

/** Where measured figures live, each beside the command that measures them. */
export const FIGURE_HOMES = ['docs/performance.md', 'docs/checks.md'];
/** Documents not checked for figures: the service's contract, whose numbers are definitions. */
const FIGURES_UNCHECKED = ['docs/api-contract.md'];

/**
 * Constants the code defines, which any document may state. `figures`: as the docs write them (compared
 * after normalising: no thousands separators, one unit spelling); `defines`: the text in `file` that
 * defines the value, so the entry fails when the code changes it.
 */
export const CONSTANTS: Array<{ figures: string[]; file: string; defines: RegExp }> = [
	// the service (the sandbox implements docs/api-contract.md)
	{
		figures: ['600 a minute', '600 calls', '600/min'],
		file: 'sandbox/src/config.ts',
		defines: /rate_limit: \{ requests: 600, window_seconds: 60 \}/,
	},
	{ figures: ['5 s'], file: 'sandbox/src/config.ts', defines: /webhook_timeout_ms: 5_000/ },
	{
		figures: ['10 s', '1 min', '10 min', '1 h', '6 h'],
		file: 'sandbox/src/config.ts',
		defines: /webhook_retry_delays_ms: \[10_000, 60_000, 600_000, 3_600_000, 21_600_000\]/,
	},
	{ figures: ['7 days'], file: 'sandbox/src/routes/events.ts', defines: /= 7 \* DAY_MS/ },
	{
		figures: ['50 MB', '500 MB'],
		file: 'sandbox/src/model.ts',
		defines: /free: 52_428_800, paid: 524_288_000/,
	},
	// the transport
	{
		figures: ['15 minutes'],
		file: 'nodes/ContentMarketing/transport/retry.ts',
		defines: /MAX_KEY_WAIT_MS = 15 \* 60_000/,
	},
	{
		figures: ['30 s'],
		file: 'nodes/ContentMarketing/transport/retry.ts',
		defines: /MAX_DELAY_MS = 30_000/,
	},
	{
		figures: ['60 s'],
		file: 'nodes/ContentMarketing/transport/retry.ts',
		defines: /MAX_RETRY_AFTER_MS = 60_000/,
	},
	{
		figures: ['10 %'],
		file: 'nodes/ContentMarketing/transport/retry.ts',
		defines: /Math\.random\(\) \* 0\.1/,
	},
	{
		figures: ['10 minutes'],
		file: 'nodes/ContentMarketing/transport/keyPace.ts',
		defines: /IDLE_MS = 10 \* 60_000/,
	},
	{
		figures: ['100 ms'],
		file: 'nodes/ContentMarketing/transport/concurrency.ts',
		defines: /SLOW_SLACK_MS = 100/,
	},
	// the triggers
	{
		figures: ['30 s'],
		file: 'nodes/ContentMarketing/pollTrigger/budget.ts',
		defines: /MAX_POLL_BUDGET_MS = 30_000/,
	},
	{
		figures: ['60 s'],
		file: 'nodes/ContentMarketing/trigger/eventLedger.ts',
		defines: /PENDING_STALE_SECONDS = 60/,
	},
	{
		figures: ['8 hours'],
		file: 'nodes/ContentMarketing/trigger/eventLedger.ts',
		defines: /DEDUPE_HORIZON_SECONDS = 8 \* 3600/,
	},
	{
		figures: ['45 s'],
		file: 'nodes/ContentMarketing/trigger/eventLedger.ts',
		defines: /JOURNAL_SLACK_SECONDS = 45/,
	},
	{
		figures: ['32 kB'],
		file: 'nodes/ContentMarketing/trigger/eventLedger.ts',
		defines: /JOURNAL_MAX_IDS = 4096/, // 4,096 fingerprints of 8 characters
	},
	{
		figures: ['1.5 s'],
		file: 'nodes/ContentMarketing/trigger/saveOrder.ts',
		defines: /DEFER_AFTER_WAIT_MS = 1500/,
	},
	{
		figures: ['30 s'],
		file: 'nodes/ContentMarketing/trigger/eventLedger.ts',
		defines: /RETRY_SETTLE_SECONDS = 30/,
	},
	{
		figures: ['8 calls'],
		file: 'nodes/ContentMarketing/trigger/saveOrder.ts',
		defines: /MAX_WAITING_CALLS = 8/,
	},
	// the checks' own settings, which their commands' docs describe
	{
		figures: ['20 MB'],
		file: 'scripts/e2e/queue/workflows.mjs',
		defines: /BINARY_BYTES = 20 \* 1024 \* 1024/,
	},
	{
		figures: ['120 s'],
		file: 'scripts/e2e/check-dev-reload.mjs',
		defines: /arg\('timeout', 120\)/,
	},
];

/** Prefixes of the environment variables the docs name (ours, n8n's, Node's and npm's). */
export const ENV_PREFIXES = [
	'N8N_',
	'E2E_',
	'BENCH_',
	'WALKTHROUGH_',
	'CONTENT_MARKETING_',
	'NODE_',
	'npm_config_',
];
/** n8n's variables without the N8N_ prefix. */
export const N8N_VARIABLES = ['WEBHOOK_URL', 'QUEUE_BULL_REDIS_HOST', 'DB_TYPE'];
/** Read by Node.js or npm themselves, not by our code. */
export const RUNTIME_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'npm_config_cache'];

/** npm's own commands a document may name (besides `npm run`, checked against package.json). */
const NPM_COMMANDS = new Set([
	'ci',
	'install',
	'i',
	'uninstall',
	'update',
	'run',
	'test',
	'start',
	'pack',
	'publish',
	'version',
	'exec',
	'view',
	'ls',
	'config',
	'cache',
	'link',
	'outdated',
]);

/** The rules, as printed in each problem. */
export const RULES = {
	script: 'script',
	command: 'command',
	flag: 'flag',
	env: 'env',
	path: 'path',
	link: 'link',
	figure: 'figure',
	date: 'date',
	budget: 'budget',
} as const;

/** A measured figure: a number (thousands separators allowed) and a unit. */
export const FIGURE =
	/(?<![\w.,/-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(ms|s|sec|seconds?|min|minutes?|h|hours?|days?|%|x|×|calls|requests|kB|KB|MB|GB|bytes|\/s|\/min|a second|a minute|per second|per minute)(?![\w])/g;

const UNIT_SPELLING: Record<string, string> = {
	sec: 's',
	second: 's',
	seconds: 's',
	minute: 'min',
	minutes: 'min',
	hour: 'h',
	hours: 'h',
	day: 'days',
	KB: 'kB',
	'×': 'x',
	'a second': '/s',
	'per second': '/s',
	'a minute': '/min',
	'per minute': '/min',
};

/** A figure in one spelling: `2,252 calls` → `2252 calls`, `15 minutes` → `15 min`, `600 a minute` → `600 /min`. */
export function normalFigure(text: string): string {
	FIGURE.lastIndex = 0;
	const match = new RegExp(FIGURE.source).exec(text);
	if (!match) return text;
	const [, whole, fraction = '', unit] = match;
	return `${whole.replace(/,/g, '')}${fraction} ${UNIT_SPELLING[unit] ?? unit}`;
}

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

interface Line {
	text: string;
	number: number;
	fenced: boolean;
	/** The fence's language for a line inside one ('' when none is given). */
	language?: string;
}

/** The lines of a Markdown text with a flag for those inside a fenced code block (fences included). */
function linesOf(markdown: string): Line[] {
	let fenced = false;
	let language = '';
	return markdown.split('\n').map((text, index) => {
		const fence = /^\s*(```|~~~)\s*([\w-]*)/.exec(text);
		if (fence) {
			fenced = !fenced;
			if (fenced) language = fence[2];
			return { text, number: index + 1, fenced: true };
		}
		return { text, number: index + 1, fenced, language: fenced ? language : undefined };
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

/** The repository's top-level entries a path may start with (not what a build or install makes). */
function topLevel(root: string): Set<string> {
	const ignored = new Set(['node_modules', 'dist', '.git', '.cache', '.tmp', 'coverage']);
	return new Set(
		fs.readdirSync(root).filter((name) => !ignored.has(name) && !name.startsWith('.n8n-test')),
	);
}

/** A backticked text that names a path of the repository (`docs/x.md`, `scripts/e2e/`, `docs/x.md §5`), or undefined. */
export function repositoryPath(code: string, entries: Set<string>): string | undefined {
	const first = code.trim().split(/\s+/)[0].replace(/:\d+$/, '');
	return pathToken(first, entries);
}

/** One word that names a path of the repository, or undefined (placeholders and shorthand are not paths). */
function pathToken(word: string, entries: Set<string>): string | undefined {
	const token = word.replace(/^['"(]+|['"),.;:]+$/g, '').replace(/:\d+$/, '');
	if (!/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(token) || !token.includes('/')) return undefined;
	if (!entries.has(token.split('/')[0])) return undefined;
	return token.replace(/\/$/, '');
}

/** The words of a shell line split into commands (`&&`, `;`, `|`), each without leading `VAR=value`, `flock -x <lock>`, `/usr/bin/time`. */
export function commandsOf(shell: string): string[][] {
	const withoutComment = shell.replace(/(^|\s)#.*$/, '');
	return withoutComment
		.split(/&&|\|\||;|\|/)
		.map((part) => part.trim().split(/\s+/).filter(Boolean))
		.map((words) => {
			let at = 0;
			for (;;) {
				if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at] ?? '')) at++;
				else if (words[at] === 'flock') {
					at++;
					while ((words[at] ?? '').startsWith('-')) at++;
					at++; // the lock file
				} else if (/(^|\/)time$/.test(words[at] ?? '') || words[at] === 'sudo') at++;
				else break;
			}
			return words.slice(at);
		})
		.filter((words) => words.length > 0);
}

/** The code of a script: its file and every local file it imports, transitively, with full-line comments removed. */
function scriptCode(root: string, file: string, seen = new Set<string>()): string {
	const absolute = path.resolve(root, file);
	if (seen.has(absolute) || !fs.existsSync(absolute) || !fs.statSync(absolute).isFile()) return '';
	seen.add(absolute);
	const text = fs.readFileSync(absolute, 'utf8');
	let code = text
		.split('\n')
		.filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
		.join('\n');
	for (const [, specifier] of text.matchAll(
		/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g,
	)) {
		const base = path.resolve(path.dirname(absolute), specifier);
		for (const candidate of [base, ...['.ts', '.mjs', '.js', '.cjs'].map((ext) => base + ext)])
			if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
				code += `\n${scriptCode(root, candidate, seen)}`;
				break;
			}
	}
	return code;
}

/** The file a package.json script runs (its last word that is a file of the repository), or undefined. */
function scriptFile(root: string, command: string): string | undefined {
	return command
		.split(/\s+/)
		.reverse()
		.find((word) => /\.(m?js|cjs|ts)$/.test(word) && fs.existsSync(path.join(root, word)));
}

/** Whether `flag` (without its dashes) is read by `code`: `--flag`, `'flag'`, `"flag"` or `flag:` (parseArgs). */
function readsFlag(code: string, flag: string): boolean {
	const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`--${escaped}\\b|['"\`]${escaped}['"\`=]|(^|[\\s{,])${escaped}\\s*:`, 'm').test(
		code,
	);
}

/** Every file of the repository's code folders, read once per check: where environment variables must appear. */
function codeText(root: string): string {
	const folders = [
		'scripts',
		'bench',
		'sandbox',
		'test',
		'compat',
		'nodes',
		'credentials',
		'.ci',
		'.github',
	];
	const texts: string[] = [];
	const walk = (dir: string): void => {
		if (!fs.existsSync(dir)) return;
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			if (entry.name === 'node_modules' || entry.name === 'dist') continue;
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (
				!/\.(md|png|svg|json|csv|yaml\.lock)$/.test(entry.name) ||
				entry.name === 'package.json'
			)
				texts.push(fs.readFileSync(full, 'utf8'));
		}
	};
	for (const folder of folders) walk(path.join(root, folder));
	texts.push(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return texts.join('\n');
}

/** The names of environment variables in a piece of code (a code span or a fenced line). */
export function environmentVariables(code: string): string[] {
	const names = new Set<string>();
	for (const [, name] of code.matchAll(/(?<![\w.$-])([A-Za-z_][A-Za-z0-9_]*)=/g))
		if (/^[A-Z][A-Z0-9_]*$|^npm_config_/.test(name)) names.add(name);
	for (const [name] of code.matchAll(/(?<![\w.$-])[A-Za-z][A-Za-z0-9_]*(?![\w])/g))
		if (
			(ENV_PREFIXES.some((prefix) => name.startsWith(prefix)) && name.length > 4) ||
			N8N_VARIABLES.includes(name)
		)
			names.add(name);
	return [...names];
}

/** Every problem of the documents, as `file:line: [rule] what. Fix: how`. */
export function checkDocs(root: string): string[] {
	const problems: string[] = [];
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const scripts: Record<string, string> = pkg.scripts ?? {};
	const devDependencies = Object.keys(pkg.devDependencies ?? {});
	const bins = fs.existsSync(path.join(root, 'node_modules/.bin'))
		? fs.readdirSync(path.join(root, 'node_modules/.bin'))
		: [];
	const entries = topLevel(root);
	let code: string | undefined;
	const inCode = (name: string): boolean =>
		new RegExp(`(?<![\\w])${name}(?![\\w])`).test((code ??= codeText(root)));

	const constants = new Map<string, string>();
	for (const constant of CONSTANTS) {
		const source = path.join(root, constant.file);
		const text = fs.existsSync(source) ? fs.readFileSync(source, 'utf8') : '';
		if (!constant.defines.test(text)) {
			problems.push(
				`scripts/docs-check.ts: [${RULES.figure}] CONSTANTS: ${constant.file} no longer matches ${String(constant.defines)} (${constant.figures.join(', ')}). Fix: point the entry at the code that defines the value now, and change the docs that state it`,
			);
			continue;
		}
		for (const figure of constant.figures) constants.set(normalFigure(figure), constant.file);
	}

	for (const { file, datesAllowed } of documents(root)) {
		const markdown = fs.readFileSync(path.join(root, file), 'utf8');
		const folder = path.posix.dirname(file);
		const figuresChecked = !FIGURE_HOMES.includes(file) && !FIGURES_UNCHECKED.includes(file);
		// a file the walk-through creates (scripts/check-walkthrough.mjs) exists only in its replay
		const created = new Set(
			[...markdown.matchAll(/<!-- replay: create (\S+) -->/g)].map((match) => match[1]),
		);
		const report = (line: Line, rule: string, what: string, fix: string): void => {
			problems.push(`${file}:${line.number}: [${rule}] ${what}. Fix: ${fix}`);
		};
		const reportedPaths = new Set<string>(); // `line:path` a command's problem named already
		const checkPath = (line: Line, word: string): void => {
			if (/[<>{}*$]|\.\.\./.test(word)) return; // a placeholder or a pattern
			if (reportedPaths.has(`${line.number}:${word}`)) return;
			const relative = /^\.{1,2}\//.test(word.replace(/^['"(]+/, ''));
			if (relative) {
				const token = word.replace(/^['"(]+|['"),.;:]+$/g, '').split('#')[0];
				const resolved = path.posix.normalize(path.posix.join(folder, token));
				if (!fs.existsSync(path.join(root, resolved)))
					report(
						line,
						RULES.path,
						`\`${token}\` (from ${file}: ${resolved}) does not exist`,
						'name a path that exists, relative to this document',
					);
				return;
			}
			const named = pathToken(word, entries);
			if (named && !created.has(named) && !fs.existsSync(path.join(root, named)))
				report(
					line,
					RULES.path,
					`\`${named}\` does not exist`,
					'name the path as it is in the repository (from its root), or a placeholder such as <name>',
				);
		};
		const checkCommands = (line: Line, shell: string): void => {
			for (const words of commandsOf(shell)) {
				const [program, first] = words;
				let runs: string | undefined; // the file whose flags are checked
				let flagsFrom = 1;
				if (program === 'npm') {
					if (first === undefined) continue;
					const script =
						first === 'run' || first === 'run-script'
							? words[2]
							: first === 'test' || first === 'start'
								? first
								: undefined;
					if (script !== undefined) {
						if (/[<>]/.test(script)) continue;
						if (!(script in scripts)) {
							report(
								line,
								RULES.script,
								`\`npm run ${script}\`: no such script in package.json`,
								`name one of package.json's scripts (${Object.keys(scripts).join(', ')})`,
							);
							continue;
						}
						runs = scriptFile(root, scripts[script]);
						const separator = words.indexOf('--');
						flagsFrom = separator === -1 ? words.length : separator + 1;
					} else if (!NPM_COMMANDS.has(first) && !first.startsWith('-')) {
						report(
							line,
							RULES.command,
							`\`npm ${first}\`: not an npm command`,
							`use one of ${[...NPM_COMMANDS].join(', ')} or \`npm run <script>\``,
						);
						continue;
					}
				} else if (program === 'npx') {
					const bin = words.slice(1).find((word) => !word.startsWith('-'));
					if (bin === undefined || /^(@?[\w.-]+\/)?[\w.-]+@[\w.^~-]+$/.test(bin)) continue;
					if (!bins.includes(bin) && !devDependencies.includes(bin)) {
						report(
							line,
							RULES.command,
							`\`npx ${bin}\`: no such bin in node_modules/.bin nor devDependency`,
							'name a bin the project installs, or `<package>@<version>` for one npx fetches',
						);
						continue;
					}
					const at = words.indexOf(bin);
					if (bin === 'tsx') {
						runs = words.slice(at + 1).find((word) => !word.startsWith('-'));
						flagsFrom = runs === undefined ? words.length : words.indexOf(runs) + 1;
					} else flagsFrom = words.length; // the flags of a tool of node_modules are its own
				} else if (program === 'node') {
					const args = words.slice(1);
					if (args.some((word) => /^(-e|--eval|-p|--print)$/.test(word))) continue;
					const file = args.find((word) => !word.startsWith('-'));
					if (file === undefined || /[<>{}*$]/.test(file)) continue;
					if (!fs.existsSync(path.join(root, file))) {
						reportedPaths.add(`${line.number}:${file}`);
						report(
							line,
							RULES.command,
							`\`node ${file}\`: ${file} does not exist`,
							'name a file of the repository, from its root',
						);
						continue;
					}
					runs = file;
					flagsFrom = words.indexOf(file) + 1;
				} else continue;
				if (runs === undefined) continue;
				const read = scriptCode(root, runs);
				for (const word of words.slice(flagsFrom)) {
					const flag = /^--([a-z][\w-]*)/.exec(word)?.[1];
					if (flag !== undefined && !readsFlag(read, flag))
						report(
							line,
							RULES.flag,
							`\`--${flag}\`: ${runs} (and the files it imports) reads no such flag`,
							`name a flag ${runs} reads, or add it there`,
						);
				}
			}
		};
		const checkEnvironment = (line: Line, text: string): void => {
			for (const name of environmentVariables(text))
				if (!RUNTIME_VARIABLES.includes(name) && !inCode(name))
					report(
						line,
						RULES.env,
						`environment variable ${name} appears in no code of the repository`,
						'name a variable the code reads (scripts/, bench/, sandbox/, test/, .ci/), or add it to RUNTIME_VARIABLES in scripts/docs-check.ts when Node.js or npm reads it',
					);
		};

		const checkFigures = (text: string, line: Line): void => {
			// a link's text to a home is a figure's reference, not a copy
			const withoutHomeLinks = text.replace(
				/\[([^\]]*)\]\(([^)\s]*)\)/g,
				(whole, _text, target) => {
					const address = path.posix.normalize(
						path.posix.join(folder, String(target).split('#')[0]),
					);
					return FIGURE_HOMES.includes(address) ? '' : whole;
				},
			);
			for (const match of withoutHomeLinks.matchAll(FIGURE)) {
				if (/^[1-5]\d\ds$/.test(match[0])) continue; // 429s: answers with that status, not seconds
				const figure = normalFigure(match[0]);
				if (constants.has(figure)) continue;
				report(
					line,
					RULES.figure,
					`"${match[0]}" is a measured figure outside its home (${FIGURE_HOMES.join(', ')})`,
					`keep it beside its command in a home and link there (a link's text may carry it), or, if the code defines it, add a CONSTANTS entry in scripts/docs-check.ts`,
				);
			}
		};

		for (const line of linesOf(markdown)) {
			if (!datesAllowed) {
				const date = /(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])/.exec(line.text);
				if (date)
					report(
						line,
						RULES.date,
						`a date (${date[0]})`,
						'dated runs go to CHANGELOG.md or a commit message',
					);
				for (const [word] of line.text.matchAll(/(?<![\w./-])[0-9a-f]{7,40}(?![\w/-])/g))
					if (/[a-f]/.test(word) && /\d/.test(word))
						report(line, RULES.date, `a commit hash (${word})`, 'runs go to commit messages');
			}
			if (line.fenced) {
				if (line.language === undefined) continue; // the fence itself
				const shell = ['', 'bash', 'sh', 'shell', 'console'].includes(line.language);
				if (shell) {
					checkCommands(line, line.text);
					checkEnvironment(line, line.text.replace(/(^|\s)#.*$/, ''));
				}
				// in code, a relative import is relative to the code's file, not to the document
				if (line.language !== 'md')
					for (const word of line.text.split(/\s+/))
						if (word && (shell || !/^['"(]*\.{1,2}\//.test(word))) checkPath(line, word);
				if (figuresChecked && shell) checkFigures(line.text.replace(/^[^#]*/, ''), line);
				continue;
			}
			const prose = line.text.replace(/``[^`]*``/g, '');
			for (const [, span] of prose.matchAll(/`([^`]+)`/g)) {
				checkCommands(line, span);
				checkEnvironment(line, span);
				for (const word of span.trim().split(/\s+/)) checkPath(line, word);
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
				if (found)
					report(
						line,
						RULES.link,
						`link ${target}: ${found}`,
						'link a file that exists and one of its headings (GitHub anchor: lower case, punctuation dropped, spaces as hyphens)',
					);
			}
			// prose paths with a file extension (scripts/e2e/check.mjs, ../CONTRIBUTING.md), outside links
			const plain = withoutCode.replace(/\]\([^)]*\)/g, ']');
			for (const [word] of plain.matchAll(
				/(?<![\w/.-])(?:\.{1,2}\/)?[\w.@-]+(?:\/[\w.@-]+)+\.(?:md|ts|mjs|cjs|js|json|yml|csv)\b/g,
			))
				checkPath(line, word);
			if (figuresChecked) checkFigures(withoutCode, line);
		}
	}
	for (const budget of BUDGETS) {
		const bytes = budget
			.files(root)
			.filter((file) => fs.existsSync(path.join(root, file)))
			.reduce((sum, file) => sum + fs.statSync(path.join(root, file)).size, 0);
		if (bytes > budget.bytes)
			problems.push(
				`${budget.what}: [${RULES.budget}] ${bytes} bytes, over its ${budget.bytes}. Fix: cut ${bytes - budget.bytes} bytes (depth goes to docs/, history to commit messages)`,
			);
	}
	return problems;
}

if (require.main === module) {
	const root = path.resolve(__dirname, '..');
	const problems = checkDocs(root);
	for (const problem of problems) console.log(problem);
	if (problems.length) console.log(`\n${problems.length} problems (rules: scripts/docs-check.ts)`);
	process.exit(problems.length ? 1 : 0);
}
