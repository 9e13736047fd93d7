// Shared reads over the aggregates of the resources an analytics request covers.
import type { AccountStats, ResourceStats, SourceStats } from './account-stats';
import type { BehaviourHost } from './host';
import { RESOURCE_METRICS as R, RESOURCE_WIDTH } from './metrics';
import type { QuarterRange } from './period';

/** The aggregates of one resource, or of all the account's resources that are not deleted. */
export function scopeOf(
	stats: AccountStats | undefined,
	host: BehaviourHost,
	resourceId?: string,
): ResourceStats[] {
	if (!stats) return [];
	if (resourceId !== undefined) {
		const one = stats.resources.get(resourceId);
		return one ? [one] : [];
	}
	return [...stats.resources.values()].filter(
		(resource) => host.findResource(resource.id)?.deleted === false,
	);
}

/** Sums of every resource metric (see RESOURCE_METRICS) over the range. */
export function totals(resources: Iterable<ResourceStats>, range: QuarterRange): Float64Array {
	const sums = new Float64Array(RESOURCE_WIDTH);
	for (const resource of resources) resource.series.sumInto(range.from, range.to, sums);
	return sums;
}

/** Distinct visitors with a page view in the range, over the given (resource, source) cells. */
export function distinctVisitors(
	stats: AccountStats | undefined,
	sources: Iterable<SourceStats>,
	range: QuarterRange,
): number {
	if (!stats) return 0;
	stats.distinct.begin(stats.visitors.count);
	let count = 0;
	for (const source of sources) count += source.visitors.mark(range.from, range.to, stats.distinct);
	return count;
}

export function* sourcesOf(resources: Iterable<ResourceStats>): Iterable<SourceStats> {
	for (const resource of resources) yield* resource.sources.values();
}

/** The count of page views at each funnel step: a view counts at every step up to the furthest it reached. */
export function funnelCounts(sums: Float64Array): number[] {
	const counts: number[] = [];
	let reached = 0;
	for (let step = 4; step >= 0; step--) {
		reached += sums[R.funnelLevels + step];
		counts[step] = reached;
	}
	return counts;
}
