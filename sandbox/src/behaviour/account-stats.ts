// The tracked behaviour of one account: every tracked event updates these aggregates once, and the
// analytics read only aggregates. Live tracking and the traffic simulator both write through `record`.
import { DistinctCounter, VisitorEntries } from './distinct-visitors';
import type { Utm } from './host';
import {
	DIRECT_SOURCE,
	RESOURCE_METRICS as R,
	RESOURCE_WIDTH,
	scrollBand,
	SOURCE_METRICS as S,
	SOURCE_WIDTH,
} from './metrics';
import { QuarterSeries, quarterOf } from './quarter-series';
import { VisitorTable } from './visitor-table';

/** Where a page view came from: its UTM parameters and the lead channel derived from them. */
export interface Attribution {
	utm: Utm;
	channel: string;
}

export type TrackedEvent = { visitorId: string; at: number } & (
	| { type: 'page_view'; attribution: Attribution }
	| { type: 'dwell'; seconds: number }
	| { type: 'scroll'; depth: number }
	| { type: 'cta_view' | 'cta_click' | 'form_submit' }
);

interface ViewState {
	quarter: number;
	attribution: number;
	depth: number;
	/** Furthest funnel step reached, 0 (page_view) .. 4 (form_submit). */
	level: number;
}

export interface SourceStats {
	series: QuarterSeries;
	visitors: VisitorEntries;
}

export class ResourceStats {
	readonly series = new QuarterSeries(RESOURCE_WIDTH);
	readonly sources = new Map<number, SourceStats>();
	/** The latest page view of each visitor on this resource, which later events belong to. */
	readonly views = new Map<number, ViewState>();

	constructor(readonly id: string) {}

	source(index: number): SourceStats {
		let stats = this.sources.get(index);
		if (!stats) {
			stats = { series: new QuarterSeries(SOURCE_WIDTH, true), visitors: new VisitorEntries() };
			this.sources.set(index, stats);
		}
		return stats;
	}
}

export interface LeadEntry {
	leadId: string;
	resourceId: string;
	source: number;
	quarter: number;
}

/** The view a non-page-view event was attached to. */
export interface RecordedEvent {
	visitor: number;
	attribution: Attribution;
	source: number;
}

const FUNNEL_LEVEL = { cta_view: 2, cta_click: 3, form_submit: 4 } as const;
const COUNTED_AS = {
	cta_view: R.ctaViews,
	cta_click: R.ctaClicks,
	form_submit: R.formSubmits,
} as const;

export class AccountStats {
	readonly visitors = new VisitorTable();
	readonly sourceNames: string[] = [];
	readonly resources = new Map<string, ResourceStats>();
	readonly leads: LeadEntry[] = [];
	readonly distinct = new DistinctCounter();
	private readonly sourceIndex = new Map<string, number>();
	private readonly attributions: Array<{ attribution: Attribution; source: number }> = [];
	private readonly attributionIndex = new Map<string, number>();

	resource(resourceId: string): ResourceStats {
		let stats = this.resources.get(resourceId);
		if (!stats) {
			stats = new ResourceStats(resourceId);
			this.resources.set(resourceId, stats);
		}
		return stats;
	}

	/** Applies one event; undefined (nothing recorded) when it needs a page view the visitor has not made. */
	record(resourceId: string, event: TrackedEvent): RecordedEvent | undefined {
		const stats = this.resource(resourceId);
		if (event.type === 'page_view')
			return this.pageView(stats, event.visitorId, event.at, event.attribution);
		const visitor = this.visitors.find(event.visitorId);
		const view = visitor === undefined ? undefined : stats.views.get(visitor);
		if (visitor === undefined || !view) return undefined;
		const { series } = stats;
		const visitors = this.visitors;
		switch (event.type) {
			case 'dwell':
				series.add(view.quarter, R.dwellSeconds, event.seconds);
				visitors.dwellSeconds[visitor] += event.seconds;
				break;
			case 'scroll':
				if (event.depth > view.depth) {
					series.add(view.quarter, R.scrollDepth, event.depth - view.depth);
					series.add(view.quarter, R.scrollBands + scrollBand(view.depth), -1);
					series.add(view.quarter, R.scrollBands + scrollBand(event.depth), 1);
					view.depth = event.depth;
					if (event.depth > visitors.maxScroll[visitor]) visitors.maxScroll[visitor] = event.depth;
					if (event.depth >= 50) this.reach(series, view, 1);
				}
				break;
			default:
				series.add(view.quarter, COUNTED_AS[event.type], 1);
				if (event.type === 'cta_click') visitors.ctaClicks[visitor]++;
				this.reach(series, view, FUNNEL_LEVEL[event.type]);
		}
		this.seen(visitor, event.at);
		const { attribution, source } = this.attributions[view.attribution];
		return { visitor, attribution, source };
	}

	/** Counts a lead created from a form submitted at `at` on the resource, from the given UTM source. */
	addLead(resourceId: string, leadId: string, source: number, at: number): void {
		const stats = this.resource(resourceId);
		const quarter = quarterOf(at);
		stats.series.add(quarter, R.leads, 1);
		stats.source(source).series.add(quarter, S.leads, 1);
		this.leads.push({ leadId, resourceId, source, quarter });
	}

	private pageView(
		stats: ResourceStats,
		visitorId: string,
		at: number,
		attribution: Attribution,
	): RecordedEvent {
		const visitor = this.visitors.intern(visitorId);
		const attributionIndex = this.attribution(attribution);
		const source = this.attributions[attributionIndex].source;
		const quarter = quarterOf(at);
		const previous = stats.views.get(visitor);
		stats.views.set(visitor, { quarter, attribution: attributionIndex, depth: 0, level: 0 });
		stats.series.add(quarter, R.pageViews, 1);
		stats.series.add(quarter, R.scrollBands, 1);
		stats.series.add(quarter, R.funnelLevels, 1);
		const sourceStats = stats.source(source);
		sourceStats.series.add(quarter, S.pageViews, 1);
		const sameCell =
			previous &&
			previous.quarter === quarter &&
			this.attributions[previous.attribution].source === source;
		if (!sameCell) sourceStats.visitors.add(quarter, visitor);
		this.visitors.pageViews[visitor]++;
		this.seen(visitor, at);
		return { visitor, attribution, source };
	}

	private reach(series: QuarterSeries, view: ViewState, level: number): void {
		if (level <= view.level) return;
		series.add(view.quarter, R.funnelLevels + view.level, -1);
		series.add(view.quarter, R.funnelLevels + level, 1);
		view.level = level;
	}

	private seen(visitor: number, at: number): void {
		if (at > this.visitors.lastSeen[visitor]) this.visitors.lastSeen[visitor] = at;
	}

	private attribution(attribution: Attribution): number {
		const { utm, channel } = attribution;
		const key = [utm.source, utm.medium, utm.campaign, channel]
			.map((part) => (part === null ? '\u0001' : part))
			.join('\u0000');
		const known = this.attributionIndex.get(key);
		if (known !== undefined) return known;
		const name = utm.source ?? DIRECT_SOURCE;
		let source = this.sourceIndex.get(name);
		if (source === undefined) {
			source = this.sourceNames.push(name) - 1;
			this.sourceIndex.set(name, source);
		}
		this.attributionIndex.set(key, this.attributions.length);
		return this.attributions.push({ attribution, source }) - 1;
	}
}
