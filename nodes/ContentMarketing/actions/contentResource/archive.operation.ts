import { transitionOperation } from './transition';
import { byId, type OperationExample } from '../types';

export const { description, execute } = transitionOperation(
	'archive',
	'The published resource to archive. Tracking stops, data is kept and the public link returns 404.',
);

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ resourceId: byId(ids.toArchiveId) }),
};
