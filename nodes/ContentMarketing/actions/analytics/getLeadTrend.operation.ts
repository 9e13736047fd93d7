import { assertEnum } from '../../helpers/validation';
import { GRANULARITIES } from '../../helpers/vocabulary';
import { analyticsOperation } from './analyticsOperation';
import { granularityField, optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyLeadTrend } from './simplifyReports';
import type { OperationExample } from '../types';

/** Simplified: one item per day, week or month with its leads, conversions and conversion rate. */
export const { description, execute } = analyticsOperation({
	operation: 'getLeadTrend',
	properties: [...periodFields, granularityField, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/leads',
	extraQuery(itemIndex) {
		return {
			granularity: assertEnum.call(
				this,
				this.getNodeParameter('granularity', itemIndex),
				GRANULARITIES,
				'Granularity',
				itemIndex,
			),
		};
	},
	simplify: simplifyLeadTrend,
});

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ days: 30 }),
};
