import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readEndpoints } from './endpointStore';
import { claimRun, dedupeScope } from './eventDedupe';

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
	const scopes = readEndpoints(this.getWorkflowStaticData('node')).map((endpoint) =>
		dedupeScope.call(this, endpoint.id),
	);
	const executionId = this.getExecutionId();
	const nowSeconds = Math.floor(Date.now() / 1000);
	return this.getInputData().filter((item) => {
		const eventId = eventIdOf(item.json);
		if (eventId === undefined) return true;
		return scopes
			.map((scope) => claimRun(scope, eventId, executionId, nowSeconds))
			.every((first) => first);
	});
}
