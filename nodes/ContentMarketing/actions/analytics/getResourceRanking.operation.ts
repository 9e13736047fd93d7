import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { assertEnum } from '../../helpers/validation';
import { readInteger } from '../../helpers/values';
import { RANKING_SORT_FIELDS, SORT_ORDERS } from '../../helpers/vocabulary';
import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields } from './filters';
import { simplifyList } from './simplifyReports';
import type { OperationExample } from '../types';

const rankingOptions: INodeProperties[] = [
	{
		displayName: 'Rank By',
		name: 'sort',
		type: 'options',
		options: [
			{ name: 'Average Dwell Time', value: 'avg_dwell_seconds' },
			{ name: 'Conversion Rate', value: 'conversion_rate' },
			{ name: 'Leads', value: 'leads' },
			{ name: 'Page Views', value: 'page_views' },
			{ name: 'Unique Visitors', value: 'unique_visitors' },
		],
		default: 'page_views',
	},
	{
		displayName: 'Order',
		name: 'order',
		type: 'options',
		options: [
			{ name: 'Best First', value: 'desc' },
			{ name: 'Worst First', value: 'asc' },
		],
		default: 'desc',
	},
];

/** Simplified: one item per ranked resource, with its rank and the period. */
export const { description, execute } = analyticsOperation({
	operation: 'getResourceRanking',
	properties: [
		...periodFields,
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 50,
			description: 'Max number of results to return',
		},
		optionsCollection(rankingOptions),
	],
	path: () => '/v1/analytics/resources',
	extraQuery(itemIndex) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const qs: IDataObject = {
			limit: readInteger.call(
				this,
				this.getNodeParameter('limit', itemIndex, 50),
				'Limit',
				itemIndex,
				{ min: 1, max: 100 },
			),
		};
		if (options.sort !== undefined)
			qs.sort = assertEnum.call(this, options.sort, RANKING_SORT_FIELDS, 'Rank By', itemIndex);
		if (options.order !== undefined)
			qs.order = assertEnum.call(this, options.order, SORT_ORDERS, 'Order', itemIndex);
		return qs;
	},
	simplify: simplifyList,
});

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ days: 30, limit: 10 }),
};
