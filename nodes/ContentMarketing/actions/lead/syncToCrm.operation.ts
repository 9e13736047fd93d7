import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { getLocatorId } from '../helpers/locator';
import { apiRequest } from '../../transport';
import { leadLocator } from './fields';

const properties: INodeProperties[] = [
	{ ...leadLocator, description: 'The lead to push to the CRM configured for the account' },
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['syncToCrm'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const leadId = getLocatorId.call(this, 'leadId', itemIndex, 'lead', 'Lead');
		const result = await apiRequest.call(this, 'POST', `/v1/leads/${leadId}/sync-crm`, {
			itemIndex,
		});
		return { lead_id: leadId, ...result };
	});
}
