import { MS_PER_DAY, MS_PER_MINUTE, type DayNumber } from './calendar';

/** A time zone: a fixed UTC offset or an IANA zone (whose offset may change, e.g. with daylight saving). */
export interface TimeZone {
	readonly name: string;
	/** Offset from UTC in minutes at the instant `ms` (+480 for UTC+8). */
	offsetAt(ms: number): number;
}

const OFFSET_PATTERN = /^([+-])(\d{2}):(\d{2})$/;
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * `±HH:MM` (minutes a multiple of 15, within -12:00..+14:00) or an IANA name known to Intl.
 * A leading space stands for `+`: an unencoded `+` in a query string arrives as a space.
 */
export function parseTimeZone(text: string): TimeZone | undefined {
	const value = text.startsWith(' ') ? `+${text.slice(1)}` : text;
	const match = OFFSET_PATTERN.exec(value);
	if (match) {
		const minutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
		if (Number(match[3]) % 15 !== 0 || minutes > MAX_OFFSET_MINUTES || minutes < -12 * 60)
			return undefined;
		return fixedOffset(value, minutes);
	}
	return ianaZone(value);
}

function fixedOffset(name: string, minutes: number): TimeZone {
	return { name, offsetAt: () => minutes };
}

const ianaCache = new Map<string, TimeZone>();

function ianaZone(name: string): TimeZone | undefined {
	if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return undefined;
	const cached = ianaCache.get(name);
	if (cached) return cached;
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: name,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
	} catch {
		return undefined;
	}
	const zone: TimeZone = {
		name,
		offsetAt(ms: number): number {
			const parts: Record<string, number> = {};
			for (const part of format.formatToParts(new Date(ms))) {
				if (part.type !== 'literal') parts[part.type] = Number(part.value);
			}
			const wall = Date.UTC(
				parts.year,
				parts.month - 1,
				parts.day,
				parts.hour,
				parts.minute,
				parts.second,
			);
			return Math.round((wall - Math.floor(ms / 1000) * 1000) / MS_PER_MINUTE);
		},
	};
	ianaCache.set(name, zone);
	return zone;
}

/** The local calendar day of the instant `ms`. */
export function dayOf(zone: TimeZone, ms: number): DayNumber {
	return Math.floor((ms + zone.offsetAt(ms) * MS_PER_MINUTE) / MS_PER_DAY);
}

const startCache = new Map<string, number>();

/** The instant (UTC ms) at which local day `day` begins; after a gap at midnight, the end of the gap. */
export function startOfDay(zone: TimeZone, day: DayNumber): number {
	const key = `${zone.name}|${day}`;
	const cached = startCache.get(key);
	if (cached !== undefined) return cached;
	const wall = day * MS_PER_DAY;
	const first = wall - zone.offsetAt(wall) * MS_PER_MINUTE;
	const second = wall - zone.offsetAt(first) * MS_PER_MINUTE;
	const candidates = [first, second].filter((ms) => dayOf(zone, ms) === day);
	const start = candidates.length ? Math.min(...candidates) : first;
	if (startCache.size > 100_000) startCache.clear();
	startCache.set(key, start);
	return start;
}
