// The seeded traffic simulator: exact event counts, the same numbers for the same seed, seed-quiet leads.
import { NO_RATE_LIMIT, SandboxClient } from '../support/sandbox-client';
import { trackedResource } from './tracked-resource';
import { DAY, localDate } from './local-time';

const CST = 8 * 60;

describe('traffic simulator', () => {
	let sandbox: SandboxClient;

	beforeAll(async () => {
		sandbox = await SandboxClient.start({ settings: NO_RATE_LIMIT });
	});

	afterAll(() => sandbox.close());

	const simulate = async () => {
		for (const title of ['Guide', 'Report', 'Video']) await trackedResource(sandbox, { title });
		await trackedResource(sandbox, { title: 'Without CTA', cta: false });
		const answer = await sandbox.control.post<{ events: number; leads: number }>(
			'/_sandbox/simulate',
			{ seed: 7, events: 20_000, days: 30 },
		);
		expect(answer.status).toBe(200);
		const { events, leads } = answer.body;
		const today = localDate(await sandbox.now(), CST);
		const range = {
			start_date: localDate(Date.parse(`${today}T00:00:00Z`) - 40 * DAY, 0),
			end_date: today,
		};
		const numbers = {
			overview: await sandbox.analytics<{ summary: unknown }>('overview', range),
			channels: await sandbox.analytics('channels', range),
			funnel: await sandbox.analytics('funnel', range),
			leads: await sandbox.analytics<{ totals: { leads: number } }>('leads', {
				...range,
				granularity: 'month',
			}),
			ranking: await sandbox.analytics('resources', range),
		};
		return { result: { events, leads }, numbers };
	};

	it('generates exactly the requested events, deterministically, with leads created as quiet seed data', async () => {
		const first = await simulate();
		expect(first.result.events).toBe(20_000);
		expect(first.result.leads).toBeGreaterThan(0);
		expect(first.numbers.leads.totals.leads).toBe(first.result.leads);
		expect((await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body).toEqual([]);
		const oldest = await sandbox.api.get<{ data: Array<{ created_at: string }> }>(
			'/v1/leads?sort=created_at&order=asc&limit=1',
		);
		expect(Date.parse(oldest.body.data[0].created_at)).toBeLessThan(
			(await sandbox.now()) - 7 * DAY,
		);

		await sandbox.control.post('/_sandbox/reset');
		expect(await sandbox.analytics('overview')).toMatchObject({
			summary: { total_page_views: 0, unique_visitors: 0 },
		});
		const second = await simulate();
		expect(second).toEqual(first);
	});

	it('spreads visitors over sources, days and funnel steps', async () => {
		const overview = await sandbox.analytics<{
			summary: { total_page_views: number; unique_visitors: number };
		}>('overview');
		expect(overview.summary.unique_visitors).toBeLessThan(overview.summary.total_page_views);
		const channels = await sandbox.analytics<{ data: Array<{ source: string }> }>('channels');
		expect(channels.data.length).toBeGreaterThanOrEqual(8);
		const ranking = await sandbox.analytics<{ data: Array<{ resource_id: string }> }>('resources', {
			limit: 1,
		});
		const detail = await sandbox.analytics<{ daily_trend: Array<{ page_views: number }> }>(
			`resources/${ranking.data[0].resource_id}`,
		);
		expect(detail.daily_trend.filter((day) => day.page_views > 0).length).toBeGreaterThanOrEqual(
			28,
		);
		const funnel = await sandbox.analytics<{ funnel_steps: Array<{ count: number }> }>('funnel');
		const counts = funnel.funnel_steps.map((step) => step.count);
		expect(
			counts.every((count, index) => index === 0 || (count <= counts[index - 1] && count > 0)),
		).toBe(true);
	});

	it('scores the simulated leads from their behaviour, as of the last hourly recompute', async () => {
		const page = await sandbox.api.get<{
			data: Array<{ score: number; behavior_summary: { total_page_views: number } }>;
		}>('/v1/leads?limit=100');
		expect(page.body.data.length).toBeGreaterThan(0);
		for (const lead of page.body.data) {
			expect(lead.behavior_summary.total_page_views).toBeGreaterThan(0);
			expect(lead.score).toBeGreaterThan(0);
			expect(lead.score).toBeLessThanOrEqual(100);
		}
	});
});
