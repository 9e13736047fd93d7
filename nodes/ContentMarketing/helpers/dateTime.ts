import type { NodeContext } from './itemErrors';
import { unexpectedValue } from './itemErrors';

// A point in time from a date-time parameter: the editor's date picker gives local wall time without an
// offset ("2026-11-24T09:00:00"), expressions may give ISO text with one, a Luxon DateTime ($now) or a Date.
// Wall time is read in the workflow's time zone, as n8n's own nodes read it.

interface DateTimeLike {
	isValid?: boolean;
	toMillis(): number;
}

function isDateTimeLike(value: unknown): value is DateTimeLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as DateTimeLike).toMillis === 'function'
	);
}

const WALL_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Milliseconds the zone is ahead of UTC at the instant `utc` (ms). */
function zoneOffset(zone: string, utc: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utc));
	const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
	const wall = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return wall - (utc - (((utc % 1000) + 1000) % 1000));
}

/** The UTC instant of wall time `wall` (its fields read as UTC) in `zone`; a skipped hour moves forward. */
function fromWallTime(wall: number, zone: string): number {
	const guess = wall - zoneOffset(zone, wall);
	return wall - zoneOffset(zone, guess);
}

function offsetMs(text: string): number {
	if (text.toUpperCase() === 'Z') return 0;
	const digits = text.replace(':', '');
	const sign = digits.startsWith('-') ? -1 : 1;
	return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * 60_000;
}

/**
 * The instant (ms since the epoch) of a date-time parameter; text without an offset (and a date alone, its
 * midnight) is wall time in `zone`. Anything else is refused naming the field and the item.
 */
export function readInstant(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	zone: string,
): number {
	const refuse = () =>
		unexpectedValue.call(
			this,
			field,
			'a date and time like 2026-11-24T09:00:00 (the workflow time zone) or 2026-11-24T09:00:00+08:00',
			value,
			itemIndex,
		);
	if (isDateTimeLike(value)) {
		const millis = value.isValid === false ? NaN : value.toMillis();
		if (!Number.isFinite(millis)) throw refuse();
		return millis;
	}
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime())) throw refuse();
		return value.getTime();
	}
	if (typeof value !== 'string') throw refuse();
	const match = WALL_TIME.exec(value.trim());
	if (!match) throw refuse();
	const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0', offset] =
		match;
	const wall = Date.UTC(
		Number(year),
		Number(month) - 1,
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
		Number(fraction.padEnd(3, '0').slice(0, 3)),
	);
	const date = new Date(wall);
	if (
		date.getUTCFullYear() !== Number(year) ||
		date.getUTCMonth() !== Number(month) - 1 ||
		date.getUTCDate() !== Number(day) ||
		date.getUTCHours() !== Number(hour) ||
		date.getUTCMinutes() !== Number(minute) ||
		date.getUTCSeconds() !== Number(second)
	)
		throw refuse();
	if (offset !== undefined) return wall - offsetMs(offset);
	try {
		return fromWallTime(wall, zone);
	} catch {
		// An unknown zone name in the workflow settings: UTC rather than no answer.
		return wall;
	}
}
