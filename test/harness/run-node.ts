import type {
	ExecutionError,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWorkflowSettings,
	OnError,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { WorkflowNode } from './core-nodes';
import { chain, startNode } from './core-nodes';
import type { HarnessContext } from './harness-context';
import { nodeCredentials } from './harness-context';
import type { RunResult } from './run-result';
import { runWorkflow } from './run-workflow';

export interface RunNodeOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	/** Defaults to "Node Under Test". */
	name?: string;
	/**
	 * Credential type -> credential id. Left out, every credential type the node's description
	 * lists and the harness holds data for is attached; `{}` attaches none.
	 */
	credentials?: Record<string, string>;
	/** Items the start node emits into the node (default: one empty item). */
	input?: INodeExecutionData[];
	/** Node setting "On Error: Continue" (n8n's `onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Node setting "On Error" in full, e.g. `continueErrorOutput`; wins over `continueOnFail`. */
	onError?: OnError;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	alwaysOutputData?: boolean;
	executeOnce?: boolean;
	mode?: WorkflowExecuteMode;
	/** Cancels the execution when this settles (see RunOptions.cancelOn). */
	cancelOn?: Promise<unknown>;
	/** The workflow's settings (e.g. its time zone). */
	settings?: IWorkflowSettings;
}

export interface NodeRunResult {
	/** Items of the node's first output (empty if the node failed). */
	items: INodeExecutionData[];
	/** All the node's main outputs (e.g. `[success, error]` with `onError: 'continueErrorOutput'`). */
	outputs: INodeExecutionData[][];
	/**
	 * The error the node threw, whether it failed the workflow or its On Error setting caught it,
	 * as n8n records it: a plain copy (`name`, `message`, `description`, `httpCode`, ...).
	 */
	error?: ExecutionError;
	/** The node as it ran, with parameter defaults applied. */
	node: INode;
	result: RunResult;
}

export const NODE_UNDER_TEST = 'Node Under Test';
const START = 'Start';

/** Runs one node in a two-node workflow: a start node emitting `input`, then the node. */
export async function runNode(
	context: HarnessContext,
	options: RunNodeOptions,
): Promise<NodeRunResult> {
	const name = options.name ?? NODE_UNDER_TEST;
	if (name === START) throw new UnexpectedError(`"${START}" is the harness start node's name`);

	const node: WorkflowNode = {
		name,
		type: options.type,
		typeVersion: options.typeVersion,
		parameters: options.parameters ?? {},
		credentials: nodeCredentials(context, options.type, options.typeVersion, options.credentials),
		onError: options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : undefined),
		retryOnFail: options.retryOnFail,
		maxTries: options.maxTries,
		waitBetweenTries: options.waitBetweenTries,
		alwaysOutputData: options.alwaysOutputData,
		executeOnce: options.executeOnce,
	};
	const result = await runWorkflow(
		context,
		{
			nodes: [startNode(options.input, START), node],
			connections: chain(START, name),
			settings: options.settings,
		},
		{ mode: options.mode, startNode: START, cancelOn: options.cancelOn },
	);

	const ran = result.ran(name);
	const outputs = ran && result.task(name).data !== undefined ? result.outputsOf(name) : [];
	return {
		items: outputs[0] ?? [],
		outputs,
		error: result.error ?? (ran ? result.errorOf(name) : undefined),
		node: result.node(name),
		result,
	};
}
