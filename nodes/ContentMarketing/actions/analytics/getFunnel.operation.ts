import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyFunnel } from './simplifyReports';

/** Simplified: one flat object with a count and a rate per funnel step. */
export const { description, execute } = analyticsOperation({
	operation: 'getFunnel',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/funnel',
	simplify: simplifyFunnel,
});
