// Aggregates in quarter-hour cells: every real UTC offset is a whole number of quarter hours, so the cells
// add up exactly to local days in any time zone. Cells live in one block per UTC day, created on first write;
// each day's totals are also kept in one contiguous table, so whole days inside a range cost one read each.
export const MS_PER_QUARTER = 900_000;
export const QUARTERS_PER_DAY = 96;

export function quarterOf(ms: number): number {
	return Math.floor(ms / MS_PER_QUARTER);
}

/** The first quarter at or after the instant `ms`. */
export function quarterAtOrAfter(ms: number): number {
	return Math.ceil(ms / MS_PER_QUARTER);
}

type Cells = Float64Array | Uint32Array;

export class QuarterSeries {
	private readonly days = new Map<number, Cells>();
	private totals: Cells;
	private firstDay = 0;
	private dayCount = 0;

	/** `width` metrics per cell; `counts` stores unsigned 32-bit integers instead of doubles. */
	constructor(
		readonly width: number,
		private readonly counts = false,
	) {
		this.totals = this.cells(0);
	}

	add(quarter: number, metric: number, delta: number): void {
		const day = Math.floor(quarter / QUARTERS_PER_DAY);
		let block = this.days.get(day);
		if (!block) {
			block = this.cells(QUARTERS_PER_DAY * this.width);
			this.days.set(day, block);
			this.cover(day);
		}
		block[(quarter - day * QUARTERS_PER_DAY) * this.width + metric] += delta;
		this.totals[(day - this.firstDay) * this.width + metric] += delta;
	}

	/** Adds the sums of every metric over quarters [from, to) into `into`. */
	sumInto(from: number, to: number, into: Float64Array): void {
		if (to <= from || this.dayCount === 0) return;
		const width = this.width;
		const firstWhole = Math.ceil(from / QUARTERS_PER_DAY);
		const afterWhole = Math.floor(to / QUARTERS_PER_DAY);
		if (firstWhole > afterWhole) {
			this.sumCells(from, to, into); // within one day
			return;
		}
		this.sumCells(from, firstWhole * QUARTERS_PER_DAY, into);
		this.sumCells(afterWhole * QUARTERS_PER_DAY, to, into);
		const start = Math.max(firstWhole, this.firstDay) - this.firstDay;
		const end = Math.min(afterWhole, this.firstDay + this.dayCount) - this.firstDay;
		const totals = this.totals;
		for (let cell = start * width, last = end * width; cell < last; cell += width) {
			for (let metric = 0; metric < width; metric++) into[metric] += totals[cell + metric];
		}
	}

	/** Quarters [from, to) within one UTC day. */
	private sumCells(from: number, to: number, into: Float64Array): void {
		if (to <= from) return;
		const day = Math.floor(from / QUARTERS_PER_DAY);
		const block = this.days.get(day);
		if (!block) return;
		const width = this.width;
		const base = day * QUARTERS_PER_DAY;
		for (let cell = (from - base) * width, end = (to - base) * width; cell < end; cell += width) {
			for (let metric = 0; metric < width; metric++) into[metric] += block[cell + metric];
		}
	}

	/** Grows the table of day totals to include `day`. */
	private cover(day: number): void {
		if (this.dayCount > 0 && day >= this.firstDay && day < this.firstDay + this.dayCount) return;
		const first = this.dayCount === 0 ? day : Math.min(day, this.firstDay);
		const last = this.dayCount === 0 ? day : Math.max(day, this.firstDay + this.dayCount - 1);
		// Room to grow on both sides, so that advancing days do not copy the table every time.
		const slack = Math.max(32, last - first + 1);
		const grown = this.cells((last - first + 1 + 2 * slack) * this.width);
		if (this.dayCount > 0)
			grown.set(
				this.totals.subarray(0, this.dayCount * this.width),
				(this.firstDay - (first - slack)) * this.width,
			);
		this.firstDay = first - slack;
		this.dayCount = last - first + 1 + 2 * slack;
		this.totals = grown;
	}

	private cells(length: number): Cells {
		return this.counts ? new Uint32Array(length) : new Float64Array(length);
	}
}
