import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withItem } from '../../helpers/itemErrors';
import { assertEmail } from '../../helpers/validation';
import { isObject } from '../../helpers/values';
import { getLocatorId } from '../locator';
import type { WantedEmail } from './emailDirectory';
import { EmailDirectory } from './emailDirectory';
import { emailKey } from './leadsByEmail';

/** Leads listed in the error for an e-mail several leads have. */
const SHOWN_DUPLICATES = 5;

/** The e-mail look-ups of one execution, shared by its items (EmailDirectory). */
const directories = new WeakMap<IExecuteFunctions, EmailDirectory>();

/**
 * The look-ups for every item's By Email lead, made for the whole input at the first item that needs one:
 * many items share one pass over the account's leads when that is cheaper. Items whose value is no
 * e-mail are left out here (their own item reports it).
 */
function directoryOf(context: IExecuteFunctions): EmailDirectory {
	let directory = directories.get(context);
	if (directory !== undefined) return directory;
	const wanted = new Map<string, WantedEmail>();
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		let locator: unknown;
		try {
			locator = context.getNodeParameter('leadId', itemIndex, '');
		} catch {
			continue; // the item reports its own expression error
		}
		if (!isObject(locator) || locator.mode !== 'email' || typeof locator.value !== 'string')
			continue;
		const key = emailKey(locator.value);
		if (key === '' || !key.includes('@')) continue;
		// Each item with the e-mail asks for it: its matches are let go after the last one.
		const known = wanted.get(key);
		if (known !== undefined) known.uses = (known.uses ?? 1) + 1;
		else wanted.set(key, { email: locator.value.trim(), itemIndex, uses: 1 });
	}
	// Only the ID of a match is kept: what the error for several leads lists.
	directory = new EmailDirectory(context, wanted, {
		atMost: SHOWN_DUPLICATES,
		keep: (lead) => ({ id: lead.id }),
	});
	directories.set(context, directory);
	return directory;
}

/** Runs an operation's item loop, then ends its By Email pass, if any (an item's error may stop the loop early). */
export async function withLeadLookups<T>(
	context: IExecuteFunctions,
	run: () => Promise<T>,
): Promise<T> {
	try {
		return await run();
	} finally {
		directories.get(context)?.close();
	}
}

/**
 * The lead ID of the `leadId` locator (fields.ts `leadLocatorWithEmail`): By Email looks the lead up
 * (exactly one lead must have the e-mail), the other modes are read as `getLocatorId` reads them.
 */
export async function resolveLeadId(this: IExecuteFunctions, itemIndex: number): Promise<string> {
	const locator = this.getNodeParameter('leadId', itemIndex, '') as unknown;
	if (!isObject(locator) || locator.mode !== 'email')
		return getLocatorId.call(this, 'leadId', itemIndex, 'lead', 'Lead');
	const email = assertEmail.call(this, locator.value, 'Lead', itemIndex);
	const leads = await directoryOf(this).find(email, itemIndex);
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
