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
	readSimplify,
	readSortOptions,
	returnAllOrLimit,
	simplifyField,
	sortOptions,
} from '../helpers/descriptions';
import { forEachItem } from '../../helpers/items';
import { simplifyLead } from '../helpers/simplifyLead';
import {
	assertCollectionFilled,
	assertEnum,
	assertId,
	assertSearchText,
	idExample,
} from '../../helpers/validation';
import { readInteger } from '../../helpers/values';
import { LEAD_SORT_FIELDS, LEAD_STATUSES, SOURCE_CHANNELS } from '../../helpers/vocabulary';
import { apiRequestAllItems } from '../../transport';
import { sourceChannelOptions, statusOptions } from './fields';
import type { OperationExample } from '../types';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	simplifyField,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Assigned To Name or ID',
				name: 'assigned_to',
				type: 'options',
				// An empty value until a user is picked: without this n8n's editor marks the just-added field
				// red ("The value "" is not supported!"); the ID is still checked before any request.
				allowArbitraryValues: true,
				typeOptions: { loadOptionsMethod: 'getUsers' },
				default: '',
				description:
					'Only leads assigned to this user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Created in the Last N Days',
				name: 'days',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 365 },
				default: 30,
				description: 'Only leads created in this many recent days (1 to 365)',
			},
			{
				displayName: 'Search',
				name: 'q',
				type: 'string',
				default: '',
				placeholder: 'e.g. example.com',
				description:
					'Only leads whose e-mail, name or company contains this text (case-insensitive)',
			},
			{
				displayName: 'Source Channel',
				name: 'source_channel',
				type: 'options',
				options: sourceChannelOptions,
				default: 'api',
			},
			{
				displayName: 'Source Resource ID',
				name: 'source_resource_id',
				type: 'string',
				default: '',
				placeholder: `e.g. ${idExample('res')}`,
				description: 'Only leads that originated on this content resource',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: statusOptions,
				default: 'new',
			},
		],
	},
	sortOptions(
		[
			{ name: 'Created At', value: 'created_at' },
			{ name: 'Email', value: 'email' },
			{ name: 'Name', value: 'name' },
			{ name: 'Score', value: 'score' },
			{ name: 'Updated At', value: 'updated_at' },
		],
		'created_at',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['getAll'] } },
	properties,
);

const FILTER_NAMES = collectionLabels(properties, 'filters');

/**
 * The query of GET /v1/leads (docs/api-contract.md §4) from the Filters and Options collections,
 * validated. A filter that was added but left empty is refused, not dropped: dropping it would return
 * more leads than asked for.
 */
function leadQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	assertCollectionFilled.call(this, filters, FILTER_NAMES, itemIndex);
	const qs: IDataObject = readSortOptions.call(this, itemIndex, LEAD_SORT_FIELDS);
	if (filters.days !== undefined) {
		qs.days = readInteger.call(this, filters.days, FILTER_NAMES.days, itemIndex, {
			min: 1,
			max: 365,
		});
	}
	if (filters.status !== undefined)
		qs.status = assertEnum.call(
			this,
			filters.status,
			LEAD_STATUSES,
			FILTER_NAMES.status,
			itemIndex,
		);
	if (filters.source_channel !== undefined) {
		qs.source_channel = assertEnum.call(
			this,
			filters.source_channel,
			SOURCE_CHANNELS,
			FILTER_NAMES.source_channel,
			itemIndex,
		);
	}
	if (filters.source_resource_id !== undefined) {
		qs.source_resource_id = assertId.call(
			this,
			filters.source_resource_id,
			'res',
			FILTER_NAMES.source_resource_id,
			itemIndex,
		);
	}
	if (filters.assigned_to !== undefined) {
		qs.assigned_to = assertId.call(
			this,
			filters.assigned_to,
			'user',
			FILTER_NAMES.assigned_to,
			itemIndex,
		);
	}
	if (filters.q !== undefined)
		qs.q = assertSearchText.call(this, filters.q, FILTER_NAMES.q, itemIndex);
	return qs;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = leadQuery.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		const simplify = readSimplify.call(this, itemIndex);
		return await apiRequestAllItems.call(this, '/v1/leads', qs, {
			limit,
			itemIndex,
			map: simplify ? simplifyLead : undefined,
		});
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ limit: 20 }),
};
