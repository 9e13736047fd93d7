import type { BehaviorSummary } from './host';

/** The visitors of one account by index, with the running behaviour totals that scoring reads. */
export class VisitorTable {
	private readonly index = new Map<string, number>();
	count = 0;
	pageViews = new Uint32Array(256);
	dwellSeconds = new Float64Array(256);
	maxScroll = new Uint8Array(256);
	ctaClicks = new Uint32Array(256);
	/** Time (ms) of the visitor's latest tracked event. */
	lastSeen = new Float64Array(256);

	find(visitorId: string): number | undefined {
		return this.index.get(visitorId);
	}

	intern(visitorId: string): number {
		const known = this.index.get(visitorId);
		if (known !== undefined) return known;
		if (this.count === this.pageViews.length) this.grow();
		this.index.set(visitorId, this.count);
		return this.count++;
	}

	summary(visitor: number): BehaviorSummary {
		const views = this.pageViews[visitor];
		return {
			total_page_views: views,
			avg_dwell_seconds: views === 0 ? 0 : Math.round(this.dwellSeconds[visitor] / views),
			max_scroll_depth: this.maxScroll[visitor],
			cta_clicks: this.ctaClicks[visitor],
		};
	}

	private grow(): void {
		const size = this.pageViews.length * 2;
		this.pageViews = grown(this.pageViews, new Uint32Array(size));
		this.dwellSeconds = grown(this.dwellSeconds, new Float64Array(size));
		this.maxScroll = grown(this.maxScroll, new Uint8Array(size));
		this.ctaClicks = grown(this.ctaClicks, new Uint32Array(size));
		this.lastSeen = grown(this.lastSeen, new Float64Array(size));
	}
}

function grown<T extends Uint32Array | Float64Array | Uint8Array>(old: T, next: T): T {
	next.set(old);
	return next;
}
