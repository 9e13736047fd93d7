import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	collectionLabels,
	readLimit,
	readSortOptions,
	returnAllOrLimit,
	sortOptions,
} from '../common.descriptions';
import { readFilterCollection } from '../../helpers/collections';
import { forEachItem } from '../itemLoop';
import {
	assertEnum,
	assertMaxLength,
	assertSearchText,
	assertText,
} from '../../helpers/validation';
import { RESOURCE_SORT_FIELDS, RESOURCE_STATUSES, RESOURCE_TYPES } from '../../helpers/vocabulary';
import { apiRequestAllItems } from '../../transport';
import { LIMITS, RESOURCE_TYPE_OPTIONS } from './constants';
import type { OperationExample } from '../types';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Search',
				name: 'q',
				type: 'string',
				default: '',
				placeholder: 'e.g. report',
				description: 'Resources whose title contains this text (not case-sensitive)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Archived', value: 'archived' },
					{ name: 'Draft', value: 'draft' },
					{ name: 'Published', value: 'published' },
				],
				default: 'published',
			},
			{
				displayName: 'Tag',
				name: 'tag',
				type: 'string',
				default: '',
				placeholder: 'e.g. report',
				description: 'Resources that have this tag',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: RESOURCE_TYPE_OPTIONS,
				default: 'article',
			},
		],
	},
	sortOptions(
		[
			{ name: 'Created At', value: 'created_at' },
			{ name: 'Title', value: 'title' },
			{ name: 'Updated At', value: 'updated_at' },
		],
		'created_at',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contentResource'], operation: ['getAll'] } },
	properties,
);

const FILTER_NAMES = collectionLabels(properties, 'filters');

/**
 * The query of GET /v1/resources (docs/api-contract.md §4) from the Filters and Options collections,
 * validated; a filter left empty in the editor is not set (`readFilterCollection`).
 */
function readQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readFilterCollection.call(this, 'filters', FILTER_NAMES, itemIndex);
	const qs: IDataObject = readSortOptions.call(this, itemIndex, RESOURCE_SORT_FIELDS);
	for (const [key, value] of Object.entries(filters)) {
		if (!(key in FILTER_NAMES)) qs[key] = typeof value === 'string' ? value.trim() : value;
	}
	if (filters.q !== undefined)
		qs.q = assertSearchText.call(this, filters.q, FILTER_NAMES.q, itemIndex);
	if (filters.tag !== undefined) {
		const tag = assertText.call(this, filters.tag, FILTER_NAMES.tag, itemIndex);
		qs.tag = assertMaxLength.call(this, tag, LIMITS.tag, FILTER_NAMES.tag, itemIndex);
	}
	if (filters.status !== undefined) {
		qs.status = assertEnum.call(
			this,
			filters.status,
			RESOURCE_STATUSES,
			FILTER_NAMES.status,
			itemIndex,
		);
	}
	if (filters.type !== undefined) {
		qs.type = assertEnum.call(this, filters.type, RESOURCE_TYPES, FILTER_NAMES.type, itemIndex);
	}
	return qs;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = readQuery.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		return await apiRequestAllItems.call(this, '/v1/resources', qs, { limit, itemIndex });
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ limit: 20 }),
};
