import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { claimRun, claimScope } from './eventDedupe';

/** The event id of an item this trigger emitted: `event_id` when simplified, `id` when raw. */
function eventIdOf(json: IDataObject): string | undefined {
	const id = json.event_id ?? json.id;
	return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The trigger's step in an execution of its workflow: its items pass through, and their events count
 * as run in this process. n8n 2.41 re-runs at start the executions a kill left stored
 * (EnqueuedExecutionRecoveryService), whose webhook call never saved the journal: the service's retry
 * of such an event is then a duplicate, or, when the retry's execution came first, the re-run passes
 * nothing on.
 */
export function recordExecutionRun(this: IExecuteFunctions): INodeExecutionData[] {
	const scope = claimScope.call(this);
	const executionId = this.getExecutionId();
	if (scope === undefined) return this.getInputData();
	return this.getInputData().filter((item) => {
		const eventId = eventIdOf(item.json);
		return eventId === undefined || claimRun(scope, eventId, executionId);
	});
}
