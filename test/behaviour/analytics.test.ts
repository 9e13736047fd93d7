// Analytics from tracked events: a small fixture whose numbers are computed by hand (see the comments).
import { NO_RATE_LIMIT, SandboxClient } from '../support/sandbox-client';
import { trackedResource } from './tracked-resource';
import { DAY, HOUR, localDate, MINUTE, nextLocalMidnight } from './local-time';

const CST = 8 * 60;

describe('analytics computed from tracked events', () => {
	let sandbox: SandboxClient;
	let main: string;
	let edges: string;
	let archived: string;
	let untracked: string;
	let draft: string;
	let deleted: string;
	/** Local (+08:00) days A, B, C: A and B hold the main fixture, B/C the midnight edges. */
	let dayA: string;
	let dayB: string;
	let dayC: string;
	let leadA: string;
	let leadB: string;

	const view = (resource: string, visitor: string, utm?: Record<string, string>) =>
		sandbox.track(resource, { visitor_id: visitor, type: 'page_view', ...(utm ? { utm } : {}) });
	const send = async (
		resource: string,
		visitor: string,
		type: string,
		extra: Record<string, unknown> = {},
	) => {
		const answer = await sandbox.track<{ lead_id?: string }>(resource, {
			visitor_id: visitor,
			type,
			...extra,
		});
		expect(answer.status).toBe(202);
		return answer.body;
	};

	beforeAll(async () => {
		sandbox = await SandboxClient.start({ settings: NO_RATE_LIMIT });
		main = await trackedResource(sandbox, { title: 'Main' });
		edges = await trackedResource(sandbox, { title: 'Edges' });
		archived = await trackedResource(sandbox, { title: 'Archived later' });
		untracked = await trackedResource(sandbox, { title: 'Untracked', track_visitors: false });
		draft = await trackedResource(sandbox, { title: 'Draft', status: 'draft' });
		deleted = await trackedResource(sandbox, { title: 'Deleted later' });

		const startA = nextLocalMidnight((await sandbox.now()) + HOUR, CST);
		const startB = startA + DAY;
		[dayA, dayB, dayC] = [startA, startB, startB + DAY].map((ms) => localDate(ms, CST));

		// Day A, 10:00 +08:00. Views: v1 (google/cpc, depth 80, dwell 30), v2 (direct, dwell 10, CTA, form), v5 (newsletter).
		await sandbox.advanceTo(startA + 10 * HOUR);
		await view(main, 'v1', { source: 'google', medium: 'cpc', campaign: 'brand' });
		await send(main, 'v1', 'scroll', { depth: 80 });
		await send(main, 'v1', 'dwell', { seconds: 30 });
		await view(main, 'v2');
		await send(main, 'v2', 'dwell', { seconds: 10 });
		await send(main, 'v2', 'cta_view');
		await send(main, 'v2', 'cta_click');
		leadA = (
			await send(main, 'v2', 'form_submit', { form: { email: 'v2@example.com', name: 'Vee Two' } })
		).lead_id as string;
		await view(main, 'v5', { source: 'newsletter', medium: 'email' });

		// Day B, 10:00. Views: v1 (linkedin/social, depth 40, dwell 50, CTA, form), v3 twice (depth 55 + dwell 20, then nothing),
		// v4 (google/organic, CTA seen).
		await sandbox.advanceTo(startB + 10 * HOUR);
		await view(main, 'v1', { source: 'linkedin', medium: 'social' });
		await send(main, 'v1', 'scroll', { depth: 40 });
		await send(main, 'v1', 'dwell', { seconds: 50 });
		await send(main, 'v1', 'cta_view');
		await send(main, 'v1', 'cta_click');
		leadB = (await send(main, 'v1', 'form_submit', { form: { email: 'v1@example.com' } }))
			.lead_id as string;
		await view(main, 'v3');
		await send(main, 'v3', 'scroll', { depth: 55 });
		await send(main, 'v3', 'dwell', { seconds: 20 });
		await view(main, 'v3');
		await view(main, 'v4', { source: 'google', medium: 'organic' });
		await send(main, 'v4', 'cta_view');
		await view(archived, 'v20');
		await view(deleted, 'v30');
		expect((await sandbox.api.post(`/v1/resources/${archived}/archive`)).status).toBe(200);
		expect((await sandbox.api.delete(`/v1/resources/${deleted}`)).status).toBe(200);

		// Midnight edges on `edges` (UTC times): e1 B 15:50 = B 23:50 +08:00; e2 B 16:10 = C 00:10 +08:00;
		// e3 B 18:10 = B 23:55 +05:45; e4 B 18:20 = C 00:05 +05:45; e5 C 03:20 = B 23:50 -03:30; e6 C 03:40 = C 00:10 -03:30.
		for (const [minutes, visitor] of [
			[23 * 60 + 50, 'e1'],
			[24 * 60 + 10, 'e2'],
			[26 * 60 + 10, 'e3'],
			[26 * 60 + 20, 'e4'],
			[35 * 60 + 20, 'e5'],
			[35 * 60 + 40, 'e6'],
		] as const) {
			await sandbox.advanceTo(startB + minutes * MINUTE);
			expect((await view(edges, visitor)).status).toBe(202);
		}
	});

	afterAll(() => sandbox.close());

	it('overview of one day: totals, rates and the trend against the day before', async () => {
		// B: views v1, v3, v3, v4 (4), visitors 3, lead 1; dwell (50+20+0+0)/4 = 17.5 → 18; depth (40+55+0+0)/4.
		// A: 3 views and 1 lead.
		expect(
			await sandbox.analytics('overview', { start_date: dayB, end_date: dayB, resource_id: main }),
		).toEqual({
			period: { start_date: dayB, end_date: dayB },
			summary: {
				total_page_views: 4,
				unique_visitors: 3,
				total_leads: 1,
				lead_conversion_rate: '33.33%',
				avg_dwell_seconds: 18,
				avg_scroll_depth: '23.75%',
			},
			trend: { page_views_vs_prev: '+33.33%', leads_vs_prev: '+0.00%' },
		});
		expect(
			await sandbox.analytics('overview', { start_date: dayA, end_date: dayA, resource_id: main }),
		).toMatchObject({
			summary: {
				total_page_views: 3,
				unique_visitors: 3,
				total_leads: 1,
				avg_dwell_seconds: 13,
				avg_scroll_depth: '26.67%',
			},
			trend: { page_views_vs_prev: '+100.00%', leads_vs_prev: '+100.00%' },
		});
	});

	it('overview of two days, and of an empty day after them', async () => {
		expect(
			await sandbox.analytics('overview', { start_date: dayA, end_date: dayB, resource_id: main }),
		).toMatchObject({
			summary: {
				total_page_views: 7,
				unique_visitors: 5,
				total_leads: 2,
				lead_conversion_rate: '40.00%',
				avg_dwell_seconds: 16,
			},
		});
		expect(
			await sandbox.analytics('overview', { start_date: dayC, end_date: dayC, resource_id: main }),
		).toEqual({
			period: { start_date: dayC, end_date: dayC },
			summary: {
				total_page_views: 0,
				unique_visitors: 0,
				total_leads: 0,
				lead_conversion_rate: '0.00%',
				avg_dwell_seconds: 0,
				avg_scroll_depth: '0.00%',
			},
			trend: { page_views_vs_prev: '-100.00%', leads_vs_prev: '-100.00%' },
		});
		// `days` counts back from today (C): 3 days = A..C.
		expect(await sandbox.analytics('overview', { days: 3, resource_id: main })).toMatchObject({
			period: { start_date: dayA, end_date: dayC },
			summary: { total_page_views: 7, total_leads: 2 },
		});
	});

	it('an empty period answers zeros and "0.00%", never NaN', async () => {
		const empty = { start_date: '2020-01-01', end_date: '2020-01-31' };
		for (const path of [
			'overview',
			'resources',
			`resources/${main}`,
			'channels',
			'leads',
			'funnel',
		]) {
			expect(JSON.stringify(await sandbox.analytics(path, empty))).not.toMatch(/NaN|Infinity/);
		}
		expect(await sandbox.analytics('overview', empty)).toMatchObject({
			summary: { total_page_views: 0, lead_conversion_rate: '0.00%', avg_scroll_depth: '0.00%' },
			trend: { page_views_vs_prev: '+0.00%', leads_vs_prev: '+0.00%' },
		});
		expect(
			(await sandbox.analytics<{ funnel_steps: unknown[] }>('funnel', empty)).funnel_steps[0],
		).toEqual({
			step: 'page_view',
			count: 0,
			rate: '0.00%',
		});
	});

	it('the account overview counts archived resources but not deleted ones', async () => {
		// main 7 + edges 6 + archived 1 views; visitors 5 + 6 + 1; the deleted resource's view is gone.
		expect(await sandbox.analytics('overview', { start_date: dayA, end_date: dayC })).toMatchObject(
			{
				summary: { total_page_views: 14, unique_visitors: 12, total_leads: 2 },
			},
		);
	});

	it('single resource: totals, scroll distribution, channels and the daily trend', async () => {
		// Depths of the 7 views: 80, 0, 0 (A); 40, 55, 0, 0 (B). Dwell 110 / 7 = 15.7 → 16.
		expect(
			await sandbox.analytics(`resources/${main}`, { start_date: dayA, end_date: dayB }),
		).toEqual({
			resource_id: main,
			title: 'Main',
			period: { start_date: dayA, end_date: dayB },
			granularity: 'day',
			totals: { page_views: 7, unique_visitors: 5, leads: 2, avg_dwell_seconds: 16 },
			scroll_distribution: {
				'0_25': '57.14%',
				'25_50': '14.29%',
				'50_75': '14.29%',
				'75_100': '14.29%',
			},
			top_channels: [
				{ source: '(direct)', visits: 3, leads: 1 },
				{ source: 'google', visits: 2, leads: 0 },
				{ source: 'linkedin', visits: 1, leads: 1 },
				{ source: 'newsletter', visits: 1, leads: 0 },
			],
			daily_trend: [
				{ date: dayA, page_views: 3, leads: 1 },
				{ date: dayB, page_views: 4, leads: 1 },
			],
		});
	});

	it('weekly and monthly buckets start on Monday and on the 1st', async () => {
		const monday = (date: string) => {
			const ms = Date.parse(`${date}T00:00:00Z`);
			return new Date(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
		};
		const weekly = await sandbox.analytics<{
			daily_trend: Array<{ date: string; page_views: number }>;
		}>(`resources/${main}`, {
			start_date: dayA,
			end_date: dayB,
			granularity: 'week',
		});
		const expected =
			monday(dayA) === monday(dayB)
				? [{ date: monday(dayA), page_views: 7, leads: 2 }]
				: [
						{ date: monday(dayA), page_views: 3, leads: 1 },
						{ date: monday(dayB), page_views: 4, leads: 1 },
					];
		expect(weekly.daily_trend).toEqual(expected);
		const monthly = await sandbox.analytics<{ daily_trend: Array<{ date: string }> }>(
			`resources/${main}`,
			{
				start_date: '2026-01-15',
				end_date: '2026-03-02',
				granularity: 'month',
			},
		);
		expect(monthly.daily_trend.map((bucket) => bucket.date)).toEqual([
			'2026-01-01',
			'2026-02-01',
			'2026-03-01',
		]);
	});

	it('day boundaries follow the time zone, including :30 and :45 offsets', async () => {
		const trend = async (timezone?: string) => {
			const answer = await sandbox.analytics<{ daily_trend: Array<{ page_views: number }> }>(
				`resources/${edges}`,
				{
					start_date: dayB,
					end_date: dayC,
					...(timezone ? { timezone } : {}),
				},
			);
			return answer.daily_trend.map((bucket) => bucket.page_views);
		};
		expect(await trend()).toEqual([1, 5]);
		expect(await trend('+08:00')).toEqual([1, 5]);
		expect(await trend('Asia/Shanghai')).toEqual([1, 5]);
		expect(await trend('UTC')).toEqual([4, 2]);
		expect(await trend('+00:00')).toEqual([4, 2]);
		expect(await trend('Asia/Kathmandu')).toEqual([3, 3]);
		expect(await trend('+05:45')).toEqual([3, 3]);
		expect(await trend('-03:30')).toEqual([5, 1]);
		// An unencoded "+" arrives as a space; it is read as "+".
		const raw = await sandbox.api.get<{ daily_trend: Array<{ page_views: number }> }>(
			`/v1/analytics/resources/${edges}?start_date=${dayB}&end_date=${dayC}&timezone=+05:45`,
		);
		expect(raw.body.daily_trend.map((bucket) => bucket.page_views)).toEqual([3, 3]);
	});

	it('resources ranking: archived kept, deleted left out, sorted and limited', async () => {
		type Ranking = {
			data: Array<{ rank: number; resource_id: string; page_views: number; status: string }>;
		};
		const ranking = await sandbox.analytics<Ranking>('resources', {
			start_date: dayA,
			end_date: dayC,
		});
		const ids = ranking.data.map((row) => row.resource_id);
		expect(ids.slice(0, 3)).toEqual([main, edges, archived]);
		expect(ids.slice(3)).toEqual([untracked, draft].sort());
		expect(ids).not.toContain(deleted);
		expect(ranking.data[0]).toEqual({
			rank: 1,
			resource_id: main,
			title: 'Main',
			type: 'article',
			status: 'published',
			page_views: 7,
			unique_visitors: 5,
			leads: 2,
			conversion_rate: '40.00%',
			avg_dwell_seconds: 16,
			cta_clicks: 2,
		});
		expect(ranking.data[2]).toMatchObject({ rank: 3, status: 'archived', page_views: 1 });
		const byLeads = await sandbox.analytics<Ranking>('resources', {
			start_date: dayA,
			end_date: dayC,
			sort: 'leads',
			limit: 1,
		});
		expect(byLeads.data.map((row) => row.resource_id)).toEqual([main]);
		const ascending = await sandbox.analytics<Ranking>('resources', {
			start_date: dayA,
			end_date: dayC,
			order: 'asc',
			limit: 2,
		});
		expect(ascending.data.map((row) => row.page_views)).toEqual([0, 0]);
	});

	it('channels by UTM source', async () => {
		expect(
			await sandbox.analytics('channels', { start_date: dayA, end_date: dayB, resource_id: main }),
		).toEqual({
			object: 'list',
			period: { start_date: dayA, end_date: dayB },
			data: [
				{ source: '(direct)', visits: 3, unique_visitors: 2, leads: 1, conversion_rate: '50.00%' },
				{ source: 'google', visits: 2, unique_visitors: 2, leads: 0, conversion_rate: '0.00%' },
				{ source: 'linkedin', visits: 1, unique_visitors: 1, leads: 1, conversion_rate: '100.00%' },
				{ source: 'newsletter', visits: 1, unique_visitors: 1, leads: 0, conversion_rate: '0.00%' },
			],
		});
	});

	it('the funnel narrows: each view counts up to the furthest step it reached', async () => {
		// Furthest steps of the 7 views: scroll_50pct (v1 A), form (v2), page_view (v5), form (v1 B, depth 40),
		// scroll_50pct (v3), page_view (v3 again), cta_view (v4).
		expect(
			await sandbox.analytics('funnel', { start_date: dayA, end_date: dayB, resource_id: main }),
		).toEqual({
			period: { start_date: dayA, end_date: dayB },
			resource_id: main,
			funnel_steps: [
				{ step: 'page_view', count: 7, rate: '100.00%' },
				{ step: 'scroll_50pct', count: 5, rate: '71.43%' },
				{ step: 'cta_view', count: 3, rate: '42.86%' },
				{ step: 'cta_click', count: 2, rate: '28.57%' },
				{ step: 'form_submit', count: 2, rate: '28.57%' },
			],
		});
	});

	it('lead trend: leads by creation day and those that reached converted', async () => {
		expect((await sandbox.api.patch(`/v1/leads/${leadA}`, { status: 'converted' })).status).toBe(
			200,
		);
		const query = { start_date: dayA, end_date: dayB, resource_id: main };
		expect(await sandbox.analytics('leads', query)).toEqual({
			period: { start_date: dayA, end_date: dayB },
			granularity: 'day',
			data: [
				{ date: dayA, leads: 1, converted: 1, conversion_rate: '100.00%' },
				{ date: dayB, leads: 1, converted: 0, conversion_rate: '0.00%' },
			],
			totals: { leads: 2, converted: 1, conversion_rate: '50.00%' },
		});
		expect((await sandbox.api.patch(`/v1/leads/${leadA}`, { status: 'lost' })).status).toBe(200);
		expect(await sandbox.analytics('leads', query)).toMatchObject({ totals: { converted: 1 } });
	});

	it('form leads carry the source resource, channel, UTM and behaviour, and reach the CRM', async () => {
		const lead = await sandbox.api.get(`/v1/leads/${leadB}`);
		expect(lead.body).toMatchObject({
			email: 'v1@example.com',
			source_resource_id: main,
			source_channel: 'social',
			utm: { source: 'linkedin', medium: 'social', campaign: null },
			// v1 so far: 2 views (A and B), dwell 30 + 50, deepest scroll 80, one CTA click.
			behavior_summary: {
				total_page_views: 2,
				avg_dwell_seconds: 40,
				max_scroll_depth: 80,
				cta_clicks: 1,
			},
		});
		const pushes =
			await sandbox.control.get<Array<{ lead_id: string; reason: string }>>('/_sandbox/crm/pushes');
		// Each form lead reached the CRM once when it was created.
		expect(
			pushes.body.filter((push) => push.reason === 'created').map((push) => push.lead_id),
		).toEqual([leadA, leadB]);
	});

	it('archived and deleted resources record nothing new; their past data stays (archived) or goes (deleted)', async () => {
		expect((await view(archived, 'v21')).status).toBe(404);
		expect((await view(deleted, 'v31')).status).toBe(404);
		expect(
			await sandbox.analytics(`resources/${archived}`, { start_date: dayA, end_date: dayC }),
		).toMatchObject({
			totals: { page_views: 1, unique_visitors: 1 },
		});
		expect((await sandbox.api.get(`/v1/analytics/resources/${deleted}`)).status).toBe(404);
		expect((await view(untracked, 'v40')).status).toBe(409);
		expect((await view(draft, 'v41')).status).toBe(404);
		expect(await sandbox.analytics('overview', { start_date: dayA, end_date: dayC })).toMatchObject(
			{
				summary: { total_page_views: 14 },
			},
		);
	});
});
