import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { apiRequest } from '../../transport';
import { resourceLocator } from './fields';
import { readResourceId } from './resourceBody';

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
