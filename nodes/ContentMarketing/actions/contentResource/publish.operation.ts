import { transitionOperation } from './transition';

export const { description, execute } = transitionOperation(
	'publish',
	'The draft to publish. Only drafts can be published; the resource then becomes visible and tracked.',
);
