import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLimit, returnAllOrLimit, sortOptions } from '../../helpers/descriptions';
import { forEachItem } from '../../helpers/items';
import { assertEnum, assertMaxLength } from '../../helpers/validation';
import { apiRequestAllItems } from '../../transport';
import { LIMITS, RESOURCE_STATUSES, RESOURCE_TYPE_OPTIONS, RESOURCE_TYPES } from './constants';

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

const FILTER_NAMES: Record<string, string> = { q: 'Search', status: 'Status', tag: 'Tag', type: 'Type' };

function readQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const [key, value] of Object.entries(filters)) {
		const text = typeof value === 'string' ? value.trim() : value;
		if (text === '' || text === undefined || text === null) continue;
		qs[key] = text;
	}
	if (typeof qs.q === 'string') assertMaxLength.call(this, qs.q, 200, FILTER_NAMES.q, itemIndex);
	if (typeof qs.tag === 'string') assertMaxLength.call(this, qs.tag, LIMITS.tag, FILTER_NAMES.tag, itemIndex);
	if (qs.status !== undefined) assertEnum.call(this, qs.status, RESOURCE_STATUSES, FILTER_NAMES.status, itemIndex);
	if (qs.type !== undefined) assertEnum.call(this, qs.type, RESOURCE_TYPES, FILTER_NAMES.type, itemIndex);
	if (options.sort) qs.sort = options.sort;
	if (options.order) qs.order = options.order;
	return qs;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = readQuery.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		return (await apiRequestAllItems.call(this, '/v1/resources', qs, { limit, itemIndex })) as IDataObject[];
	});
}
