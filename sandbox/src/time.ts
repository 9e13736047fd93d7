/** ISO 8601 UTC with second precision: 2026-11-21T08:15:00Z. */
export function isoSeconds(date: Date): string {
	return `${date.toISOString().slice(0, 19)}Z`;
}

export function unixSeconds(date: Date): number {
	return Math.floor(date.getTime() / 1000);
}

export const SECOND_MS = 1000;
export const DAY_MS = 86_400_000;
