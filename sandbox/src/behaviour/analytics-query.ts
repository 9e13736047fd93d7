// Query validation of the analytics endpoints (docs/api-contract.md §7): strict, every problem is a 400 naming its parameter.
import { z } from 'zod';
import { ApiError } from '../errors';
import { idString, intQuery, parseOrThrow, sortOrder, type Schema } from '../validation';
import { parseDate, type Granularity } from './calendar';
import type { Period } from './period';
import { dayOf, parseTimeZone } from './time-zone';
const DEFAULT_TIME_ZONE = '+08:00';
const DEFAULT_DAYS = 30;
const MAX_RANGE_DAYS = 366;

const date = z
	.string()
	.refine((text) => parseDate(text) !== undefined, 'must be a date YYYY-MM-DD');
export const GRANULARITIES = ['day', 'week', 'month'] as const;
export const RANKING_SORTS = [
	'page_views',
	'unique_visitors',
	'leads',
	'conversion_rate',
	'avg_dwell_seconds',
] as const;
const granularity = z.enum(GRANULARITIES);

const common = {
	start_date: date.optional(),
	end_date: date.optional(),
	days: intQuery(1, 365).optional(),
	timezone: z.string().max(64).optional(),
};

export const overviewQuery = z
	.object({ ...common, resource_id: idString('res').optional() })
	.strict();
export const rankingQuery = overviewQuery
	.extend({
		sort: z.enum(RANKING_SORTS).optional(),
		order: sortOrder.optional(),
		limit: intQuery(1, 100).optional(),
	})
	.strict();
/** The resource is the path id, so `resource_id` is not a parameter here. */
export const resourceQuery = z.object({ ...common, granularity: granularity.optional() }).strict();
export const leadsQuery = overviewQuery.extend({ granularity: granularity.optional() }).strict();

type CommonQuery = { start_date?: string; end_date?: string; days?: number; timezone?: string };

export function parseQuery<T>(schema: Schema<T>, query: unknown): T {
	return parseOrThrow(schema, query ?? {}, 'query');
}

/** The period a query selects, in its time zone; `now` decides what "today" is. */
export function resolvePeriod(query: CommonQuery, now: number): Period {
	const zone = parseTimeZone(query.timezone ?? DEFAULT_TIME_ZONE);
	if (!zone)
		throw ApiError.invalid(
			'timezone',
			'must be an IANA time zone name or an offset such as +08:00',
		);
	const { start_date: startText, end_date: endText, days } = query;
	if (startText === undefined && endText === undefined) {
		const today = dayOf(zone, now);
		return { start: today - (days ?? DEFAULT_DAYS) + 1, end: today, zone };
	}
	if (days !== undefined)
		throw ApiError.invalid('days', 'cannot be combined with start_date and end_date');
	if (startText === undefined) throw ApiError.invalid('start_date', 'is required with end_date');
	if (endText === undefined) throw ApiError.invalid('end_date', 'is required with start_date');
	const start = parseDate(startText) as number;
	const end = parseDate(endText) as number;
	if (start > end) throw ApiError.invalid('start_date', 'must not be after end_date');
	if (end - start + 1 > MAX_RANGE_DAYS)
		throw ApiError.invalid('end_date', `the range spans at most ${MAX_RANGE_DAYS} days`);
	return { start, end, zone };
}

export function granularityOf(query: { granularity?: Granularity }): Granularity {
	return query.granularity ?? 'day';
}
