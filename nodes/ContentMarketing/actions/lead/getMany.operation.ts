import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLimit, returnAllOrLimit, simplifyField, sortOptions } from '../../helpers/descriptions';
import { forEachItem } from '../../helpers/items';
import { simplifyLead } from '../../helpers/simplify';
import { assertEnum, assertId, assertInteger, assertMaxLength, idExample } from '../../helpers/validation';
import { apiRequestAllItems } from '../../transport';
import { LEAD_SORT_FIELDS, LEAD_STATUSES, SOURCE_CHANNELS, sourceChannelOptions, statusOptions } from './fields';

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
				description: 'Only leads whose e-mail, name or company contains this text (case-insensitive)',
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

export const description = updateDisplayOptions({ show: { resource: ['lead'], operation: ['getAll'] } }, properties);

/** The query of GET /v1/leads (§4) from the Filters and Options collections, validated. */
function leadQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.days !== undefined) {
		qs.days = assertInteger.call(this, filters.days, 'Created in the Last N Days', itemIndex, { min: 1, max: 365 });
	}
	if (filters.status !== undefined) qs.status = assertEnum.call(this, filters.status, LEAD_STATUSES, 'Status', itemIndex);
	if (filters.source_channel !== undefined) {
		qs.source_channel = assertEnum.call(this, filters.source_channel, SOURCE_CHANNELS, 'Source Channel', itemIndex);
	}
	if (typeof filters.source_resource_id === 'string' && filters.source_resource_id.trim() !== '') {
		qs.source_resource_id = assertId.call(this, filters.source_resource_id, 'res', 'Source Resource ID', itemIndex);
	}
	if (typeof filters.assigned_to === 'string' && filters.assigned_to !== '') {
		qs.assigned_to = assertId.call(this, filters.assigned_to, 'user', 'Assigned To', itemIndex);
	}
	if (typeof filters.q === 'string' && filters.q.trim() !== '') {
		qs.q = assertMaxLength.call(this, filters.q.trim(), 200, 'Search', itemIndex);
	}
	if (options.sort !== undefined) qs.sort = assertEnum.call(this, options.sort, LEAD_SORT_FIELDS, 'Sort By', itemIndex);
	if (options.order !== undefined) qs.order = assertEnum.call(this, options.order, ['asc', 'desc'] as const, 'Sort Order', itemIndex);
	return qs;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = leadQuery.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		const leads = await apiRequestAllItems.call(this, '/v1/leads', qs, { limit, itemIndex });
		return this.getNodeParameter('simplify', itemIndex, true) ? leads.map(simplifyLead) : leads;
	});
}
