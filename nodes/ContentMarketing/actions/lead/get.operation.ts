import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readSimplify, simplifyField } from '../common.descriptions';
import { forEachItem } from '../itemLoop';
import { simplifyLead } from './simplifyLead';
import { apiRequest } from '../../transport';
import { leadLocatorWithEmail } from './fields';
import { resolveLeadId, withLeadLookups } from './leadLocatorByEmail';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [
	{ ...leadLocatorWithEmail, description: 'The lead to get' },
	simplifyField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['get'] } },
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
				const simplify = readSimplify.call(this, itemIndex);
				const leadId = await resolveLeadId.call(this, itemIndex);
				const lead = await apiRequest.call(this, 'GET', `/v1/leads/${leadId}`, { itemIndex });
				return simplify ? simplifyLead(lead) : (lead as IDataObject);
			}),
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ leadId: byId(ids.leadId) }),
};
