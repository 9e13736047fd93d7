import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyOverview } from './simplifyReports';

/** Simplified: one flat object (period dates, summary numbers and trends), ready for a sheet row or a message. */
export const { description, execute } = analyticsOperation({
	operation: 'getOverview',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/overview',
	simplify: simplifyOverview,
});
