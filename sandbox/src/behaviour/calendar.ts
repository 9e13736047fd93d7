// Civil dates as day numbers (days since 1970-01-01), independent of any time zone.
export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

export type DayNumber = number;
export type Granularity = 'day' | 'week' | 'month';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a `YYYY-MM-DD` string, or undefined when it is not a real calendar date. */
export function parseDate(text: string): DayNumber | undefined {
	const match = DATE_PATTERN.exec(text);
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const ms = Date.UTC(year, month - 1, day);
	const back = new Date(ms);
	if (
		back.getUTCFullYear() !== year ||
		back.getUTCMonth() !== month - 1 ||
		back.getUTCDate() !== day
	)
		return undefined;
	return ms / MS_PER_DAY;
}

export function formatDate(day: DayNumber): string {
	return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** ISO 8601 UTC with second precision, the contract's timestamp form. */
export function formatTimestamp(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Day of the week, Monday 0 to Sunday 6. */
export function weekday(day: DayNumber): number {
	return (((day + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

/** First day of the bucket holding `day`: itself, its week's Monday, or the 1st of its month. */
export function bucketStart(day: DayNumber, granularity: Granularity): DayNumber {
	if (granularity === 'day') return day;
	if (granularity === 'week') return day - weekday(day);
	const date = new Date(day * MS_PER_DAY);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / MS_PER_DAY;
}

/** First day of the bucket after the one starting at `start`. */
export function nextBucketStart(start: DayNumber, granularity: Granularity): DayNumber {
	if (granularity === 'day') return start + 1;
	if (granularity === 'week') return start + 7;
	const date = new Date(start * MS_PER_DAY);
	return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / MS_PER_DAY;
}
