import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { SEARCH_MAX_LENGTH } from '../../helpers/validation';
import { apiScanItems } from '../../transport';
import { listCutShortApiError } from '../../transport/errors';

// The service has no e-mail lookup: GET /v1/leads?q= is a case-insensitive substring search over e-mail,
// name and company (docs/api-contract.md §4), so the node narrows with `q` and keeps the exact matches.

/** The one form e-mails are compared in: trimmed, lower case. */
export function emailKey(email: string): string {
	return email.trim().toLowerCase();
}

/**
 * The `q` that finds a lead with this e-mail: the e-mail itself, or its first 200 characters when it is
 * longer than `q` accepts (any part of it narrows the search; the exact match is made here).
 */
export function searchTextFor(email: string): string {
	return emailKey(email).slice(0, SEARCH_MAX_LENGTH);
}

/** Whether the lead's e-mail is `key` (an `emailKey`). */
export function hasEmail(lead: IDataObject, key: string): boolean {
	return typeof lead.email === 'string' && emailKey(lead.email) === key;
}

/**
 * The leads whose e-mail is exactly `email` (case and surrounding white space aside), most recently
 * created first, reading no further than `atMost` matches. A list cut short before `atMost` matches
 * fails the item: "no lead" would not be known.
 */
export async function leadsWithEmail(
	this: IExecuteFunctions,
	email: string,
	itemIndex: number,
	atMost: number,
): Promise<IDataObject[]> {
	const key = emailKey(email);
	const found: IDataObject[] = [];
	const end = await apiScanItems.call(
		this,
		'/v1/leads',
		{ q: searchTextFor(email), sort: 'created_at', order: 'desc' },
		(lead) => {
			if (hasEmail(lead, key)) found.push(lead);
			return found.length >= atMost ? 'stop' : 'continue';
		},
		{ itemIndex },
	);
	if (end === 'cut short') throw listCutShortApiError(this.getNode(), '/v1/leads', itemIndex);
	return found;
}
