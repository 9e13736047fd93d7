import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { isObject } from '../helpers/values';
import type { ApiContext, ApiRequestOptions, CoreRequest } from './request';
import { send, sessionOf } from './request';

// What operations, triggers and editor methods call: one request, and the lists read page by page.
// The request's path through the package starts in request.ts.

export type { ApiContext, ApiRequestOptions } from './request';
export { CREDENTIAL_TYPE, normaliseBaseUrl } from './request';

/**
 * Awaits `waiting`, work of other items (a read they share, an earlier item, another execution's hold on
 * an e-mail), with this item's slot among the requests in flight given back meanwhile (concurrency.ts
 * `idleWhile`). Only from inside an item of the loop.
 */
export async function awaitOtherItems<T>(context: ApiContext, waiting: Promise<T>): Promise<T> {
	return await sessionOf(context).limit.idleWhile(waiting);
}

/** Page size used for Return All (docs/api-contract.md §4 maximum). */
export const MAX_PAGE_SIZE = 100;

export interface ApiRequestAllItemsOptions<T = IDataObject> {
	/** Maximum number of items; undefined returns all. */
	limit?: number;
	itemIndex?: number;
	/**
	 * Turns each item into what is kept (e.g. Simplify) as its page arrives, so the service's full items
	 * are garbage one page later instead of all held until the last page (50,000 leads held twice).
	 */
	map?: (item: IDataObject) => T;
}

/**
 * One request to the Content Marketing API, authenticated by the credential. Retries 429 (after Retry-After,
 * else with exponential backoff) for every request, and 5xx and broken connections for replayable requests
 * only. Errors become NodeApiErrors built from the service's answer alone.
 */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options?: ApiRequestOptions,
): Promise<T>;
// Listed last so that `apiRequest.call(...)`, which sees only the last signature, answers an IDataObject.
export async function apiRequest(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options?: ApiRequestOptions,
): Promise<IDataObject>;
export async function apiRequest<T>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	return await send.call<ApiContext, [CoreRequest], Promise<T>>(this, { ...options, method, path });
}

export interface Page<T> {
	items: T[];
	/** Cursor for the next page; undefined on the last page. */
	next?: string;
	/** The answer holds no list (not an object, or an object without one): nothing can be said about the list. */
	unreadable?: true;
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
	if (!isObject(body)) return { items: [], next: undefined, unreadable: true };
	const list = [body.data, body.items, body.results].find(Array.isArray) as T[] | undefined;
	if (list === undefined) return { items: [], next: undefined, unreadable: true };
	const next = cursorOf(body.next_cursor ?? body.next ?? body.cursor);
	if (body.has_more === false) return { items: list, next: undefined };
	return { items: list, next };
}

/** What a visitor of `apiScanItems` wants after one item. */
export type ScanNext = 'continue' | 'stop';

/**
 * How a scan ended: at the list's last page (`end`), because the visitor or the page size said stop
 * (`stopped`), or at an answer it cannot follow (`cut short`: a cursor it was given before, an empty
 * page that still has a cursor, a page without a list). A cut-short list is not the whole list.
 */
export type ScanEnd = 'end' | 'stopped' | 'cut short';

/**
 * Visits the items of a list endpoint page by page (docs/api-contract.md §4 keyset cursor), holding one
 * page at a time, until `visit` says stop or the list ends. Pages are read one after the other: a cursor
 * is only known from the page before. The only cursor loop of the package, and its loop guard.
 */
export async function apiScanItems(
	this: ApiContext,
	path: string,
	qs: IDataObject,
	visit: (item: IDataObject) => ScanNext,
	options: {
		itemIndex?: number;
		pageSize?: () => number;
		deadline?: number;
		/** Where to start: a cursor a visitor saw with `onPage` (undefined: the first page). */
		cursor?: string;
		/** Called after each page's items with the cursor of the next page (undefined after the last). */
		onPage?: (next: string | undefined) => void;
	} = {},
): Promise<ScanEnd> {
	const seenCursors = new Set<string>();
	let cursor = options.cursor;
	if (cursor !== undefined) seenCursors.add(cursor);
	do {
		const size = options.pageSize?.() ?? MAX_PAGE_SIZE;
		if (size <= 0) return 'stopped';
		const body: unknown = await apiRequest.call(this, 'GET', path, {
			qs: { ...qs, limit: size, ...(cursor !== undefined ? { cursor } : {}) },
			itemIndex: options.itemIndex,
			deadline: options.deadline,
		});
		const page = readPage<IDataObject>(body);
		if (page.unreadable) return 'cut short';
		for (const item of page.items) if (visit(item) === 'stop') return 'stopped';
		cursor = page.next;
		// A service that repeats a cursor (or sends one with an empty page) would page forever.
		if (cursor !== undefined && (seenCursors.has(cursor) || page.items.length === 0))
			return 'cut short';
		if (cursor !== undefined) seenCursors.add(cursor);
		options.onPage?.(cursor);
	} while (cursor !== undefined);
	return 'end';
}

/** All items of a list endpoint (or the first `limit`), following `next_cursor` with pages of up to 100, one page after the other. */
export async function apiRequestAllItems<T>(
	this: ApiContext,
	path: string,
	qs?: IDataObject,
	options?: ApiRequestAllItemsOptions<T>,
): Promise<T[]>;
// The last signature is the one `.call(this, ...)` sees: IDataObject items.
export async function apiRequestAllItems(
	this: ApiContext,
	path: string,
	qs?: IDataObject,
	options?: ApiRequestAllItemsOptions,
): Promise<IDataObject[]>;
export async function apiRequestAllItems<T>(
	this: ApiContext,
	path: string,
	qs: IDataObject = {},
	options: ApiRequestAllItemsOptions<T> = {},
): Promise<T[]> {
	const { limit, itemIndex, map } = options;
	const results: T[] = [];
	const pageSize = () =>
		limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - results.length);
	await apiScanItems.call(
		this,
		path,
		qs,
		(item) => {
			results.push(map ? map(item) : (item as T));
			return 'continue';
		},
		{ itemIndex, pageSize },
	);
	return limit === undefined ? results : results.slice(0, limit);
}
