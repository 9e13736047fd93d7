import { randomUUID } from 'node:crypto';
import type {
	IConnections,
	IDataObject,
	INode,
	IPinData,
	IWorkflowBase,
	IWorkflowSettings,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { WorkflowNode } from './core-nodes';
import type { HarnessNodeTypes } from './node-types';

/** An n8n workflow as JSON (what the editor exports), with the per-node bookkeeping fields optional. */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: WorkflowNode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
	pinData?: IPinData;
}

export const DEFAULT_WORKFLOW_ID = 'harness-workflow';

/** Fills in what n8n's editor would have set: ids, positions, latest type versions and webhook ids. */
export function completeNodes(nodes: WorkflowNode[], nodeTypes: HarnessNodeTypes): INode[] {
	return nodes.map((node, index) => {
		const typeVersion = node.typeVersion ?? nodeTypes.defaultVersion(node.type);
		const description = nodeTypes.getByNameAndVersion(node.type, typeVersion).description;
		const complete: INode = {
			...structuredClone(node),
			id: node.id ?? randomUUID(),
			position: node.position ?? [index * 220, 0],
			typeVersion,
			parameters: structuredClone(node.parameters ?? {}),
		};
		if (description.webhooks?.length && complete.webhookId === undefined) {
			complete.webhookId = randomUUID();
		}
		return complete;
	});
}

/** The n8n-workflow `Workflow` (which adds parameter defaults to every node, as n8n does on load). */
export function createWorkflow(json: WorkflowJson, nodeTypes: HarnessNodeTypes): Workflow {
	return new Workflow({
		id: json.id ?? DEFAULT_WORKFLOW_ID,
		name: json.name ?? 'Harness workflow',
		nodes: completeNodes(json.nodes, nodeTypes),
		connections: json.connections,
		active: false,
		nodeTypes,
		staticData: structuredClone(json.staticData ?? {}),
		settings: { executionOrder: 'v1', ...json.settings },
		pinData: json.pinData,
	});
}

export function workflowBase(workflow: Workflow): IWorkflowBase {
	const now = new Date();
	return {
		id: workflow.id,
		name: workflow.name ?? '',
		active: workflow.active,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		settings: workflow.settings,
		staticData: workflow.staticData,
	};
}

/** Static data as n8n would persist it: a plain copy without the change-tracking flag. */
export function persistableStaticData(workflow: Workflow): IDataObject {
	const { __dataChanged: _changed, ...data } = JSON.parse(
		JSON.stringify(workflow.staticData),
	) as IDataObject;
	return data;
}
