import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { assertEnum, assertInteger, assertMaxLength } from '../../helpers/validation';
import { apiRequestAllItems } from '../../transport';
import { LIMITS, RESOURCE_STATUSES, RESOURCE_TYPE_OPTIONS, RESOURCE_TYPES } from './constants';

const properties: INodeProperties[] = [
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
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
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
	{
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
				options: [
					{ name: 'Created At', value: 'created_at' },
					{ name: 'Title', value: 'title' },
					{ name: 'Updated At', value: 'updated_at' },
				],
				default: 'created_at',
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
	},
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
		const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
		const limit = returnAll
			? undefined
			: assertInteger.call(this, this.getNodeParameter('limit', itemIndex), 'Limit', itemIndex, { min: 1 });
		return (await apiRequestAllItems.call(this, '/v1/resources', qs, { limit, itemIndex })) as IDataObject[];
	});
}
