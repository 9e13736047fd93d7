import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { apiRequest } from '../../transport';
import { leadLocatorWithEmail } from './fields';
import { resolveLeadId, withLeadLookups } from './leadLocatorByEmail';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [
	{
		...leadLocatorWithEmail,
		description: 'The lead to push to the CRM configured for the account',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['syncToCrm'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await withLeadLookups(
		this,
		async () =>
			await forEachItem.call(this, items, async (itemIndex) => {
				const leadId = await resolveLeadId.call(this, itemIndex);
				const result = await apiRequest.call(this, 'POST', `/v1/leads/${leadId}/sync-crm`, {
					itemIndex,
				});
				return { lead_id: leadId, ...result };
			}),
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ leadId: byId(ids.leadId) }),
};
