import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { apiRequest } from '../../transport';
import type { OperationCode } from '../types';
import { resourceLocator } from './fields';
import { readResourceId } from './resourceBody';

/**
 * Publish and archive (docs/api-contract.md §6): a POST without a body that answers the resource in its new state. An illegal
 * transition (publish of a non-draft, archive of a non-published resource) is the service's 409, reported
 * with the service's own message.
 */
export function transitionOperation(operation: 'publish' | 'archive', hint: string): OperationCode {
	const properties: INodeProperties[] = [{ ...resourceLocator, description: hint }];
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['contentResource'], operation: [operation] } },
			properties,
		),
		async execute(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): Promise<INodeExecutionData[]> {
			return await forEachItem.call(this, items, async (itemIndex) => {
				const id = readResourceId.call(this, itemIndex);
				return (await apiRequest.call(this, 'POST', `/v1/resources/${id}/${operation}`, {
					itemIndex,
				})) as IDataObject;
			});
		},
	};
}
