// Deterministic data (docs/api-contract.md §13, POST /_sandbox/seed): bulk leads and resources from a seed, or the demo
// set. Seeding bypasses the rate limit (it is not a /v1 request) and fires no events or CRM pushes.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { LeadStatus, ResourceStatus } from './behaviour/host';
import { ACCOUNT_A, ACCOUNT_B } from './fixtures';
import { createLead, type NewLead } from './lead-service';
import {
	isFileType,
	RESOURCE_TYPES,
	type FileInfo,
	type ResourceType,
	type SourceChannel,
	type StoredResource,
} from './model';
import { Prng } from './prng';
import { createResource } from './resource-service';
import type { Sandbox } from './sandbox';
import { DAY_MS, isoSeconds, SECOND_MS } from './time';

export const seedBodySchema = z
	.object({
		demo: z.boolean().optional(),
		seed: z.number().int().default(1),
		leads: z.number().int().min(0).max(100_000).default(0),
		resources: z.number().int().min(0).max(10_000).default(0),
		account_id: z.enum([ACCOUNT_A, ACCOUNT_B]).default(ACCOUNT_A),
	})
	.strict();

export type SeedRequest = z.infer<typeof seedBodySchema>;

const FIRST_NAMES = [
	'Ada',
	'Grace',
	'Alan',
	'Linus',
	'Margaret',
	'Ken',
	'Barbara',
	'Dennis',
	'Frances',
	'Tim',
	'Radia',
	'John',
	'Katherine',
	'Edsger',
	'Hedy',
	'Claude',
];
const LAST_NAMES = [
	'Lovelace',
	'Hopper',
	'Turing',
	'Torvalds',
	'Hamilton',
	'Thompson',
	'Liskov',
	'Ritchie',
	'Allen',
	'Berners',
	'Perlman',
	'McCarthy',
	'Johnson',
	'Dijkstra',
	'Lamarr',
	'Shannon',
];
const COMPANIES = [
	'Analytical Engines',
	'Cobol Systems',
	'Enigma Labs',
	'Kernel Works',
	'Apollo Guidance',
	'Unix Partners',
	'Abstract Data',
	'Bell Research',
	'Fortran Ltd',
	'Web Foundry',
];
const JOB_TITLES = [
	'CTO',
	'CMO',
	'Head of Marketing',
	'Marketing Manager',
	'Content Lead',
	'Growth Engineer',
	'VP Sales',
	'Founder',
];
const TOPICS = [
	'B2B Content Benchmarks',
	'SEO Playbook',
	'Demand Generation Guide',
	'Webinar Best Practices',
	'Lead Scoring 101',
	'Content Calendar Template',
	'ABM Strategy',
	'Product Marketing Handbook',
];
const UTM_SOURCES = ['google', 'linkedin', 'newsletter', 'twitter', 'partner'];
const CHANNELS: SourceChannel[] = [
	'direct',
	'organic_search',
	'paid_search',
	'social',
	'email',
	'referral',
	'api',
	'import',
	'other',
];
const STATUS_WEIGHTS: Array<[LeadStatus, number]> = [
	['new', 0.4],
	['contacted', 0.25],
	['qualified', 0.15],
	['converted', 0.1],
	['lost', 0.1],
];
const MIME: Partial<Record<ResourceType, string>> = {
	pdf: 'application/pdf',
	ebook: 'application/epub+zip',
	whitepaper: 'application/pdf',
	video: 'video/mp4',
	infographic: 'image/png',
};
const EXTENSION: Partial<Record<ResourceType, string>> = {
	pdf: 'pdf',
	ebook: 'epub',
	whitepaper: 'pdf',
	video: 'mp4',
	infographic: 'png',
};

function weighted<T>(prng: Prng, options: Array<[T, number]>): T {
	let draw = prng.next();
	for (const [value, weight] of options) {
		draw -= weight;
		if (draw < 0) return value;
	}
	return options[options.length - 1][0];
}

function slug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

function fakeFile(type: ResourceType, title: string, size: number): FileInfo | null {
	if (!isFileType(type)) return null;
	const name = `${slug(title)}.${EXTENSION[type]}`;
	return {
		name,
		size,
		mime_type: MIME[type] ?? 'application/octet-stream',
		sha256: createHash('sha256').update(name).digest('hex'),
	};
}

function accountUserIds(sandbox: Sandbox, accountId: string): string[] {
	return [...sandbox.store.users.values()]
		.filter((u) => u.account_id === accountId)
		.map((u) => u.id);
}

function randomLead(
	prng: Prng,
	n: number,
	now: number,
	resources: StoredResource[],
	users: string[],
): NewLead {
	const first = prng.pick(FIRST_NAMES);
	const last = prng.pick(LAST_NAMES);
	const company = prng.pick(COMPANIES);
	const channel = prng.pick(CHANNELS);
	const source =
		channel === 'direct' || channel === 'api' || channel === 'import'
			? null
			: prng.pick(UTM_SOURCES);
	const views = prng.int(1, 40);
	return {
		email: `${first}.${last}.${n}@${slug(company)}.example`.toLowerCase(),
		name: `${first} ${last}`,
		company,
		job_title: prng.pick(JOB_TITLES),
		source_channel: channel,
		status: weighted(prng, STATUS_WEIGHTS),
		score: prng.int(0, 100),
		source_resource_id: resources.length > 0 && prng.chance(0.8) ? prng.pick(resources).id : null,
		utm: {
			source,
			medium: source ? prng.pick(['cpc', 'email', 'social', 'referral']) : null,
			campaign: source ? prng.pick(['launch', 'q3-push', 'evergreen']) : null,
		},
		behavior_summary: {
			total_page_views: views,
			avg_dwell_seconds: prng.int(5, 600),
			max_scroll_depth: prng.int(10, 100),
			cta_clicks: prng.int(0, Math.min(views, 5)),
		},
		custom_fields: prng.chance(0.3)
			? { plan_interest: prng.pick(['starter', 'growth', 'enterprise']) }
			: {},
		assigned_to: users.length > 0 && prng.chance(0.5) ? prng.pick(users) : null,
		created_at: isoSeconds(new Date(now - prng.int(0, 90 * 86_400) * SECOND_MS)),
	};
}

/** `{ seed, leads, resources }`: fast bulk data for one account. */
export function seedBulk(sandbox: Sandbox, request: SeedRequest) {
	const prng = new Prng(request.seed);
	const now = sandbox.clock.now().getTime();
	const accountId = request.account_id;
	return sandbox.quietly(() => {
		const created: StoredResource[] = [];
		for (let i = 0; i < request.resources; i++) {
			const type = prng.pick(RESOURCE_TYPES);
			const status: ResourceStatus = weighted(prng, [
				['draft', 0.3],
				['published', 0.55],
				['archived', 0.15],
			]);
			const createdMs = now - prng.int(1, 180) * DAY_MS - prng.int(0, 86_399) * SECOND_MS;
			const publishedMs = status === 'draft' ? null : createdMs + prng.int(0, 86_400) * SECOND_MS;
			const archivedMs =
				status === 'archived' && publishedMs !== null
					? publishedMs + prng.int(1, 30) * DAY_MS
					: null;
			const title = `${prng.pick(TOPICS)} #${i + 1}`;
			created.push(
				createResource(sandbox, accountId, {
					title,
					type,
					description: prng.chance(0.7) ? `Seeded ${type} about ${title}.` : null,
					tags: [prng.pick(['guide', 'report', 'howto', 'case-study', 'product'])],
					track_visitors: prng.chance(0.9),
					file: fakeFile(type, title, prng.int(50_000, 40_000_000)),
					status,
					created_at: isoSeconds(new Date(createdMs)),
					published_at:
						publishedMs === null ? null : isoSeconds(new Date(Math.min(publishedMs, now))),
					archived_at: archivedMs === null ? null : isoSeconds(new Date(Math.min(archivedMs, now))),
				}),
			);
		}
		const pool =
			created.length > 0
				? created
				: [...sandbox.store.resources.values()].filter(
						(r) => r.account_id === accountId && !r.deleted,
					);
		const users = accountUserIds(sandbox, accountId);
		for (let i = 0; i < request.leads; i++)
			createLead(sandbox, accountId, randomLead(prng, i + 1, now, pool, users));
		return { account_id: accountId, leads: request.leads, resources: request.resources };
	});
}

interface DemoResource {
	title: string;
	type: ResourceType;
	status: ResourceStatus;
	description: string;
	tags: string[];
	cta_id: string | null;
	daysAgo: number;
}

const DEMO_RESOURCES: DemoResource[] = [
	{
		title: 'State of B2B Content 2026',
		type: 'pdf',
		status: 'published',
		description: 'Benchmarks from 1,200 marketing teams.',
		tags: ['report', 'benchmark'],
		cta_id: 'cta_demo00000000a001',
		daysAgo: 45,
	},
	{
		title: 'How to Build a Content Engine',
		type: 'article',
		status: 'published',
		description: 'A step-by-step guide for small teams.',
		tags: ['guide'],
		cta_id: 'cta_demo00000000a003',
		daysAgo: 40,
	},
	{
		title: 'Product Tour in 5 Minutes',
		type: 'video',
		status: 'published',
		description: 'The product, end to end.',
		tags: ['product'],
		cta_id: 'cta_demo00000000a002',
		daysAgo: 35,
	},
	{
		title: 'The ABM Playbook',
		type: 'ebook',
		status: 'published',
		description: 'Account-based marketing from first touch to close.',
		tags: ['guide', 'abm'],
		cta_id: 'cta_demo00000000a001',
		daysAgo: 30,
	},
	{
		title: 'Q3 Webinar: Pipeline from Content',
		type: 'webinar',
		status: 'archived',
		description: 'Recording of the Q3 webinar.',
		tags: ['webinar'],
		cta_id: null,
		daysAgo: 60,
	},
	{
		title: 'Security Whitepaper',
		type: 'whitepaper',
		status: 'draft',
		description: 'How we protect customer data.',
		tags: ['security'],
		cta_id: null,
		daysAgo: 3,
	},
	{
		title: 'Pricing Explained',
		type: 'infographic',
		status: 'draft',
		description: 'Our plans at a glance.',
		tags: ['product'],
		cta_id: 'cta_demo00000000a002',
		daysAgo: 1,
	},
];

const DEMO_LEADS: Array<
	[string, string, string, string, LeadStatus, SourceChannel, number, string | null]
> = [
	[
		'ada@analytical-engines.example',
		'Ada Lovelace',
		'Analytical Engines',
		'CTO',
		'qualified',
		'organic_search',
		86,
		'google',
	],
	[
		'grace@cobol-systems.example',
		'Grace Hopper',
		'Cobol Systems',
		'VP Engineering',
		'converted',
		'referral',
		94,
		'partner',
	],
	[
		'alan@enigma-labs.example',
		'Alan Turing',
		'Enigma Labs',
		'Head of Research',
		'contacted',
		'social',
		61,
		'linkedin',
	],
	[
		'margaret@apollo-guidance.example',
		'Margaret Hamilton',
		'Apollo Guidance',
		'Director of Software',
		'new',
		'paid_search',
		42,
		'google',
	],
	[
		'ken@unix-partners.example',
		'Ken Thompson',
		'Unix Partners',
		'Founder',
		'lost',
		'email',
		12,
		'newsletter',
	],
	[
		'barbara@abstract-data.example',
		'Barbara Liskov',
		'Abstract Data',
		'CMO',
		'qualified',
		'email',
		77,
		'newsletter',
	],
	[
		'dennis@bell-research.example',
		'Dennis Ritchie',
		'Bell Research',
		'Content Lead',
		'new',
		'direct',
		23,
		null,
	],
	[
		'frances@fortran.example',
		'Frances Allen',
		'Fortran Ltd',
		'Marketing Manager',
		'contacted',
		'organic_search',
		55,
		'google',
	],
	[
		'tim@web-foundry.example',
		'Tim Berners',
		'Web Foundry',
		'Growth Engineer',
		'new',
		'social',
		35,
		'twitter',
	],
	[
		'radia@kernel-works.example',
		'Radia Perlman',
		'Kernel Works',
		'VP Sales',
		'converted',
		'referral',
		90,
		'partner',
	],
	[
		'hedy@enigma-labs.example',
		'Hedy Lamarr',
		'Enigma Labs',
		'Head of Marketing',
		'new',
		'api',
		8,
		null,
	],
	[
		'claude@bell-research.example',
		'Claude Shannon',
		'Bell Research',
		'CTO',
		'contacted',
		'import',
		48,
		null,
	],
];

/** `{ demo: true }`: a fixed showcase for account A, then simulated traffic from the behaviour engine. */
export function seedDemo(sandbox: Sandbox) {
	const now = sandbox.clock.now().getTime();
	const at = (daysAgo: number) => isoSeconds(new Date(now - daysAgo * DAY_MS));
	const users = accountUserIds(sandbox, ACCOUNT_A);
	return sandbox.quietly(() => {
		const resources = DEMO_RESOURCES.map((r, i) =>
			createResource(sandbox, ACCOUNT_A, {
				title: r.title,
				type: r.type,
				description: r.description,
				tags: r.tags,
				cta_id: r.cta_id,
				track_visitors: true,
				file: fakeFile(r.type, r.title, 250_000 * (i + 1)),
				status: r.status,
				created_at: at(r.daysAgo),
				published_at: r.status === 'draft' ? null : at(r.daysAgo - 1),
				archived_at: r.status === 'archived' ? at(10) : null,
			}),
		);
		const published = resources.filter((r) => r.status === 'published');
		DEMO_LEADS.forEach(([email, name, company, jobTitle, status, channel, score, utmSource], i) => {
			createLead(sandbox, ACCOUNT_A, {
				email,
				name,
				company,
				job_title: jobTitle,
				status,
				source_channel: channel,
				score,
				source_resource_id: published[i % published.length].id,
				utm: {
					source: utmSource,
					medium: utmSource ? 'referral' : null,
					campaign: utmSource ? 'evergreen' : null,
				},
				behavior_summary: {
					total_page_views: 2 + (i % 7),
					avg_dwell_seconds: 40 + i * 13,
					max_scroll_depth: 30 + ((i * 17) % 70),
					cta_clicks: i % 3,
				},
				custom_fields: i % 3 === 0 ? { plan_interest: 'enterprise' } : {},
				assigned_to: users[i % (users.length + 1)] ?? null,
				created_at: at(28 - i * 2),
			});
		});
		const traffic = sandbox.engine.simulate({
			accountId: ACCOUNT_A,
			seed: 2026,
			events: 3000,
			days: 30,
		});
		return {
			account_id: ACCOUNT_A,
			leads: DEMO_LEADS.length,
			resources: resources.length,
			traffic,
		};
	});
}
