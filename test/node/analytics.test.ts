// Analytics operations as workflows against the sandbox's demo data: each node output is compared with the
// sandbox's own answer to the same query, raw (Simplify off) and simplified.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { chain, startNode } from '../harness';
import { CREDENTIAL, NodeTestBed, errorKind, jsonOf } from './node-test-bed';

const bed = NodeTestBed.forFile({ resetEachTest: false });
let topResource: string;

beforeAll(async () => {
	await bed.reset();
	await bed.control.post('/_sandbox/seed', { demo: true });
	const ranking = await direct('/v1/analytics/resources', { limit: 1 });
	topResource = String((ranking.data as IDataObject[])[0].resource_id);
});

beforeEach(async () => {
	await bed.clearRequests();
});

const ANALYTICS = { resource: 'analytics' };
/** Time Zone › UTC as the editor stores it in node version 1.1. */
const UTC = { values: { zone: 'UTC' } };
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

async function direct(path: string, query: Record<string, string | number>): Promise<IDataObject> {
	const qs = new URLSearchParams(
		Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
	);
	const answer = await bed.api.get(`${path}?${qs.toString()}`);
	expect(answer.status).toBe(200);
	return answer.body;
}

/** The query strings of the `/v1` requests the node sent, decoded. */
async function sentQueries(): Promise<Array<Record<string, string>>> {
	const requests = await bed.requests();
	return requests.map((request) => Object.fromEntries(new URLSearchParams(request.query)));
}

/**
 * The simplified row the node should give: each "12.34%" string followed by `<key>_percent` with its number
 * (docs/api-contract.md §7 rates and trends), the rest as is.
 */
function withNumbers(row: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(row).flatMap(([key, value]) =>
			typeof value === 'string' && value.endsWith('%')
				? [
						[key, value],
						[`${key}_percent`, parseFloat(value)],
					]
				: [[key, value]],
		),
	);
}

async function run(operation: string, parameters: INodeParameters = {}) {
	return await bed.run({ ...ANALYTICS, operation, options: { timezone: UTC }, ...parameters });
}

describe('Get Overview', () => {
	it('flattens period, summary and trend into one item; Simplify off gives the raw answer', async () => {
		const raw = await direct('/v1/analytics/overview', { days: 30, timezone: 'UTC' });
		const period = raw.period as IDataObject;
		const summary = raw.summary as IDataObject;
		const trend = raw.trend as IDataObject;
		await bed.clearRequests();

		const simple = await run('getOverview', { period: 'lastDays', days: 30 });
		expect(simple.error).toBeUndefined();
		expect(jsonOf(simple)).toEqual([
			withNumbers({
				start_date: period.start_date,
				end_date: period.end_date,
				...summary,
				...trend,
			}),
		]);
		expect(Object.keys(jsonOf(simple)[0])).toEqual([
			'start_date',
			'end_date',
			'total_page_views',
			'unique_visitors',
			'total_leads',
			'lead_conversion_rate',
			'lead_conversion_rate_percent',
			'avg_dwell_seconds',
			'avg_scroll_depth',
			'avg_scroll_depth_percent',
			'page_views_vs_prev',
			'page_views_vs_prev_percent',
			'leads_vs_prev',
			'leads_vs_prev_percent',
		]);
		const row = jsonOf(simple)[0];
		expect(row.lead_conversion_rate_percent).toBe(
			Number(String(summary.lead_conversion_rate).replace('%', '')),
		);
		expect(typeof row.leads_vs_prev_percent).toBe('number');

		const full = await run('getOverview', { period: 'lastDays', days: 30, simplify: false });
		expect(jsonOf(full)).toEqual([raw]);
		expect(await sentQueries()).toEqual([
			{ days: '30', timezone: 'UTC' },
			{ days: '30', timezone: 'UTC' },
		]);
	});

	it('sends a date range from date pickers, ISO strings and DateTime expressions as YYYY-MM-DD', async () => {
		const { now } = (await bed.control.get<{ now: string }>('/_sandbox/clock')).body;
		const day = (offset: number) =>
			new Date(Date.parse(now) + offset * 86_400_000).toISOString().slice(0, 10);
		const raw = await direct('/v1/analytics/overview', {
			start_date: day(-20),
			end_date: day(-6),
			timezone: 'UTC',
		});

		for (const [startDate, endDate] of [
			[`${day(-20)}T00:00:00`, `${day(-6)}T00:00:00`],
			[day(-20), `${day(-6)}T23:30:00-05:00`],
			[
				`={{ DateTime.fromISO("${day(-20)}T22:00:00", { zone: "Pacific/Auckland" }) }}`,
				`={{ "${day(-6)}" }}`,
			],
		]) {
			const result = await run('getOverview', {
				period: 'range',
				startDate,
				endDate,
				simplify: false,
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([raw]);
		}
		expect(new Set((await sentQueries()).map((query) => JSON.stringify(query)))).toEqual(
			new Set([JSON.stringify({ start_date: day(-20), end_date: day(-6), timezone: 'UTC' })]),
		);
	});

	it('narrows to one resource with the Filters resource locator', async () => {
		const raw = await direct('/v1/analytics/overview', {
			days: 7,
			timezone: 'UTC',
			resource_id: topResource,
		});
		const result = await run('getOverview', {
			days: 7,
			filters: { resourceId: byId(topResource) },
			simplify: false,
		});
		expect(jsonOf(result)).toEqual([raw]);
	});
});

describe('Get Resource Ranking', () => {
	it('gives one item per ranked resource with the period; raw gives the list answer', async () => {
		const raw = await direct('/v1/analytics/resources', {
			days: 90,
			timezone: 'UTC',
			sort: 'leads',
			order: 'desc',
			limit: 3,
		});
		const parameters = {
			days: 90,
			limit: 3,
			options: { timezone: UTC, sort: 'leads', order: 'desc' },
		};
		const period = raw.period as IDataObject;

		const simple = await run('getResourceRanking', parameters);
		expect(simple.error).toBeUndefined();
		expect(jsonOf(simple)).toEqual(
			(raw.data as IDataObject[]).map((entry) =>
				withNumbers({ ...entry, start_date: period.start_date, end_date: period.end_date }),
			),
		);
		expect(jsonOf(simple).map((entry) => entry.rank)).toEqual([1, 2, 3]);

		const full = await run('getResourceRanking', { ...parameters, simplify: false });
		expect(jsonOf(full)).toEqual([raw]);
	});
});

describe('Get Resource Analytics', () => {
	it('keeps totals flat and the arrays, by week; raw is the whole answer', async () => {
		const raw = await direct(`/v1/analytics/resources/${topResource}`, {
			days: 60,
			timezone: 'UTC',
			granularity: 'week',
		});
		const parameters = { resourceId: byId(topResource), days: 60, granularity: 'week' };

		const simple = await run('getResourceAnalytics', parameters);
		expect(simple.error).toBeUndefined();
		const scroll = raw.scroll_distribution as IDataObject;
		expect(jsonOf(simple)).toEqual([
			withNumbers({
				resource_id: raw.resource_id,
				title: raw.title,
				start_date: (raw.period as IDataObject).start_date,
				end_date: (raw.period as IDataObject).end_date,
				granularity: 'week',
				...(raw.totals as IDataObject),
				scroll_0_25: scroll['0_25'],
				scroll_25_50: scroll['25_50'],
				scroll_50_75: scroll['50_75'],
				scroll_75_100: scroll['75_100'],
				top_channels: raw.top_channels,
				daily_trend: raw.daily_trend,
			}),
		]);
		expect((raw.daily_trend as unknown[]).length).toBeGreaterThan(7);

		const full = await run('getResourceAnalytics', { ...parameters, simplify: false });
		expect(jsonOf(full)).toEqual([raw]);
	});

	it('reports a resource of another account as 403 and a missing one as 404', async () => {
		const other = await bed.other.post('/v1/resources', { title: 'Theirs', type: 'article' });
		const forbidden = await run('getResourceAnalytics', {
			resourceId: byId(String(other.body.id)),
		});
		expect(errorKind(forbidden)).toEqual({ name: 'NodeApiError', httpCode: '403' });
		const missing = await run('getResourceAnalytics', { resourceId: byId('res_doesnotexist0000') });
		expect(errorKind(missing)).toEqual({ name: 'NodeApiError', httpCode: '404' });
	});
});

describe('Get Channels', () => {
	it('gives one item per channel, most visits first', async () => {
		const raw = await direct('/v1/analytics/channels', { days: 30, timezone: 'UTC' });
		const period = raw.period as IDataObject;
		const simple = await run('getChannels', { days: 30 });
		expect(jsonOf(simple)).toEqual(
			(raw.data as IDataObject[]).map((entry) =>
				withNumbers({ ...entry, start_date: period.start_date, end_date: period.end_date }),
			),
		);
		expect(jsonOf(simple)[0].source).toBe((raw.data as IDataObject[])[0].source);
		const full = await run('getChannels', { days: 30, simplify: false });
		expect(jsonOf(full)).toEqual([raw]);
	});
});

describe('Get Lead Trend', () => {
	it('gives one item per month bucket; raw keeps totals', async () => {
		const raw = await direct('/v1/analytics/leads', {
			days: 120,
			timezone: 'UTC',
			granularity: 'month',
		});
		const simple = await run('getLeadTrend', { days: 120, granularity: 'month' });
		expect(jsonOf(simple)).toEqual((raw.data as IDataObject[]).map(withNumbers));
		expect(jsonOf(simple)[0]).toEqual({
			date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
			leads: expect.any(Number),
			converted: expect.any(Number),
			conversion_rate: expect.stringMatching(/^\d+\.\d{2}%$/),
			conversion_rate_percent: expect.any(Number),
		});
		const full = await run('getLeadTrend', { days: 120, granularity: 'month', simplify: false });
		expect(jsonOf(full)).toEqual([raw]);
	});
});

describe('Get Funnel', () => {
	it('gives one flat item with a count and a rate per step', async () => {
		const raw = await direct('/v1/analytics/funnel', { days: 30, timezone: 'UTC' });
		const simple = await run('getFunnel', { days: 30 });
		const steps = raw.funnel_steps as IDataObject[];
		expect(jsonOf(simple)).toEqual([
			{
				start_date: (raw.period as IDataObject).start_date,
				end_date: (raw.period as IDataObject).end_date,
				resource_id: null,
				...Object.fromEntries(
					steps.flatMap((step) => [
						[`${String(step.step)}_count`, step.count],
						[`${String(step.step)}_rate`, step.rate],
						[`${String(step.step)}_rate_percent`, parseFloat(String(step.rate))],
					]),
				),
			},
		]);
		expect(Object.keys(jsonOf(simple)[0]).slice(3)).toEqual([
			'page_view_count',
			'page_view_rate',
			'page_view_rate_percent',
			'scroll_50pct_count',
			'scroll_50pct_rate',
			'scroll_50pct_rate_percent',
			'cta_view_count',
			'cta_view_rate',
			'cta_view_rate_percent',
			'cta_click_count',
			'cta_click_rate',
			'cta_click_rate_percent',
			'form_submit_count',
			'form_submit_rate',
			'form_submit_rate_percent',
		]);
		expect(jsonOf(simple)[0].page_view_rate).toBe('100.00%');
		expect(jsonOf(simple)[0].page_view_rate_percent).toBe(100);

		const forResource = await run('getFunnel', {
			days: 30,
			filters: { resourceId: byId(topResource) },
			simplify: false,
		});
		expect(jsonOf(forResource)).toEqual([
			await direct('/v1/analytics/funnel', { days: 30, timezone: 'UTC', resource_id: topResource }),
		]);
	});
});

describe('Time zones', () => {
	it.each([
		// Node version 1.1: one Time Zone fixed collection, Custom with its input in place.
		[1.1, { timezone: { values: { zone: 'Europe/Berlin' } } }, 'Europe/Berlin'],
		[1.1, { timezone: { values: { zone: 'custom', custom: '-05:30' } } }, '-05:30'],
		[
			1.1,
			{ timezone: { values: { zone: 'custom', custom: ' America/Argentina/Buenos_Aires ' } } },
			'America/Argentina/Buenos_Aires',
		],
		// Version 1 (workflows saved with 0.1.0): two options, still read as before.
		[1, { timezone: 'Europe/Berlin' }, 'Europe/Berlin'],
		[1, { timezone: 'custom', customTimezone: '+05:30' }, '+05:30'],
		[
			1,
			{ timezone: 'custom', customTimezone: ' America/Argentina/Buenos_Aires ' },
			'America/Argentina/Buenos_Aires',
		],
	])('version %s sends %j as timezone=%s', async (typeVersion, options, sent) => {
		const result = await bed.run(
			{ ...ANALYTICS, operation: 'getOverview', days: 7, options, simplify: false },
			{ typeVersion },
		);
		expect(jsonOf(result)).toEqual([
			await direct('/v1/analytics/overview', { days: 7, timezone: sent }),
		]);
		expect((await sentQueries())[0]).toEqual({ days: '7', timezone: sent });
	});

	it('sends no timezone for the service default (UTC+08:00)', async () => {
		await bed.run({ ...ANALYTICS, operation: 'getOverview', days: 7 });
		expect(await sentQueries()).toEqual([{ days: '7' }]);
		await bed.clearRequests();
		await bed.run({
			...ANALYTICS,
			operation: 'getOverview',
			days: 7,
			options: { timezone: { values: { zone: 'default' } } },
		});
		expect(await sentQueries()).toEqual([{ days: '7' }]);
	});

	it("uses the workflow's time zone when asked", async () => {
		const result = await bed.harness.run({
			nodes: [
				startNode(),
				{
					name: 'Analytics',
					type: bed.nodeType,
					parameters: {
						...ANALYTICS,
						operation: 'getOverview',
						days: 7,
						options: { timezone: { values: { zone: 'workflow' } } },
					},
					credentials: {
						[CREDENTIAL]: bed.harness.credentials.referenceFor(CREDENTIAL) ?? { id: '1', name: '' },
					},
				},
			],
			connections: chain('Start', 'Analytics'),
			settings: { timezone: 'Asia/Tokyo' },
		});
		expect(result.errorOf('Analytics')).toBeUndefined();
		expect(await sentQueries()).toEqual([{ days: '7', timezone: 'Asia/Tokyo' }]);
	});

	it.each(['Mars/Olympus', '+25:00', 'UTC+8', '+05:10', ''])(
		'refuses the custom time zone "%s" before any request',
		async (zone) => {
			const options = { timezone: { values: { zone: 'custom', custom: zone } } };
			const result = await bed.run({ ...ANALYTICS, operation: 'getOverview', days: 7, options });
			expect(result.error?.message).toMatch(/^Custom Time Zone: /);
			expect(result.error?.message).toContain('[item 0]');
			expect(await bed.requests()).toEqual([]);
		},
	);

	it('refuses a bad custom time zone of node version 1 too', async () => {
		const options = { timezone: 'custom', customTimezone: 'Mars/Olympus' };
		const result = await bed.run(
			{ ...ANALYTICS, operation: 'getOverview', days: 7, options },
			{ typeVersion: 1 },
		);
		expect(result.error?.message).toMatch(/^Custom Time Zone: expected an IANA time zone/);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Validation before any request', () => {
	it.each([
		[
			'getOverview',
			{ period: 'lastDays', days: '={{ 0 }}' },
			'Days: expected a whole number from 1 to 365, got 0 [item 0]',
		],
		[
			'getOverview',
			{ period: 'lastDays', days: '={{ 366 }}' },
			'Days: expected a whole number from 1 to 365, got 366 [item 0]',
		],
		[
			'getOverview',
			{ period: 'lastDays', days: '={{ 2.5 }}' },
			'Days: expected a whole number from 1 to 365',
		],
		[
			'getChannels',
			{ period: 'range', startDate: '2026-11-10', endDate: '2026-11-01' },
			'End Date: must not be before the start date (2026-11-10 to 2026-11-01) [item 0]',
		],
		[
			'getFunnel',
			{ period: 'range', startDate: '2025-01-01', endDate: '2026-01-02' },
			'End Date: a date range may span at most 366 days (2025-01-01 to 2026-01-02 is 367) [item 0]',
		],
		[
			'getOverview',
			{ period: 'range', startDate: '={{ "yesterday" }}', endDate: '2026-11-01' },
			'Start Date: expected a date (YYYY-MM-DD) or an ISO date-time, got "yesterday" [item 0]',
		],
		[
			'getOverview',
			{ period: 'range', startDate: '={{ "2026-02-30" }}', endDate: '2026-03-01' },
			'Start Date: expected a date as YYYY-MM-DD, got "2026-02-30" [item 0]',
		],
		[
			'getOverview',
			{ period: 'range', startDate: '={{ "" }}', endDate: '2026-03-01' },
			'Start Date: expected a date (YYYY-MM-DD) or an ISO date-time, got nothing [item 0]',
		],
		[
			'getLeadTrend',
			{ days: 7, granularity: '={{ "year" }}' },
			'Granularity: expected one of day, week, month, got "year" [item 0]',
		],
		[
			'getResourceRanking',
			{ days: 7, limit: '={{ 101 }}' },
			'Limit: expected a whole number from 1 to 100, got 101 [item 0]',
		],
		[
			'getFunnel',
			{ days: 7, filters: { resourceId: byId('={{ "lead_8k2m4n6p8r0t2v4x" }}') } },
			'Content Resource: expected an ID like res_',
		],
		[
			'getResourceAnalytics',
			{ resourceId: { __rl: true, mode: 'url', value: '={{ "https://x.example/r/1" }}' } },
			'Content Resource: expected the public link of a resource',
		],
	])('%s refuses %j', async (operation, parameters, message) => {
		const result = await run(operation, parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(message);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Items, pairing and Continue On Fail', () => {
	it('answers per input item, paired with it; a failing item becomes an error item', async () => {
		const result = await bed.run(
			{
				...ANALYTICS,
				operation: 'getResourceRanking',
				days: '={{ $json.days }}',
				limit: 2,
				options: { timezone: 'UTC' },
			},
			{
				continueOnFail: true,
				input: [{ json: { days: 7 } }, { json: { days: 0 } }, { json: { days: 30 } }],
			},
		);
		expect(result.error).toBeUndefined();
		const pairs = result.items.map((item) => (item.pairedItem as { item: number }).item);
		expect(pairs).toEqual([0, 0, 1, 2, 2]);
		expect(result.items[2].json.error).toBe(
			'Days: expected a whole number from 1 to 365, got 0 [item 1]',
		);
		expect(result.items[0].json.rank).toBe(1);
		expect(result.items[4].json.rank).toBe(2);
		expect((await sentQueries()).map((query) => query.days)).toEqual(['7', '30']);
	});
});
