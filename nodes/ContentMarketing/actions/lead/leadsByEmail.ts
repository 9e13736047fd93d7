import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withItem } from '../../helpers/itemErrors';
import { assertEmail, SEARCH_MAX_LENGTH } from '../../helpers/validation';
import { isObject } from '../../helpers/values';
import { getLocatorId } from '../locator';
import { apiScanItems } from '../../transport';

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
 * created first, reading no further than `atMost` matches.
 */
export async function leadsWithEmail(
	this: IExecuteFunctions,
	email: string,
	itemIndex: number,
	atMost: number,
): Promise<IDataObject[]> {
	const key = emailKey(email);
	const found: IDataObject[] = [];
	await apiScanItems.call(
		this,
		'/v1/leads',
		{ q: searchTextFor(email), sort: 'created_at', order: 'desc' },
		(lead) => {
			if (hasEmail(lead, key)) found.push(lead);
			return found.length >= atMost ? 'stop' : 'continue';
		},
		{ itemIndex },
	);
	return found;
}

/** Leads listed in the error for an e-mail several leads have. */
const SHOWN_DUPLICATES = 5;

/**
 * The lead ID of the `leadId` locator (fields.ts `leadLocatorWithEmail`): By Email looks the lead up
 * (exactly one lead must have the e-mail), the other modes are read as `getLocatorId` reads them.
 */
export async function resolveLeadId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
	const locator = this.getNodeParameter('leadId', itemIndex, '') as unknown;
	if (!isObject(locator) || locator.mode !== 'email')
		return getLocatorId.call(this, 'leadId', itemIndex, 'lead', 'Lead');
	const email = assertEmail.call(this, locator.value, 'Lead', itemIndex);
	const leads = await leadsWithEmail.call(this, email, itemIndex, SHOWN_DUPLICATES);
	if (leads.length === 1) return String(leads[0].id);
	const node = this.getNode();
	if (leads.length === 0) {
		throw new NodeOperationError(
			node,
			withItem(`Lead: no lead has the e-mail "${email}"`, itemIndex),
			{
				itemIndex,
				description:
					'The e-mail is compared exactly (case aside). Create the lead first (Lead › Create or Update), or pick it from the list or by ID.',
			},
		);
	}
	const count =
		leads.length >= SHOWN_DUPLICATES ? `${SHOWN_DUPLICATES} or more` : String(leads.length);
	throw new NodeOperationError(
		node,
		withItem(`Lead: ${count} leads have the e-mail "${email}"`, itemIndex),
		{
			itemIndex,
			description: `The service keeps leads with the same e-mail apart; pick one by ID: ${leads.map((lead) => String(lead.id)).join(', ')} (most recently created first).`,
		},
	);
}
