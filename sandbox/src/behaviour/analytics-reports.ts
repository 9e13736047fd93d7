// The six analytics answers (docs/api-contract.md §7), computed from the aggregates as docs/api-contract.md §12 defines each number.
import type { AccountStats } from './account-stats';
import { distinctVisitors, funnelCounts, scopeOf, sourcesOf, totals } from './analytics-reads';
import { formatDate, type Granularity } from './calendar';
import type { BehaviourHost, ResourceRecord } from './host';
import {
	FUNNEL_STEPS,
	RESOURCE_METRICS as R,
	SCROLL_BANDS,
	SOURCE_METRICS as S,
	SOURCE_WIDTH,
} from './metrics';
import { average, percent, ratio, trend } from './percent';
import {
	buckets,
	describePeriod,
	periodRange,
	previousPeriod,
	type Period,
	type QuarterRange,
} from './period';

export interface ReportContext {
	host: BehaviourHost;
	accountId: string;
	stats: AccountStats | undefined;
}

const TOP_CHANNELS = 10;

export function overview(context: ReportContext, period: Period, resourceId?: string) {
	const scope = scopeOf(context.stats, context.host, resourceId);
	const range = periodRange(period);
	const current = totals(scope, range);
	const previous = totals(scope, periodRange(previousPeriod(period)));
	const visitors = distinctVisitors(context.stats, sourcesOf(scope), range);
	const pageViews = current[R.pageViews];
	return {
		period: describePeriod(period),
		summary: {
			total_page_views: pageViews,
			unique_visitors: visitors,
			total_leads: current[R.leads],
			lead_conversion_rate: percent(current[R.leads], visitors),
			avg_dwell_seconds: average(current[R.dwellSeconds], pageViews),
			avg_scroll_depth: percent(current[R.scrollDepth], pageViews * 100),
		},
		trend: {
			page_views_vs_prev: trend(pageViews, previous[R.pageViews]),
			leads_vs_prev: trend(current[R.leads], previous[R.leads]),
		},
	};
}

export type RankingSort =
	| 'page_views'
	| 'unique_visitors'
	| 'leads'
	| 'conversion_rate'
	| 'avg_dwell_seconds';

export function ranking(
	context: ReportContext,
	period: Period,
	options: { resourceId?: string; sort: RankingSort; order: 'asc' | 'desc'; limit: number },
) {
	const range = periodRange(period);
	const live = context.host
		.listResources(context.accountId)
		.filter(
			(resource) =>
				!resource.deleted &&
				(options.resourceId === undefined || resource.id === options.resourceId),
		);
	const rows = live.map((resource) => {
		const stats = context.stats?.resources.get(resource.id);
		const sums = totals(stats ? [stats] : [], range);
		const visitors = stats ? distinctVisitors(context.stats, stats.sources.values(), range) : 0;
		const leads = sums[R.leads];
		return {
			resource,
			sortValue: {
				page_views: sums[R.pageViews],
				unique_visitors: visitors,
				leads,
				conversion_rate: ratio(leads, visitors),
				avg_dwell_seconds: average(sums[R.dwellSeconds], sums[R.pageViews]),
			},
			cta_clicks: sums[R.ctaClicks],
		};
	});
	const direction = options.order === 'asc' ? 1 : -1;
	rows.sort(
		(a, b) =>
			direction * (a.sortValue[options.sort] - b.sortValue[options.sort]) ||
			b.sortValue.page_views - a.sortValue.page_views ||
			compareText(a.resource.id, b.resource.id),
	);
	return {
		object: 'list',
		period: describePeriod(period),
		data: rows.slice(0, options.limit).map((row, index) => ({
			rank: index + 1,
			resource_id: row.resource.id,
			title: row.resource.title,
			type: row.resource.type,
			status: row.resource.status,
			page_views: row.sortValue.page_views,
			unique_visitors: row.sortValue.unique_visitors,
			leads: row.sortValue.leads,
			conversion_rate: percent(row.sortValue.leads, row.sortValue.unique_visitors),
			avg_dwell_seconds: row.sortValue.avg_dwell_seconds,
			cta_clicks: row.cta_clicks,
		})),
	};
}

export function resourceDetail(
	context: ReportContext,
	resource: ResourceRecord,
	period: Period,
	granularity: Granularity,
) {
	const scoped = scopeOf(context.stats, context.host, resource.id);
	const stats = scoped.at(0);
	const range = periodRange(period);
	const sums = totals(scoped, range);
	const pageViews = sums[R.pageViews];
	const visitors = stats ? distinctVisitors(context.stats, stats.sources.values(), range) : 0;
	const channels = (stats ? [...stats.sources] : []).map(([source, cells]) => {
		const channel = new Float64Array(SOURCE_WIDTH);
		cells.series.sumInto(range.from, range.to, channel);
		return {
			source: context.stats?.sourceNames[source] ?? '',
			visits: channel[S.pageViews],
			leads: channel[S.leads],
		};
	});
	return {
		resource_id: resource.id,
		title: resource.title,
		period: describePeriod(period),
		granularity,
		totals: {
			page_views: pageViews,
			unique_visitors: visitors,
			leads: sums[R.leads],
			avg_dwell_seconds: average(sums[R.dwellSeconds], pageViews),
		},
		scroll_distribution: Object.fromEntries(
			SCROLL_BANDS.map((band, index) => [band, percent(sums[R.scrollBands + index], pageViews)]),
		),
		top_channels: channels
			.filter((channel) => channel.visits > 0 || channel.leads > 0)
			.sort((a, b) => b.visits - a.visits || b.leads - a.leads || compareText(a.source, b.source))
			.slice(0, TOP_CHANNELS),
		daily_trend: buckets(period, granularity).map((bucket) => {
			const cell = totals(scoped, bucket);
			return { date: formatDate(bucket.date), page_views: cell[R.pageViews], leads: cell[R.leads] };
		}),
	};
}

export function channels(context: ReportContext, period: Period, resourceId?: string) {
	const scope = scopeOf(context.stats, context.host, resourceId);
	const range = periodRange(period);
	const rows = (context.stats?.sourceNames ?? []).map((name, source) => {
		const cells = scope.flatMap((resource) => resource.sources.get(source) ?? []);
		const sums = new Float64Array(SOURCE_WIDTH);
		for (const cell of cells) cell.series.sumInto(range.from, range.to, sums);
		const visitors = distinctVisitors(context.stats, cells, range);
		return {
			source: name,
			visits: sums[S.pageViews],
			unique_visitors: visitors,
			leads: sums[S.leads],
			conversion_rate: percent(sums[S.leads], visitors),
		};
	});
	return {
		object: 'list',
		period: describePeriod(period),
		data: rows
			.filter((row) => row.visits > 0 || row.leads > 0)
			.sort((a, b) => b.visits - a.visits || b.leads - a.leads || compareText(a.source, b.source)),
	};
}

export function leadTrend(
	context: ReportContext,
	period: Period,
	granularity: Granularity,
	resourceId?: string,
) {
	const scope = scopeOf(context.stats, context.host, resourceId);
	const ids = new Set(scope.map((resource) => resource.id));
	const converted = new Set(
		context.host
			.listLeads(context.accountId)
			.filter(
				(lead) =>
					lead.status === 'converted' ||
					lead.status_history.some((entry) => entry.status === 'converted'),
			)
			.map((lead) => lead.id),
	);
	const slots = buckets(period, granularity);
	const counts = slots.map(() => ({ leads: 0, converted: 0 }));
	const range = periodRange(period);
	for (const lead of context.stats?.leads ?? []) {
		if (!ids.has(lead.resourceId) || lead.quarter < range.from || lead.quarter >= range.to)
			continue;
		const slot = counts[bucketIndex(slots, lead.quarter)];
		slot.leads++;
		if (converted.has(lead.leadId)) slot.converted++;
	}
	const sum = counts.reduce(
		(all, slot) => ({ leads: all.leads + slot.leads, converted: all.converted + slot.converted }),
		{ leads: 0, converted: 0 },
	);
	return {
		period: describePeriod(period),
		granularity,
		data: slots.map((slot, index) => ({
			date: formatDate(slot.date),
			...counts[index],
			conversion_rate: percent(counts[index].converted, counts[index].leads),
		})),
		totals: { ...sum, conversion_rate: percent(sum.converted, sum.leads) },
	};
}

export function funnel(context: ReportContext, period: Period, resourceId?: string) {
	const scope = scopeOf(context.stats, context.host, resourceId);
	const counts = funnelCounts(totals(scope, periodRange(period)));
	return {
		period: describePeriod(period),
		resource_id: resourceId ?? null,
		funnel_steps: FUNNEL_STEPS.map((step, index) => ({
			step,
			count: counts[index],
			rate: percent(counts[index], counts[0]),
		})),
	};
}

/** The bucket holding `quarter` (buckets are consecutive and ordered). */
function bucketIndex(slots: QuarterRange[], quarter: number): number {
	let low = 0;
	let high = slots.length - 1;
	while (low < high) {
		const middle = (low + high + 1) >> 1;
		if (slots[middle].from <= quarter) low = middle;
		else high = middle - 1;
	}
	return low;
}

function compareText(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
