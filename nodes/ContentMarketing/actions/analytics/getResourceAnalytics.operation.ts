import { assertEnum } from '../../helpers/validation';
import { GRANULARITIES } from '../../helpers/vocabulary';
import { resourceLocator } from '../contentResource/fields';
import { readResourceId } from '../contentResource/resourceBody';
import { analyticsOperation } from './analyticsOperation';
import { granularityField, optionsCollection, periodFields } from './filters';
import { simplifyResourceAnalytics } from './simplifyReports';
import { byId, type OperationExample } from '../types';

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

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ days: 30, resourceId: byId(ids.toArchiveId) }),
};
