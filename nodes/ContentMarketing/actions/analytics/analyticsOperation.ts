import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readSimplify, simplifyField } from '../common.descriptions';
import { forEachItem } from '../itemLoop';
import { apiRequest } from '../../transport';
import type { OperationCode } from '../types';
import { readAnalyticsQuery } from './filters';

interface AnalyticsOperationConfig {
	operation: string;
	/** The operation's own parameters; the Simplify switch is added after them. */
	properties: INodeProperties[];
	path: (this: IExecuteFunctions, itemIndex: number) => string;
	/** Query parameters beyond the common ones (period, time zone, resource filter). */
	extraQuery?: (this: IExecuteFunctions, itemIndex: number) => IDataObject;
	simplify: (answer: IDataObject) => IDataObject | IDataObject[];
}

/** A read-only analytics operation (docs/api-contract.md §7): one GET per input item, answered as is or simplified. */
export function analyticsOperation(config: AnalyticsOperationConfig): OperationCode {
	const properties = [...config.properties, simplifyField];
	return {
		description: updateDisplayOptions(
			{ show: { resource: ['analytics'], operation: [config.operation] } },
			properties,
		),
		async execute(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): Promise<INodeExecutionData[]> {
			return await forEachItem.call(this, items, async (itemIndex) => {
				const path = config.path.call(this, itemIndex);
				const qs = {
					...readAnalyticsQuery.call(this, itemIndex),
					...config.extraQuery?.call(this, itemIndex),
				};
				const simplify = readSimplify.call(this, itemIndex);
				const answer = (await apiRequest.call(this, 'GET', path, { qs, itemIndex })) as IDataObject;
				return simplify ? config.simplify(answer) : answer;
			});
		},
	};
}
