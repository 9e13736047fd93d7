import { transitionOperation } from './transition';

export const { description, execute } = transitionOperation(
	'archive',
	'The published resource to archive. Tracking stops, data is kept and the public link returns 404.',
);
