// Lead score 0..100 from behaviour (docs/api-contract.md §12): five capped parts that add up to at most 100.
import { MS_PER_DAY, MS_PER_HOUR } from './calendar';
import type { BehaviorSummary } from './host';

const RECENCY: Array<[maxAgeMs: number, points: number]> = [
	[MS_PER_DAY, 10],
	[3 * MS_PER_DAY, 7],
	[7 * MS_PER_DAY, 4],
	[30 * MS_PER_DAY, 2],
];

export function leadScore(summary: BehaviorSummary, lastSeen: number, now: number): number {
	const pageViews = Math.min(summary.total_page_views, 10) * 3;
	const dwell = Math.min(Math.floor(summary.avg_dwell_seconds / 10), 20);
	const scroll = Math.min(Math.floor(summary.max_scroll_depth / 5), 20);
	const ctaClicks = Math.min(summary.cta_clicks, 2) * 10;
	const age = now - lastSeen;
	const recency = RECENCY.find(([maxAge]) => age <= maxAge)?.[1] ?? 0;
	return Math.max(0, Math.min(100, pageViews + dwell + scroll + ctaClicks + recency));
}

/** The latest whole sandbox hour in (from, to], if the advance crossed one. */
export function hourCrossed(from: number, to: number): number | undefined {
	const hour = Math.floor(to / MS_PER_HOUR);
	return hour > Math.floor(from / MS_PER_HOUR) ? hour * MS_PER_HOUR : undefined;
}
