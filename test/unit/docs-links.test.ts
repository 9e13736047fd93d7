// Every documentation link the nodes and the credential show in n8n, and every relative link of the README,
// lands on a file of this repository and, when it names one, on a section heading of that file (GitHub's
// anchor of a heading: lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` on repeats).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/content-marketing/n8n-nodes-content-marketing';

function files(dir: string, pattern: RegExp): string[] {
	return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return files(relative, pattern);
		return pattern.test(entry.name) ? [relative] : [];
	});
}

/** GitHub's anchors of a Markdown file's headings (outside code fences). */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
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
function problem(file: string, anchor: string | undefined): string | undefined {
	const target = path.join(root, file);
	if (!fs.existsSync(target)) return `${file} does not exist`;
	if (anchor === undefined || anchor === '') return undefined;
	if (!file.endsWith('.md')) return `#${anchor} in a file that is not Markdown`;
	const found = anchors(fs.readFileSync(target, 'utf8'));
	return found.has(decodeURIComponent(anchor))
		? undefined
		: `${file} has no heading with the anchor #${anchor}`;
}

/** A link to this repository on GitHub → [file, anchor]: the root is the README, /blob/<ref>/ a file. */
function inRepository(url: string): [string, string | undefined] {
	const [address, anchor] = url.split('#');
	const rest = address.slice(REPOSITORY.length).replace(/\/$/, '');
	if (rest === '') return ['README.md', anchor];
	const file = /^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(rest);
	if (!file) throw new Error(`${url}: neither the repository's page nor a file in it`);
	return [decodeURIComponent(file[1]), anchor];
}

const codexLinks = files('nodes', /\.node\.json$/).flatMap((file) => {
	const codex = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
	return Object.entries(codex.resources ?? {}).flatMap(([kind, list]) =>
		(list as Array<{ url: string }>).map((entry) => ({ where: file, kind, url: entry.url })),
	);
});
const sourceLinks = [...files('nodes', /\.ts$/), ...files('credentials', /\.ts$/)].flatMap(
	(file) => {
		const text = fs.readFileSync(path.join(root, file), 'utf8');
		return [...text.matchAll(/documentationUrl\s*[:=]\s*'([^']*)'/g)].map((match) => ({
			where: file,
			kind: 'documentationUrl',
			url: match[1],
		}));
	},
);

test('the nodes and the credential name a documentation link', () => {
	const codexFiles = new Set(codexLinks.map((link) => link.where));
	expect([...codexFiles].sort()).toEqual(files('nodes', /\.node\.json$/).sort());
	expect(sourceLinks.map((link) => path.basename(link.where)).sort()).toEqual([
		'ContentMarketing.node.ts',
		'ContentMarketingApi.credentials.ts',
		'ContentMarketingTrigger.node.ts',
		'ContentTriggerMarketing.node.ts',
	]);
});

test.each([...codexLinks, ...sourceLinks].map((link) => [link.where, link.url]))(
	'%s: %s opens a section of this repository',
	(_where, url) => {
		expect(url.startsWith(REPOSITORY)).toBe(true);
		const [file, anchor] = inRepository(url);
		// the repository's front page alone is not the section about a node or a credential
		expect(file === 'README.md' && !anchor ? 'no #section' : problem(file, anchor)).toBeUndefined();
	},
);

test('each node and the credential open their own section', () => {
	const expected: Record<string, string> = {
		'ContentMarketing.node': 'content-marketing-node',
		'ContentMarketingTrigger.node': 'content-marketing-trigger',
		'ContentTriggerMarketing.node': 'content-marketing-poll-trigger',
		'ContentMarketingApi.credentials': 'credentials',
	};
	for (const link of [...codexLinks, ...sourceLinks]) {
		const owner = path.basename(link.where).replace(/\.(json|ts)$/, '');
		const section = link.kind === 'credentialDocumentation' ? 'credentials' : expected[owner];
		expect(`${link.where} ${link.kind}: ${link.url.split('#')[1]}`).toBe(
			`${link.where} ${link.kind}: ${section}`,
		);
	}
});

test("the README's relative links land on a file and a heading", () => {
	const readme = fs
		.readFileSync(path.join(root, 'README.md'), 'utf8')
		.replace(/```[\s\S]*?```/g, '');
	const links = [...readme.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
		.map((match) => match[1])
		.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
	expect(links.length).toBeGreaterThan(0);
	const problems = links
		.map((link) => {
			const [file, anchor] = link.split('#');
			return [link, problem(file === '' ? 'README.md' : file, anchor)];
		})
		.filter(([, found]) => found !== undefined);
	expect(problems).toEqual([]);
});
