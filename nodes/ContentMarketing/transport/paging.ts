import { isObject } from '../helpers/values';

export interface Page<T> {
	items: T[];
	/** Cursor for the next page; undefined on the last page. */
	next?: string;
}

/** A `next` that is a whole URL carries the cursor as a query parameter. */
function cursorOf(value: unknown): string | undefined {
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string' || value === '') return undefined;
	if (!/^https?:\/\//i.test(value)) return value;
	try {
		return new URL(value).searchParams.get('cursor') ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * One page of a list answer: the docs/api-contract.md §4 envelope `{ data, has_more, next_cursor }`, and the tolerated forms
 * (a bare array as one complete page, `items`/`results` for `data`, `next`/`cursor` for `next_cursor`).
 */
export function readPage<T>(body: unknown): Page<T> {
	if (Array.isArray(body)) return { items: body as T[] };
	if (!isObject(body)) return { items: [] };
	const list = [body.data, body.items, body.results].find(Array.isArray) as T[] | undefined;
	const next = cursorOf(body.next_cursor ?? body.next ?? body.cursor);
	if (body.has_more === false) return { items: list ?? [], next: undefined };
	return { items: list ?? [], next };
}
