// Keyset paging (docs/api-contract.md §4): a cursor holds the sort field, order, sort value and id of the last item,
// so that inserts and deletes during paging never repeat or skip an item.
import { z } from 'zod';
import { ApiError } from './errors';
import { intQuery } from './validation';

export type SortValue = string | number | null;
export type Order = 'asc' | 'desc';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const pagingQuery = {
	limit: intQuery(1, MAX_PAGE_SIZE).optional(),
	cursor: z.string().min(1).max(2000).optional(),
};

export interface ListPage<T> {
	object: 'list';
	data: T[];
	has_more: boolean;
	next_cursor: string | null;
}

interface Cursor {
	s: string;
	o: Order;
	v: SortValue;
	id: string;
}

export interface PageRequest {
	sort: string;
	order: Order;
	limit?: number;
	cursor?: string;
}

function compareValues(a: SortValue, b: SortValue): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	return a < b ? -1 : 1;
}

/** The order of keyset paging, ascending: by sort value (null first), then by id. */
export function compareKeys(av: SortValue, aid: string, bv: SortValue, bid: string): number {
	return compareValues(av, bv) || compareValues(aid, bid);
}

function encodeCursor(cursor: Cursor): string {
	return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, sort: string, order: Order): Cursor {
	let parsed: unknown;
	try {
		parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
	} catch {
		throw ApiError.invalid('cursor', 'does not decode');
	}
	const shape = z
		.object({
			s: z.string(),
			o: z.enum(['asc', 'desc']),
			v: z.union([z.string(), z.number(), z.null()]),
			id: z.string(),
		})
		.strict()
		.safeParse(parsed);
	if (!shape.success) throw ApiError.invalid('cursor', 'does not decode');
	if (shape.data.s !== sort || shape.data.o !== order) {
		throw ApiError.invalid('cursor', `was made for sort=${shape.data.s}&order=${shape.data.o}`);
	}
	return shape.data;
}

/** One page of `items` ordered by `valueOf` then id; items equal to the cursor or before it are skipped. */
export function paginate<T extends { id: string }, V>(
	items: Iterable<T>,
	request: PageRequest,
	valueOf: (item: T) => SortValue,
	view: (item: T) => V,
): ListPage<V> {
	const limit = request.limit ?? DEFAULT_PAGE_SIZE;
	const direction = request.order === 'asc' ? 1 : -1;
	const compare = (av: SortValue, aid: string, bv: SortValue, bid: string): number =>
		direction * (compareValues(av, bv) || compareValues(aid, bid));
	const after =
		request.cursor === undefined
			? undefined
			: decodeCursor(request.cursor, request.sort, request.order);

	const candidates: Array<{ item: T; value: SortValue }> = [];
	for (const item of items) {
		const value = valueOf(item);
		if (after && compare(value, item.id, after.v, after.id) <= 0) continue;
		candidates.push({ item, value });
	}
	candidates.sort((a, b) => compare(a.value, a.item.id, b.value, b.item.id));

	const page = candidates.slice(0, limit);
	const hasMore = candidates.length > limit;
	const last = page[page.length - 1];
	return {
		object: 'list',
		data: page.map((entry) => view(entry.item)),
		has_more: hasMore,
		next_cursor:
			hasMore && last
				? encodeCursor({ s: request.sort, o: request.order, v: last.value, id: last.item.id })
				: null,
	};
}

/**
 * One page from entries already sorted ascending by (value, id) (see lead-order.ts): a binary search to
 * the cursor, then a scan in the requested order that stops after `limit + 1` matches. O(log n + page)
 * when `matches` accepts most entries.
 */
export function paginateSorted<T, V>(
	sorted: {
		entries: ReadonlyArray<{ value: SortValue; id: string; item: T; dead?: boolean }>;
		lowerBound(value: SortValue, id: string): number;
	},
	request: PageRequest,
	matches: (item: T) => boolean,
	view: (item: T) => V,
): ListPage<V> {
	const limit = request.limit ?? DEFAULT_PAGE_SIZE;
	const after =
		request.cursor === undefined
			? undefined
			: decodeCursor(request.cursor, request.sort, request.order);
	const { entries } = sorted;
	const ascending = request.order === 'asc';
	let position: number;
	if (after === undefined) position = ascending ? 0 : entries.length - 1;
	else {
		const bound = sorted.lowerBound(after.v, after.id);
		// Skip every entry equal to the cursor (a dead copy of the cursor's lead may sit beside the live one).
		let next = bound;
		while (
			next < entries.length &&
			compareKeys(entries[next].value, entries[next].id, after.v, after.id) === 0
		)
			next++;
		position = ascending ? next : bound - 1;
	}
	const step = ascending ? 1 : -1;
	const page: Array<{ value: SortValue; id: string; item: T }> = [];
	let hasMore = false;
	for (; position >= 0 && position < entries.length; position += step) {
		const entry = entries[position];
		if (entry.dead === true || !matches(entry.item)) continue;
		if (page.length === limit) {
			hasMore = true;
			break;
		}
		page.push(entry);
	}
	const last = page[page.length - 1];
	return {
		object: 'list',
		data: page.map((entry) => view(entry.item)),
		has_more: hasMore,
		next_cursor:
			hasMore && last
				? encodeCursor({ s: request.sort, o: request.order, v: last.value, id: last.id })
				: null,
	};
}
