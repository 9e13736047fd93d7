// Time arithmetic of the behaviour tests: days in a time zone given as a UTC offset in minutes.
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** The first instant after `after` at which a local day of a UTC offset (in minutes) begins. */
export function nextLocalMidnight(after: number, offsetMinutes: number): number {
	const offset = offsetMinutes * MINUTE;
	return Math.ceil((after + offset) / DAY) * DAY - offset;
}

/** The local date (YYYY-MM-DD) of an instant at a UTC offset in minutes. */
export function localDate(ms: number, offsetMinutes: number): string {
	return new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, 10);
}
