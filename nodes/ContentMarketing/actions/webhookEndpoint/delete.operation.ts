import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { getLocatorId } from '../locator';
import { apiRequest } from '../../transport';
import { webhookLocator } from './fields';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [
	{ ...webhookLocator, description: 'The webhook endpoint to delete' },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const id = getLocatorId.call(this, 'webhookId', itemIndex, 'wh', 'Webhook Endpoint');
		await apiRequest.call(this, 'DELETE', `/v1/webhooks/${id}`, { itemIndex });
		return { id, deleted: true };
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ webhookId: byId(ids.webhookToDeleteId) }),
};
