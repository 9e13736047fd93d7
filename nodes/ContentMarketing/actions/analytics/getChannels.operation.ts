import { analyticsOperation } from './analyticsOperation';
import { optionsCollection, periodFields, resourceFilterField } from './filters';
import { simplifyList } from './simplifyReports';
import type { OperationExample } from '../types';

/** Simplified: one item per traffic channel (UTM source), most visits first. */
export const { description, execute } = analyticsOperation({
	operation: 'getChannels',
	properties: [...periodFields, resourceFilterField, optionsCollection()],
	path: () => '/v1/analytics/channels',
	simplify: simplifyList,
});

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ days: 30 }),
};
