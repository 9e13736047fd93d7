import type { IDataObject, INode } from 'n8n-workflow';

import type { PollState } from './state';
import { parseState, savedState } from './state';
import { isObject } from '../helpers/values';

/**
 * Where the node started: the state its first poll recorded ("now" at activation), kept in the workflow's
 * global static data beside the node's own (docs/api-contract.md §14, "Activation").
 *
 * Why a second copy: under n8n's durable scheduler (2.36+, the default from 2.45) the activation poll's
 * node data goes to a staged `poller_state` cursor that n8n discards when that poll returns nothing (its
 * `PollTriggerExecutor` commits the cursor of a null poll only when `!testingTrigger`), so the first
 * scheduled poll starts from empty node data. Global static data is not staged: the activation writes
 * it to `workflow_entity.staticData` (`WorkflowTriggerActivator.activateInternal` ends with
 * `saveStaticData(workflow)`), and every scheduled poll loads it again. A poll that finds no node state
 * resumes from the anchor instead of taking a second "now" that would pass over the leads created in
 * between.
 *
 * Keyed by node name (a renamed node starts afresh, as its `node:<name>` data does in n8n) and checked
 * against the node id (a node deleted and added again under the same name starts afresh too).
 */
const ANCHORS = 'contentMarketingPollTriggerStart';

function anchorsOf(global: IDataObject): IDataObject {
	const anchors = global[ANCHORS];
	return isObject(anchors) ? anchors : {};
}

/** The anchor of this node, if its first poll left one. */
export function readAnchor(global: IDataObject, node: INode): PollState | undefined {
	const anchor = anchorsOf(global)[node.name];
	if (!isObject(anchor) || anchor.nodeId !== (node.id ?? null)) return undefined;
	return parseState(anchor.state);
}

/** Records the first poll's state; the top-level key is replaced, which n8n's change tracking sees. */
export function writeAnchor(global: IDataObject, node: INode, state: PollState): void {
	global[ANCHORS] = {
		...anchorsOf(global),
		[node.name]: { nodeId: node.id ?? null, state: savedState(state) },
	};
}
