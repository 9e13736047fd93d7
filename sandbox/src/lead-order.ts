// The leads of each account in the order of every sort field of GET /v1/leads (docs/api-contract.md §4, §5), kept up to
// date on each change, so that a page costs O(log n + page): a binary search to the cursor, then a scan.
import type { StoredLead } from './model';
import type { SortValue } from './paging';
import { compareKeys } from './paging';

export const LEAD_SORTS = ['created_at', 'updated_at', 'score', 'email', 'name'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export interface OrderEntry<T> {
	value: SortValue;
	id: string;
	item: T;
	/** Set when the item moved or left: the entry stays in place until the next merge and is skipped. */
	dead?: boolean;
}

/**
 * Entries ascending by (value, id). New entries wait in `pending` and are merged in on the next read
 * (a sort of the few new ones and one linear merge), so that n inserts never cost n array splices.
 */
export class SortedEntries<T> {
	private sorted: Array<OrderEntry<T>> = [];
	private pending: Array<OrderEntry<T>> = [];
	private readonly live = new Map<string, OrderEntry<T>>();
	private dead = 0;

	/** The sorted entries (dead ones included: skip them), after merging what was added since the last read. */
	get entries(): ReadonlyArray<OrderEntry<T>> {
		if (this.pending.length > 0 || this.dead > this.sorted.length / 4) this.merge();
		return this.sorted;
	}

	/** The first position whose entry is not before (value, id). */
	lowerBound(value: SortValue, id: string): number {
		const entries = this.entries;
		let low = 0;
		let high = entries.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const entry = entries[middle];
			if (compareKeys(entry.value, entry.id, value, id) < 0) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	insert(entry: OrderEntry<T>): void {
		this.remove(entry.id);
		this.live.set(entry.id, entry);
		this.pending.push(entry);
	}

	remove(id: string): void {
		const entry = this.live.get(id);
		if (entry === undefined) return;
		entry.dead = true;
		this.live.delete(id);
		this.dead++;
	}

	private merge(): void {
		const added = this.pending.filter((entry) => !entry.dead);
		added.sort((a, b) => compareKeys(a.value, a.id, b.value, b.id));
		const merged: Array<OrderEntry<T>> = [];
		let i = 0;
		let j = 0;
		const old = this.sorted;
		while (i < old.length || j < added.length) {
			if (i < old.length && old[i].dead) {
				i++;
				continue;
			}
			if (
				j >= added.length ||
				(i < old.length && compareKeys(old[i].value, old[i].id, added[j].value, added[j].id) < 0)
			) {
				merged.push(old[i++]);
			} else merged.push(added[j++]);
		}
		this.sorted = merged;
		this.pending = [];
		this.dead = 0;
	}
}

export class LeadOrder {
	private readonly byAccount = new Map<string, Map<LeadSort, SortedEntries<StoredLead>>>();

	private indexes(accountId: string): Map<LeadSort, SortedEntries<StoredLead>> {
		let indexes = this.byAccount.get(accountId);
		if (indexes === undefined) {
			indexes = new Map(LEAD_SORTS.map((sort) => [sort, new SortedEntries<StoredLead>()]));
			this.byAccount.set(accountId, indexes);
		}
		return indexes;
	}

	add(lead: StoredLead): void {
		for (const [sort, index] of this.indexes(lead.account_id))
			index.insert({ value: lead[sort], id: lead.id, item: lead });
	}

	/** Runs `change` on the lead and moves it to its new places. Every change of a sort field goes through here. */
	update(lead: StoredLead, change: () => void): void {
		const indexes = this.indexes(lead.account_id);
		change();
		for (const [sort, index] of indexes)
			index.insert({ value: lead[sort], id: lead.id, item: lead });
	}

	/** The account's leads ascending by `sort`, then id. */
	sorted(accountId: string, sort: LeadSort): SortedEntries<StoredLead> {
		return this.indexes(accountId).get(sort) as SortedEntries<StoredLead>;
	}

	clear(): void {
		this.byAccount.clear();
	}
}
