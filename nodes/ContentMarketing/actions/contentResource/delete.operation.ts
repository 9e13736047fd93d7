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

const properties: INodeProperties[] = [
	{
		...resourceLocator,
		description: 'The resource to delete. Deletion is irreversible: its public link stops working.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contentResource'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const id = readResourceId.call(this, itemIndex);
		const answer = (await apiRequest.call(this, 'DELETE', `/v1/resources/${id}`, {
			itemIndex,
		})) as IDataObject;
		// docs/api-contract.md §6 answers { id, deleted: true }; a bare 204 means the same.
		return {
			id: typeof answer.id === 'string' ? answer.id : id,
			deleted: answer.deleted !== false,
		};
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ resourceId: byId(ids.toDeleteId) }),
};
