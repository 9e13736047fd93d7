import { transitionOperation } from './transition';
import { byId, type OperationExample } from '../types';

export const { description, execute } = transitionOperation(
	'publish',
	'The draft to publish. Only drafts can be published; the resource then becomes visible and tracked.',
);

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ resourceId: byId(ids.toPublishId) }),
};
