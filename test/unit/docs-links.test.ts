// Every documentation link the nodes and the credential show in n8n lands on a file of this repository and,
// when it names one, on a section heading of that file (GitHub's anchors, as scripts/docs-check.ts reads
// them; that check, in `npm run lint`, does the same for the docs' own links).
import fs from 'node:fs';
import path from 'node:path';

import { linkProblem } from '../../scripts/docs-check';

const root = path.resolve(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/content-marketing/n8n-nodes-content-marketing';

function files(dir: string, pattern: RegExp): string[] {
	return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return files(relative, pattern);
		return pattern.test(entry.name) ? [relative] : [];
	});
}

/** What is wrong with a link to `file` (relative to the repository) and `anchor`, or undefined. */
const problem = (file: string, anchor: string | undefined) => linkProblem(root, file, anchor);

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
