import { assertEnum } from '../../helpers/validation';
import { GRANULARITIES } from '../../helpers/vocabulary';
import { resourceLocator } from '../contentResource/fields';
import { readResourceId } from '../contentResource/resourceBody';
import { analyticsOperation } from './analyticsOperation';
import { granularityField, optionsCollection, periodFields } from './filters';
import { simplifyResourceAnalytics } from './simplifyReports';

/** Simplified: totals and scroll distribution flat, channels and trend kept as arrays. */
export const { description, execute } = analyticsOperation({
	operation: 'getResourceAnalytics',
	properties: [resourceLocator, ...periodFields, granularityField, optionsCollection()],
	path(itemIndex) {
		return `/v1/analytics/resources/${readResourceId.call(this, itemIndex)}`;
	},
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
	simplify: simplifyResourceAnalytics,
});
