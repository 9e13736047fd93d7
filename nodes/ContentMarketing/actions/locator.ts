import type { IExecuteFunctions } from 'n8n-workflow';

import { describeValue, invalidField } from '../helpers/itemErrors';
import type { IdPrefix } from '../helpers/validation';
import { assertId } from '../helpers/validation';
import { isObject } from '../helpers/values';

/** A locator mode that extracts the ID from a URL (its `extractValue`), described for the error message. */
export interface UrlMode {
	/** What the URL mode expects, e.g. "the public link of a resource like https://.../c/res_...". */
	expected: string;
}

/**
 * The ID chosen in a resource locator parameter (From List, By ID or By URL), validated against its prefix.
 * n8n extracts the ID of the URL mode with the mode's own `extractValue`; a URL it cannot extract from is
 * reported in our wording. A plain string value (e.g. set by an AI agent or an older workflow) is read as an ID.
 */
export function getLocatorId(
	this: IExecuteFunctions,
	parameter: string,
	itemIndex: number,
	prefix: IdPrefix,
	field: string,
	urlMode?: UrlMode,
): string {
	const read = () =>
		this.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as unknown;
	if (urlMode === undefined) return assertId.call(this, read(), prefix, field, itemIndex);
	// Read once as given, so that an expression error surfaces as n8n reports it.
	const given = this.getNodeParameter(parameter, itemIndex, '') as unknown;
	let id: unknown;
	try {
		id = read();
	} catch {
		const value = isObject(given) ? given.value : given;
		throw invalidField.call(
			this,
			field,
			`expected ${urlMode.expected}, got ${describeValue(value)}`,
			itemIndex,
		);
	}
	return assertId.call(this, id, prefix, field, itemIndex);
}
