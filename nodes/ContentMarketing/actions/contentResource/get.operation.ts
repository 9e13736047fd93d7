import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { apiRequest } from '../../transport';
import { resourceLocator } from './fields';
import { readResourceId } from './resourceBody';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [resourceLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['contentResource'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const id = readResourceId.call(this, itemIndex);
		return (await apiRequest.call(this, 'GET', `/v1/resources/${id}`, {
			itemIndex,
		})) as IDataObject;
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ resourceId: byId(ids.draftId) }),
};
