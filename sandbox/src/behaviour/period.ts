import {
	bucketStart,
	formatDate,
	nextBucketStart,
	type DayNumber,
	type Granularity,
} from './calendar';
import { quarterAtOrAfter } from './quarter-series';
import { startOfDay, type TimeZone } from './time-zone';

/** Whole local days `start`..`end` (inclusive) in a time zone. */
export interface Period {
	start: DayNumber;
	end: DayNumber;
	zone: TimeZone;
}

/** A half-open range of quarter-hour cells. */
export interface QuarterRange {
	from: number;
	to: number;
}

export interface Bucket extends QuarterRange {
	/** First day of the bucket (which may lie before the period when the period starts mid-bucket). */
	date: DayNumber;
}

/** The cells from the start of local day `first` to the start of the day after `last`. */
export function daysRange(zone: TimeZone, first: DayNumber, last: DayNumber): QuarterRange {
	return {
		from: quarterAtOrAfter(startOfDay(zone, first)),
		to: quarterAtOrAfter(startOfDay(zone, last + 1)),
	};
}

export function periodRange(period: Period): QuarterRange {
	return daysRange(period.zone, period.start, period.end);
}

/** The period of equal length just before. */
export function previousPeriod(period: Period): Period {
	const length = period.end - period.start + 1;
	return { start: period.start - length, end: period.end - length, zone: period.zone };
}

/** Calendar buckets covering the period, each clipped to it. */
export function buckets(period: Period, granularity: Granularity): Bucket[] {
	const result: Bucket[] = [];
	for (
		let date = bucketStart(period.start, granularity);
		date <= period.end;
		date = nextBucketStart(date, granularity)
	) {
		const first = Math.max(date, period.start);
		const last = Math.min(nextBucketStart(date, granularity) - 1, period.end);
		result.push({ date, ...daysRange(period.zone, first, last) });
	}
	return result;
}

export function describePeriod(period: Period): { start_date: string; end_date: string } {
	return { start_date: formatDate(period.start), end_date: formatDate(period.end) };
}
