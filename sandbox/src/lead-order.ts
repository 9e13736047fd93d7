// The leads of each account in the order of every sort field of GET /v1/leads (contract §4, §5), kept up to
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
}

/** Entries ascending by (value, id). */
export class SortedEntries<T> {
	readonly entries: Array<OrderEntry<T>> = [];

	/** The first position whose entry is not before (value, id). */
	lowerBound(value: SortValue, id: string): number {
		let low = 0;
		let high = this.entries.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			const entry = this.entries[middle];
			if (compareKeys(entry.value, entry.id, value, id) < 0) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	insert(entry: OrderEntry<T>): void {
		this.entries.splice(this.lowerBound(entry.value, entry.id), 0, entry);
	}

	remove(value: SortValue, id: string): void {
		const at = this.lowerBound(value, id);
		if (this.entries[at]?.id === id) this.entries.splice(at, 1);
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
		for (const [sort, index] of this.indexes(lead.account_id)) index.insert({ value: lead[sort], id: lead.id, item: lead });
	}

	/** Runs `change` on the lead and moves it to its new places. Every change of a sort field goes through here. */
	update(lead: StoredLead, change: () => void): void {
		const indexes = this.indexes(lead.account_id);
		for (const [sort, index] of indexes) index.remove(lead[sort], lead.id);
		change();
		for (const [sort, index] of indexes) index.insert({ value: lead[sort], id: lead.id, item: lead });
	}

	/** The account's leads ascending by `sort`, then id. */
	sorted(accountId: string, sort: LeadSort): SortedEntries<StoredLead> {
		return this.indexes(accountId).get(sort) as SortedEntries<StoredLead>;
	}

	clear(): void {
		this.byAccount.clear();
	}
}
