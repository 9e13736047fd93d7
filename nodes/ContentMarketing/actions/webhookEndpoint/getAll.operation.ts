import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectionLabels, readLimit, returnAllOrLimit } from '../common.descriptions';
import { forEachItem } from '../itemLoop';
import { readFilterCollection } from '../../helpers/collections';
import { assertEnum, assertUrl } from '../../helpers/validation';
import { readBoolean } from '../../helpers/values';
import { WEBHOOK_EVENT_TYPES } from '../../helpers/vocabulary';
import { apiRequestAllItems } from '../../transport';
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
				// Added empty until an option is picked; see the Assigned To filter of Lead › Get Many.
				allowArbitraryValues: true,
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

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } },
	properties,
);

const FILTER_NAMES = collectionLabels(properties, 'filters');

/**
 * The query of GET /v1/webhooks (docs/api-contract.md §10) from the Filters collection, validated; a
 * filter left empty in the editor is not set (`readFilterCollection`).
 */
function webhookQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readFilterCollection.call(this, 'filters', FILTER_NAMES, itemIndex);
	const qs: IDataObject = {};
	if (filters.active !== undefined)
		qs.active = readBoolean.call(this, filters.active, FILTER_NAMES.active, itemIndex);
	if (filters.event !== undefined)
		qs.event = assertEnum.call(
			this,
			filters.event,
			WEBHOOK_EVENT_TYPES,
			FILTER_NAMES.event,
			itemIndex,
		);
	if (filters.url !== undefined)
		qs.url = assertUrl.call(this, filters.url, FILTER_NAMES.url, itemIndex);
	return qs;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = webhookQuery.call(this, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		return await apiRequestAllItems.call(this, '/v1/webhooks', qs, { limit, itemIndex });
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ limit: 20 }),
};
