// Pure helpers under the analytics: local day boundaries (with daylight saving) and percentage strings.
import { parseDate } from '../../sandbox/src/behaviour/calendar';
import { percent, trend } from '../../sandbox/src/behaviour/percent';
import { parseTimeZone, startOfDay, type TimeZone } from '../../sandbox/src/behaviour/time-zone';

const zone = (name: string): TimeZone => {
	const parsed = parseTimeZone(name);
	if (!parsed) throw new Error(`unknown zone ${name}`);
	return parsed;
};
const start = (name: string, date: string) =>
	new Date(startOfDay(zone(name), parseDate(date) as number)).toISOString();

describe('time zones', () => {
	it('accepts IANA names and quarter-hour offsets from -12:00 to +14:00', () => {
		// Offsets in January 2026 (no daylight saving in St. John's then).
		const january = Date.parse('2026-01-15T12:00:00Z');
		for (const [name, minutes] of [
			['Asia/Shanghai', 480],
			['UTC', 0],
			['America/St_Johns', -210],
			['+05:45', 345],
			['-03:30', -210],
			['+14:00', 840],
			['-12:00', -720],
			[' 08:00', 480],
		] as const) {
			expect(parseTimeZone(name)?.offsetAt(january)).toBe(minutes);
		}
		for (const name of [
			'Mars/Olympus',
			'+08:10',
			'+14:15',
			'-12:30',
			'8',
			'constructor',
			'+8:00',
			'',
		]) {
			expect(parseTimeZone(name)).toBeUndefined();
		}
		expect(zone(' 08:00').offsetAt(0)).toBe(480);
	});

	it('finds local midnight across daylight saving changes', () => {
		expect(start('America/New_York', '2026-03-08')).toBe('2026-03-08T05:00:00.000Z');
		expect(start('America/New_York', '2026-03-09')).toBe('2026-03-09T04:00:00.000Z');
		// Santiago skips 00:00-01:00 on 2026-09-06: that day begins at 01:00 local (-03:00).
		expect(start('America/Santiago', '2026-09-06')).toBe('2026-09-06T04:00:00.000Z');
		expect(start('Asia/Kathmandu', '2026-01-01')).toBe('2025-12-31T18:15:00.000Z');
		expect(start('-03:30', '2026-01-01')).toBe('2026-01-01T03:30:00.000Z');
	});
});

describe('percentages', () => {
	it('render two decimals, rounded half away from zero', () => {
		expect([
			percent(1, 3),
			percent(2, 3),
			percent(1, 8),
			percent(0, 0),
			percent(5, 5),
			percent(1, 200_000),
		]).toEqual(['33.33%', '66.67%', '12.50%', '0.00%', '100.00%', '0.00%']);
	});

	it('render signed trends, +100.00% from nothing and +0.00% from nothing to nothing', () => {
		expect([
			trend(3, 2),
			trend(1, 3),
			trend(2, 3),
			trend(0, 0),
			trend(5, 0),
			trend(4, 4),
			trend(0, 7),
		]).toEqual(['+50.00%', '-66.67%', '-33.33%', '+0.00%', '+100.00%', '+0.00%', '-100.00%']);
	});
});
