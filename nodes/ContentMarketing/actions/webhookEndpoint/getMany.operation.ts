import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readLimit, returnAllOrLimit } from '../../helpers/descriptions';
import { forEachItem } from '../../helpers/items';
import { assertUrl } from '../../helpers/validation';
import { apiRequestAllItems } from '../../transport';

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
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether to return only active endpoints (or only inactive ones)',
			},
			{
				displayName: 'Event Name or ID',
				name: 'event',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getEventTypes' },
				default: '',
				description:
					'Only endpoints subscribed to this event type. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://hooks.example.com/content-marketing',
				description: 'Only the endpoint with exactly this URL',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs: IDataObject = {};
		if (filters.active !== undefined) qs.active = filters.active === true;
		if (typeof filters.event === 'string' && filters.event !== '') qs.event = filters.event;
		if (typeof filters.url === 'string' && filters.url !== '') qs.url = assertUrl.call(this, filters.url, 'URL', itemIndex);
		const limit = readLimit.call(this, itemIndex);
		return await apiRequestAllItems.call(this, '/v1/webhooks', qs, { limit, itemIndex });
	});
}
