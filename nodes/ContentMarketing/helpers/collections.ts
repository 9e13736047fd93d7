import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { CollectionEntryKind } from './validation';
import { assertCollectionFilled } from './validation';
import { isBlank, isObject, readCollection } from './values';

/**
 * Left empty in the editor: no value typed or chosen (a field at its default '', a cleared number, a
 * locator with nothing chosen, an expression field with nothing in it). An expression with content is
 * not: what it gives is known only per item.
 */
function leftEmpty(raw: unknown): boolean {
	const inner = isObject(raw) && 'value' in raw ? raw.value : raw;
	return isBlank(typeof inner === 'string' ? inner.replace(/^=/, '') : inner);
}

/**
 * A Filters or Options collection of one item, as the operation applies it. An entry the user added and
 * left empty in the editor counts as not set, as in n8n's own nodes (Mailchimp's Get Many options:
 * `if (options.sinceLastChanged)`); n8n's parameter issues cannot mark it before the run, since they read a
 * collection's `required` options at the node's top level. An entry whose expression gives nothing for
 * this item is refused, naming the field and the item: dropping it would silently widen that item's
 * request.
 */
export function readFilterCollection(
	this: IExecuteFunctions,
	name: string,
	labels: Record<string, string>,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): IDataObject {
	const collection = readCollection.call(this, name, itemIndex) as unknown;
	if (!isObject(collection)) return {};
	const raw = this.getNodeParameter(name, itemIndex, {}, { rawExpressions: true }) as unknown;
	const set = Object.fromEntries(
		Object.entries(collection).filter(
			([key]) => !(isObject(raw) && key in raw && leftEmpty(raw[key])),
		),
	);
	assertCollectionFilled.call(this, set, labels, itemIndex, kind);
	return set;
}
