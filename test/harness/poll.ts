import { PollContext } from 'n8n-core';
// Not re-exported by n8n-core's index; ActiveWorkflows calls exactly this for every poll.
import { TriggersAndPollers } from 'n8n-core/dist/execution-engine/triggers-and-pollers';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	Workflow,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import type { HarnessContext } from './harness-context';
import { triggerNodeJson } from './harness-context';
import { runWorkflow } from './run-workflow';
import { createWorkflow, DEFAULT_WORKFLOW_ID, persistableStaticData } from './workflow';

type RunPoll = TriggersAndPollers['runPoll'];

/** TriggersAndPollers of either n8n generation (types are 2.8's). */
interface PollRunner {
	runPoll: RunPoll;
	runPollFunction?: RunPoll;
}

export interface PollOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	/** Defaults to "Poll Trigger". */
	name?: string;
	credentials?: Record<string, string>;
	/** Initial workflow static data (what n8n would load from the database). */
	staticData?: IDataObject;
}

/** One poll as n8n's ActiveWorkflows ran it. */
export interface PollOutcome {
	/** Items of the first output when the poll returned data (n8n then starts one execution). */
	items?: INodeExecutionData[];
	/** What the poll threw (n8n records an error execution). */
	error?: Error;
}

/**
 * A polling node of an active workflow, driven the way n8n 2.8 drives it (packages/core
 * ActiveWorkflows.activatePolling + packages/cli ActiveWorkflowManager):
 * - activation (and a restart, activation mode `init`) builds the Workflow from the stored static data,
 *   runs the first poll at once (an error fails the activation), emits its items if any, and then saves
 *   the static data (ActiveWorkflowManager.add);
 * - every later poll runs on that same in-memory Workflow; its static data is saved only when the poll
 *   returned items (`__emit` saves, then runs the workflow); a poll that throws emits an error execution
 *   and saves nothing;
 * - a restart drops the in-memory Workflow: whatever was not saved is lost.
 */
export class PollHarness {
	readonly name: string;

	/** Every execution the poller started: the items of each. */
	readonly executions: INodeExecutionData[][] = [];

	/** Every error execution (a poll that threw after activation). */
	readonly errors: Error[] = [];

	private readonly json: INode;

	private stored: IDataObject;

	private live?: { workflow: Workflow; context: PollContext };

	constructor(
		private readonly context: HarnessContext,
		options: PollOptions,
	) {
		this.name = options.name ?? 'Poll Trigger';
		this.json = triggerNodeJson(context, { ...options, name: this.name });
		this.stored = structuredClone(options.staticData ?? {});
	}

	/** The static data as saved in the database (a copy). */
	get staticData(): IDataObject {
		return structuredClone(this.stored);
	}

	/** This node's part of the saved static data (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		const data = this.stored[`node:${this.name}`];
		return typeof data === 'object' && data !== null ? (structuredClone(data) as IDataObject) : {};
	}

	get active(): boolean {
		return this.live !== undefined;
	}

	/** Activation (`activate`) or a start of n8n with the workflow active (`init`): first poll, then save. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		const workflow = this.workflow({ active: true });
		const node = workflow.nodes[this.name];
		const additionalData = createAdditionalData({
			credentialsHelper: this.context.credentials,
			urls: this.context.urls(),
		});
		const context = new PollContext(workflow, node, additionalData, 'trigger', activation);
		const response = await this.runPoll(workflow, context);
		this.live = { workflow, context };
		const outcome = this.emit(workflow, response);
		this.save(workflow);
		return outcome;
	}

	/** One scheduled poll (the cron tick) on the active workflow. */
	async poll(): Promise<PollOutcome> {
		if (this.live === undefined) throw new UnexpectedError('The workflow is not active');
		const { workflow, context } = this.live;
		try {
			return this.emit(workflow, await this.runPoll(workflow, context));
		} catch (error) {
			const failure = error instanceof Error ? error : new Error(String(error));
			this.errors.push(failure);
			return { error: failure };
		}
	}

	/** Polls until a poll emits nothing (or `maxPolls`); returns the executions' items in order. */
	async pollUntilQuiet(maxPolls = 100): Promise<INodeExecutionData[][]> {
		const emitted: INodeExecutionData[][] = [];
		for (let i = 0; i < maxPolls; i++) {
			const outcome = await this.poll();
			if (outcome.error !== undefined) throw outcome.error;
			if (outcome.items === undefined) return emitted;
			emitted.push(outcome.items);
		}
		throw new UnexpectedError(`Still emitting after ${maxPolls} polls`);
	}

	/** n8n stops (the in-memory workflow and its unsaved static data are gone) and starts again. */
	async restart(): Promise<PollOutcome> {
		this.live = undefined;
		return await this.activate('init');
	}

	deactivate(): void {
		this.live = undefined;
	}

	/**
	 * *Fetch Test Event* in the editor: a manual execution of the workflow (WorkflowExecute runs the poll
	 * node with a PollContext in `manual` mode); n8n does not save static data of manual executions.
	 */
	async fetchTestEvent(): Promise<INodeExecutionData[]> {
		const result = await runWorkflow(
			this.context,
			{ id: DEFAULT_WORKFLOW_ID, nodes: [this.json], connections: {}, staticData: this.stored },
			{ mode: 'manual', startNode: this.name },
		);
		if (result.error !== undefined) throw new Error(result.error.message);
		return result.ran(this.name) ? result.outputOf(this.name) : [];
	}

	private async runPoll(
		workflow: Workflow,
		context: PollContext,
	): Promise<INodeExecutionData[][] | null> {
		const pollers: PollRunner = new TriggersAndPollers();
		const node = workflow.nodes[this.name];
		// n8n 2.8 calls it runPoll; n8n 2.41 runPollFunction (the same call, counting overlapping polls)
		if (pollers.runPollFunction !== undefined)
			return await pollers.runPollFunction(workflow, node, context);
		return await pollers.runPoll(workflow, node, context);
	}

	/** ActiveWorkflowManager's `__emit`: saves the static data, then starts an execution. */
	private emit(workflow: Workflow, response: INodeExecutionData[][] | null): PollOutcome {
		if (response === null) return {};
		this.save(workflow);
		const items = response[0] ?? [];
		this.executions.push(items);
		return { items };
	}

	/** WorkflowStaticDataService.saveStaticData: writes only when a node changed something. */
	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) {
			this.stored = persistableStaticData(workflow);
			workflow.staticData.__dataChanged = false;
		}
	}

	private workflow({ active }: { active: boolean }): Workflow {
		const workflow = createWorkflow(
			{ id: DEFAULT_WORKFLOW_ID, nodes: [this.json], connections: {}, staticData: this.stored },
			this.context.nodeTypes,
		);
		workflow.active = active;
		return workflow;
	}
}
