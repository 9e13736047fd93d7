// The aggregate structures against brute force: random cells and ranges, in and out of time order.
import { DistinctCounter, VisitorEntries } from '../../sandbox/src/behaviour/distinct-visitors';
import { QuarterSeries, QUARTERS_PER_DAY } from '../../sandbox/src/behaviour/quarter-series';
import { Prng } from '../../sandbox/src/prng';

const BASE = 20_000 * QUARTERS_PER_DAY;
const SPAN = 40 * QUARTERS_PER_DAY;

describe('aggregates', () => {
	it('quarter series sums equal the sums of the raw cells for any range', () => {
		const random = new Prng(3);
		const series = new QuarterSeries(3);
		const raw: Array<[number, number, number]> = [];
		for (let i = 0; i < 3000; i++) {
			const cell: [number, number, number] = [
				BASE + random.int(0, SPAN),
				random.int(0, 2),
				random.int(1, 9),
			];
			raw.push(cell);
			series.add(...cell);
		}
		for (let i = 0; i < 300; i++) {
			const from = BASE + random.int(-200, SPAN + 200);
			const to = from + random.int(0, i % 3 === 0 ? 150 : SPAN);
			const sums = new Float64Array(3);
			series.sumInto(from, to, sums);
			const expected = [0, 0, 0];
			for (const [quarter, metric, delta] of raw)
				if (quarter >= from && quarter < to) expected[metric] += delta;
			expect([from, to, ...sums]).toEqual([from, to, ...expected]);
		}
	});

	it('distinct visitor marks equal a set of the visitors seen in any range', () => {
		const random = new Prng(5);
		const entries = new VisitorEntries();
		const counter = new DistinctCounter();
		const raw: Array<[number, number]> = [];
		for (let i = 0; i < 5000; i++) {
			const entry: [number, number] = [BASE + random.int(0, SPAN), random.int(0, 1500)];
			raw.push(entry);
			entries.add(...entry);
		}
		for (let i = 0; i < 200; i++) {
			const from = BASE + random.int(-100, SPAN);
			const to = from + random.int(0, SPAN / 2);
			counter.begin(1501);
			const counted = entries.mark(from, to, counter);
			const expected = new Set(
				raw.filter(([quarter]) => quarter >= from && quarter < to).map(([, visitor]) => visitor),
			);
			expect([from, to, counted]).toEqual([from, to, expected.size]);
		}
	});
});
