import type { IDataObject, INode } from 'n8n-workflow';

import type { PollState } from './state';
import { parseState, savedState } from './state';
import { isObject } from '../helpers/values';

/**
 * Where the node started: the state its first poll recorded ("now" at activation), kept in the workflow's
 * global static data beside the node's own (docs/api-contract.md §14, "Activation").
 *
 * Why a second copy: n8n's durable scheduler (2.36+, the default from 2.45) discards the node data of an
 * activation poll that returns nothing but saves global static data at activation, so a poll that finds no
 * node state resumes from here instead of taking a second "now" that would pass over the leads created in
 * between (docs/api-contract.md §14, "First poll after activation").
 *
 * Keyed by node name (a renamed node starts afresh, as its `node:<name>` data does in n8n) and checked
 * against the node id (a node deleted and added again under the same name starts afresh too).
 */
const STARTS = 'contentMarketingPollTriggerStart';

function startsOf(global: IDataObject): IDataObject {
	const starts = global[STARTS];
	return isObject(starts) ? starts : {};
}

/** The state this node's first poll recorded, if it left one. */
export function readActivationState(global: IDataObject, node: INode): PollState | undefined {
	const start = startsOf(global)[node.name];
	if (!isObject(start) || start.nodeId !== (node.id ?? null)) return undefined;
	return parseState(start.state);
}

/** Records the first poll's state; the top-level key is replaced, which n8n's change tracking sees. */
export function writeActivationState(global: IDataObject, node: INode, state: PollState): void {
	global[STARTS] = {
		...startsOf(global),
		[node.name]: { nodeId: node.id ?? null, state: savedState(state) },
	};
}
