import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, MAX_PAGE_SIZE } from '../ContentMarketing/transport';
import { readPage } from '../ContentMarketing/transport/paging';

/** What the visitor wants after one item. */
export type Next = 'continue' | 'stop';

/**
 * Walks a list endpoint page by page (docs/api-contract.md §4 keyset cursor), handing each item to `visit`, and
 * stops when it says so or the list ends. Only the current page is held here.
 */
export async function scanList(
	this: IPollFunctions,
	path: string,
	qs: IDataObject,
	visit: (item: IDataObject) => Next,
): Promise<void> {
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	do {
		const body: unknown = await apiRequest.call(this, 'GET', path, {
			qs: { ...qs, limit: MAX_PAGE_SIZE, ...(cursor !== undefined ? { cursor } : {}) },
		});
		const page = readPage<IDataObject>(body);
		for (const item of page.items) if (visit(item) === 'stop') return;
		cursor = page.next;
		// A service that repeats a cursor (or sends one with an empty page) would page forever.
		if (cursor !== undefined && (seenCursors.has(cursor) || page.items.length === 0)) return;
		if (cursor !== undefined) seenCursors.add(cursor);
	} while (cursor !== undefined);
}
