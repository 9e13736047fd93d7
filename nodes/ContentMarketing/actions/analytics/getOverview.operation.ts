import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyOverview } from './simplifyReports';
import type { OperationExample } from '../types';

/** Simplified: one flat object (period dates, summary numbers and trends), ready for a sheet row or a message. */
export const { description, execute } = analyticsOperation({
	operation: 'getOverview',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/overview',
	simplify: simplifyOverview,
});

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ days: 30 }),
};
