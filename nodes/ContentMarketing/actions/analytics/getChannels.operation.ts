import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyList } from './simplifyReports';

/** Simplified: one item per traffic channel (UTM source), most visits first. */
export const { description, execute } = analyticsOperation({
	operation: 'getChannels',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/channels',
	simplify: simplifyList,
});
