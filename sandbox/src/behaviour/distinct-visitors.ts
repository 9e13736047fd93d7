// Exact distinct-visitor counts over any quarter range. Each series keeps its (quarter, visitor) page-view
// entries in two parallel arrays ordered by quarter, so a range is one binary search and one contiguous scan;
// a count sets one bit per visitor, which keeps the marks small enough to stay in cache.

/** Per-account visitor bits: `begin()` starts a new count, `VisitorEntries.mark` adds to it. */
export class DistinctCounter {
	bits = new Uint32Array(64);

	begin(visitorCount: number): void {
		const words = (visitorCount >>> 5) + 1;
		if (words > this.bits.length)
			this.bits = new Uint32Array(Math.max(words, this.bits.length * 2));
		else this.bits.fill(0, 0, words);
	}
}

export class VisitorEntries {
	private quarters = new Int32Array(8);
	private visitors = new Uint32Array(8);
	private length = 0;
	/** False after an entry older than the last one arrived (simulated history); sorted again before a read. */
	private ordered = true;

	add(quarter: number, visitor: number): void {
		if (this.length === this.quarters.length) {
			const quarters = new Int32Array(this.length * 2);
			const visitors = new Uint32Array(this.length * 2);
			quarters.set(this.quarters);
			visitors.set(this.visitors);
			this.quarters = quarters;
			this.visitors = visitors;
		}
		if (this.length > 0 && quarter < this.quarters[this.length - 1]) this.ordered = false;
		this.quarters[this.length] = quarter;
		this.visitors[this.length] = visitor;
		this.length++;
	}

	/** Marks the visitors seen in quarters [from, to) in the counter; returns how many were not marked yet. */
	mark(from: number, to: number, counter: DistinctCounter): number {
		if (to <= from || this.length === 0) return 0;
		if (!this.ordered) this.sort();
		const bits = counter.bits;
		const visitors = this.visitors;
		const end = this.firstAtOrAfter(to);
		let added = 0;
		for (let i = this.firstAtOrAfter(from); i < end; i++) {
			const visitor = visitors[i];
			const word = visitor >>> 5;
			const bit = 1 << (visitor & 31);
			if ((bits[word] & bit) === 0) {
				bits[word] |= bit;
				added++;
			}
		}
		return added;
	}

	private firstAtOrAfter(quarter: number): number {
		let low = 0;
		let high = this.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.quarters[middle] < quarter) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	private sort(): void {
		const order = new Uint32Array(this.length).map((_, index) => index);
		order.sort((a, b) => this.quarters[a] - this.quarters[b]);
		const quarters = new Int32Array(this.quarters.length);
		const visitors = new Uint32Array(this.visitors.length);
		order.forEach((from, to) => {
			quarters[to] = this.quarters[from];
			visitors[to] = this.visitors[from];
		});
		this.quarters = quarters;
		this.visitors = visitors;
		this.ordered = true;
	}
}
