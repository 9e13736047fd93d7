import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyFunnel } from './simplifyReports';
import type { OperationExample } from '../types';

/** Simplified: one flat object with a count and a rate per funnel step. */
export const { description, execute } = analyticsOperation({
	operation: 'getFunnel',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/funnel',
	simplify: simplifyFunnel,
});

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ days: 30 }),
};
