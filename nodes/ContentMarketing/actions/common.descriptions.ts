import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { readFilterCollection } from '../helpers/collections';
import { assertEnum } from '../helpers/validation';
import { readBoolean, readInteger } from '../helpers/values';
import { SORT_ORDERS } from '../helpers/vocabulary';

/**
 * What errors call the fields of the collection `collection` (helpers/itemErrors.ts): each field's
 * display name, without the " Name or ID" n8n asks of a field with a choice list. Read from the
 * description, so a label is written once.
 */
export function collectionLabels(
	properties: readonly INodeProperties[],
	collection: string,
): Record<string, string> {
	const fields = properties.find((property) => property.name === collection)?.options ?? [];
	return Object.fromEntries(
		fields
			.filter((field): field is INodeProperties => 'displayName' in field && 'type' in field)
			.map((field) => [field.name, field.displayName.replace(/ Name or ID$/, '')]),
	);
}

/** The Return All switch and the Limit it hides, of a list operation; read them with `readLimit`. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/** The item limit set with `returnAllOrLimit`: undefined for Return All, otherwise the validated Limit. */
export function readLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	if (
		readBoolean.call(
			this,
			this.getNodeParameter('returnAll', itemIndex, false),
			'Return All',
			itemIndex,
		)
	)
		return undefined;
	return readInteger.call(this, this.getNodeParameter('limit', itemIndex, 50), 'Limit', itemIndex, {
		min: 1,
	});
}

/** The "Options" collection of a list operation: Sort By one of `sortBy` (default `defaultSortBy`) and Sort Order. */
export function sortOptions(
	sortBy: INodePropertyOptions[],
	defaultSortBy: string,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Sort By',
				name: 'sort',
				type: 'options',
				options: sortBy,
				default: defaultSortBy,
			},
			{
				displayName: 'Sort Order',
				name: 'order',
				type: 'options',
				options: [
					{ name: 'Ascending', value: 'asc' },
					{ name: 'Descending', value: 'desc' },
				],
				default: 'desc',
			},
		],
	};
}

const SORT_OPTION_NAMES = collectionLabels([sortOptions([], '')], 'options');

/**
 * The `sort` and `order` query of the Options collection made by `sortOptions`, validated; an option
 * left empty in the editor is not set (`readFilterCollection`).
 */
export function readSortOptions(
	this: IExecuteFunctions,
	itemIndex: number,
	sortFields: readonly string[],
): IDataObject {
	const options = readFilterCollection.call(
		this,
		'options',
		SORT_OPTION_NAMES,
		itemIndex,
		'option',
	);
	const qs: IDataObject = {};
	if (options.sort !== undefined) {
		qs.sort = assertEnum.call(this, options.sort, sortFields, SORT_OPTION_NAMES.sort, itemIndex);
	}
	if (options.order !== undefined) {
		qs.order = assertEnum.call(
			this,
			options.order,
			SORT_ORDERS,
			SORT_OPTION_NAMES.order,
			itemIndex,
		);
	}
	return qs;
}

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** The Simplify switch as set (see `simplifyField`); a value that is not a boolean is refused. */
export function readSimplify(this: IExecuteFunctions, itemIndex: number): boolean {
	return readBoolean.call(
		this,
		this.getNodeParameter('simplify', itemIndex, true),
		'Simplify',
		itemIndex,
	);
}

/** Options for every value of a vocabulary, from its labels (a Record, so none is missing), sorted by name. */
export function labelledOptions<T extends string>(
	labels: Record<T, string>,
): INodePropertyOptions[] {
	return (Object.entries(labels) as Array<[T, string]>)
		.map(([value, name]) => ({ name, value }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
