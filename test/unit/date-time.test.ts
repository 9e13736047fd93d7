// A date-time parameter as an instant (helpers/dateTime.ts): wall time in the workflow's zone, across
// daylight-saving changes; offsets and Luxon-like values as given; anything else refused.
import type { INode } from 'n8n-workflow';

import { readInstant } from '../../dist/nodes/ContentMarketing/helpers/dateTime';

const context = { getNode: () => ({ name: 'Content Marketing' }) as INode };
const read = (value: unknown, zone = 'UTC') =>
	new Date(readInstant.call(context, value, 'Created Since', 0, zone)).toISOString();

test('wall time is read in the zone, a date alone at its midnight', () => {
	expect(read('2026-11-24T09:00:00', 'Asia/Shanghai')).toBe('2026-11-24T01:00:00.000Z');
	expect(read('2026-11-24 09:00', 'America/New_York')).toBe('2026-11-24T14:00:00.000Z');
	expect(read('2026-11-24', 'Asia/Kolkata')).toBe('2026-11-23T18:30:00.000Z');
	expect(read('2026-07-01T12:00:00.250', 'Europe/Berlin')).toBe('2026-07-01T10:00:00.250Z');
});

test('daylight saving: a skipped hour moves forward, a repeated one is its later instance', () => {
	expect(read('2026-03-29T02:30:00', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
	expect(read('2026-10-25T02:30:00', 'Europe/Berlin')).toBe('2026-10-25T01:30:00.000Z');
});

test('an offset or a Luxon-like value is an instant whatever the zone', () => {
	expect(read('2026-11-24T09:00:00+08:00', 'America/New_York')).toBe('2026-11-24T01:00:00.000Z');
	expect(read('2026-11-24T09:00:00Z', 'Asia/Tokyo')).toBe('2026-11-24T09:00:00.000Z');
	expect(read('2026-11-24T09:00:00-0530', 'UTC')).toBe('2026-11-24T14:30:00.000Z');
	const instant = Date.UTC(2026, 10, 24, 1);
	expect(read({ toMillis: () => instant }, 'Asia/Tokyo')).toBe('2026-11-24T01:00:00.000Z');
	expect(read(new Date(instant), 'Asia/Tokyo')).toBe('2026-11-24T01:00:00.000Z');
});

test.each([['yesterday'], ['2026-02-30'], ['2026-11-24T25:00:00'], [1764000000000], [{}], [null]])(
	'%j is refused naming the field and the item',
	(value) => {
		expect(() => read(value)).toThrow(
			/^Created Since: expected a date and time like .* \[item 0\]$/,
		);
	},
);
