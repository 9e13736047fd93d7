import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, IRun, WorkflowExecuteMode } from 'n8n-workflow';
import { UnexpectedError, createRunExecutionData } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { deferred } from './deferred';
import { START_NODE_TYPE } from './core-nodes';
import type { HarnessContext } from './harness-context';
import { RunResult } from './run-result';
import type { WorkflowJson } from './workflow';
import { createWorkflow, persistableStaticData, workflowBase } from './workflow';

export interface RunOptions {
	/** Execution mode; `manual` is a run from the editor, `trigger`/`webhook` are production runs. */
	mode?: WorkflowExecuteMode;
	/** Node to start from; defaults to the harness start node, else n8n's own start-node choice. */
	startNode?: string;
	/**
	 * Cancels the execution when this settles, as n8n's "Stop execution" does (the run's PCancelable):
	 * the nodes' cancel signal aborts. The result is the run data at that moment; the returned promise
	 * also waits for the running node to end.
	 */
	cancelOn?: Promise<unknown>;
}

/** Runs a workflow through n8n-core's WorkflowExecute, as n8n's nodes-testing harness does. */
export async function runWorkflow(
	context: HarnessContext,
	json: WorkflowJson,
	{ mode = 'manual', startNode, cancelOn }: RunOptions = {},
): Promise<RunResult> {
	const workflow = createWorkflow(json, context.nodeTypes);
	const start = pickStartNode(Object.values(workflow.nodes), startNode) ?? workflow.getStartNode();
	if (start === undefined) throw new UnexpectedError('The workflow has no node to start from');

	const executionId = context.nextExecutionId(workflow.id);
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowBase(workflow));
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	const finished = deferred<{ run: IRun; staticData: IDataObject }>();
	hooks.addHandler('workflowExecuteAfter', (run) => {
		finished.resolve({ run, staticData: persistableStaticData(workflow) });
	});

	const additionalData = createAdditionalData({
		credentialsHelper: context.credentials,
		urls: context.urls(),
		executionId,
		hooks,
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }],
		},
		resultData: { pinData: json.pinData },
	});

	const execution = new WorkflowExecute(
		additionalData,
		mode,
		runExecutionData,
	).processRunExecutionData(workflow);
	const cancel = () => execution.cancel();
	void cancelOn?.then(cancel, cancel);
	await execution;
	const { run, staticData } = await finished.promise;
	return new RunResult(run, executionOrder, staticData, workflow);
}

function pickStartNode(nodes: INode[], name: string | undefined): INode | undefined {
	if (name !== undefined) {
		const node = nodes.find((candidate) => candidate.name === name);
		if (node === undefined)
			throw new UnexpectedError(`Start node "${name}" is not in the workflow`);
		return node;
	}
	const harnessStarts = nodes.filter((node) => node.type === START_NODE_TYPE && !node.disabled);
	return harnessStarts.length === 1 ? harnessStarts[0] : undefined;
}
