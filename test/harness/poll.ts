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

/**
 * How n8n schedules the polls (findings of /tmp/research, n8n 2.8.4 and 2.41.3):
 * - `legacy`: the in-memory scheduler (n8n 2.8, and 2.41 without the durable flags), see PollHarness;
 * - `durable`: n8n 2.41's durable scheduler (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 *   N8N_USE_WORKFLOW_PUBLICATION_SERVICE), with N8N_POLLER_DURABLE_CURSORS_ENABLED on or off.
 */
export type PollScheduler =
	| { kind: 'legacy' }
	| {
			kind: 'durable';
			/** N8N_POLLER_DURABLE_CURSORS_ENABLED (default true). */
			durableCursors?: boolean;
			/** N8N_SCHEDULER_POLL_TIMEOUT in ms (default 45 s): a longer poll is abandoned. */
			pollTimeoutMs?: number;
			/** What `getPollBudgetMs()` answers (default: n8n's formula from the timeout and a 60 s lease). */
			pollBudgetMs?: number;
	  };

export interface PollOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	/** Defaults to "Poll Trigger". */
	name?: string;
	credentials?: Record<string, string>;
	/** Initial workflow static data (what n8n would load from the database). */
	staticData?: IDataObject;
	/** Defaults to the legacy (in-memory) scheduler. */
	scheduler?: PollScheduler;
}

/** One poll as n8n ran it. */
export interface PollOutcome {
	/** Items of the first output when the poll returned data (n8n then starts one execution). */
	items?: INodeExecutionData[];
	/** What the poll threw (n8n records an error execution). */
	error?: Error;
	/** The durable scheduler gave up waiting for it (its timeout): nothing of it is kept. */
	abandoned?: true;
}

const LEASE_MS = 60_000;

/** n8n 2.41 PollTriggerTaskHandler: ceiling = min(timeout, lease), margin = min(max(20 %, 5 s), half). */
function n8nPollBudget(timeoutMs: number): number {
	const ceiling = Math.min(timeoutMs, LEASE_MS);
	return ceiling - Math.min(Math.max(0.2 * ceiling, 5_000), ceiling / 2);
}

let workflowCount = 0;

/**
 * A polling node of an active workflow, driven the way n8n drives it.
 *
 * Legacy scheduler (packages/core ActiveWorkflows.activatePolling + packages/cli ActiveWorkflowManager):
 * - activation (and a restart, activation mode `init`) builds the Workflow from the stored static data,
 *   runs the first poll at once (an error fails the activation), emits its items if any, and then saves
 *   the static data (ActiveWorkflowManager.add);
 * - every later poll runs on that same in-memory Workflow; its static data is saved only when the poll
 *   returned items (`__emit` saves, then runs the workflow); a poll that throws emits an error execution
 *   and saves nothing; polls started while one runs run alongside it (n8n has no in-flight guard);
 * - a restart drops the in-memory Workflow: whatever was not saved is lost.
 *
 * Durable scheduler (n8n 2.41 WorkflowTriggerActivator, PollTriggerExecutor, PollTriggerTaskHandler,
 * PollCursorService), with durable cursors on:
 * - the node's static data lives in a `poller_state` row (`pollerState`), seeded once from the workflow's
 *   `node:<name>` data; each poll works on a copy (the staged cursor);
 * - activation (the first publish) runs one poll with testingTrigger=true: with items, its cursor is
 *   committed with the execution; **returning null, its cursor is discarded**; either way the activation
 *   then saves the workflow's static data (global data included);
 * - each scheduled poll builds a fresh Workflow from the database (activation mode `update`), with
 *   `getPollBudgetMs`; items: cursor committed with the execution, static data saved; null: cursor
 *   committed alone (commitCursorOnly), static data not saved; thrown: nothing saved; still running at the
 *   timeout: abandoned, nothing of it saved, even if it goes on and finishes;
 * - a restart runs no poll (the jobs exist already).
 * With durable cursors off, there is no `poller_state`: the node's data is in the workflow's static data,
 * saved at activation and with items only (a null scheduled poll's changes are lost).
 */
export class PollHarness {
	readonly name: string;

	/** Every execution the poller started: the items of each. */
	readonly executions: INodeExecutionData[][] = [];

	/** Every error execution (a poll that threw after activation). */
	readonly errors: Error[] = [];

	/** Durable scheduler, durable cursors on: the `poller_state.cursor` row (undefined until seeded). */
	pollerState?: IDataObject;

	private readonly json: INode;

	private readonly workflowId: string;

	private readonly scheduler: PollScheduler;

	private stored: IDataObject;

	private live?: { workflow: Workflow; context: PollContext };

	/** Polls the durable scheduler abandoned at its timeout, still running perhaps. */
	private readonly abandoned: Array<Promise<unknown>> = [];

	private published = false;

	constructor(
		private readonly context: HarnessContext,
		options: PollOptions,
	) {
		this.name = options.name ?? 'Poll Trigger';
		this.json = triggerNodeJson(context, { ...options, name: this.name });
		this.stored = structuredClone(options.staticData ?? {});
		this.scheduler = options.scheduler ?? { kind: 'legacy' };
		// Each poller is its own workflow (the node keeps per-workflow state in the process).
		this.workflowId = `${DEFAULT_WORKFLOW_ID}${++workflowCount}`;
	}

	/** The static data as saved in the database (a copy). */
	get staticData(): IDataObject {
		return structuredClone(this.stored);
	}

	/** This node's saved data: the `poller_state` row under durable cursors, else `node:<name>`. */
	get nodeStaticData(): IDataObject {
		if (this.cursorsInPollerState) return structuredClone(this.pollerState ?? {});
		const data = this.stored[`node:${this.name}`];
		return typeof data === 'object' && data !== null ? (structuredClone(data) as IDataObject) : {};
	}

	get active(): boolean {
		return this.live !== undefined || this.published;
	}

	private get cursorsInPollerState(): boolean {
		return this.scheduler.kind === 'durable' && this.scheduler.durableCursors !== false;
	}

	/** Activation (`activate`) or a start of n8n with the workflow active (`init`): first poll, then save. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		if (this.scheduler.kind === 'durable') return await this.publishDurable(activation);
		const workflow = this.workflow({ active: true });
		const context = this.pollContext(workflow, activation);
		const response = await this.runPoll(workflow, context);
		this.live = { workflow, context };
		const outcome = this.emit(workflow, response);
		this.save(workflow);
		return outcome;
	}

	/** One scheduled poll (the cron tick, or the durable scheduler's occurrence) on the active workflow. */
	async poll(): Promise<PollOutcome> {
		if (this.scheduler.kind === 'durable') return await this.durableOccurrence(this.scheduler);
		if (this.live === undefined) throw new UnexpectedError('The workflow is not active');
		const { workflow, context } = this.live;
		try {
			return this.emit(workflow, await this.runPoll(workflow, context));
		} catch (error) {
			return this.failed(error);
		}
	}

	/** Resolves once every poll abandoned so far has ended (n8n drops what they return). */
	async abandonedPollsEnded(): Promise<void> {
		await Promise.allSettled(this.abandoned.splice(0));
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

	/**
	 * n8n stops (the in-memory workflow and its unsaved static data are gone) and starts again: the legacy
	 * scheduler activates again (a first poll); the durable one only goes on with its jobs.
	 */
	async restart(): Promise<PollOutcome> {
		this.live = undefined;
		if (this.scheduler.kind === 'durable') return {};
		return await this.activate('init');
	}

	deactivate(): void {
		this.live = undefined;
		this.published = false;
	}

	/**
	 * *Fetch Test Event* in the editor: a manual execution of the workflow (WorkflowExecute runs the poll
	 * node with a PollContext in `manual` mode); n8n does not save static data of manual executions.
	 */
	async fetchTestEvent(): Promise<INodeExecutionData[]> {
		const result = await runWorkflow(
			this.context,
			{ id: this.workflowId, nodes: [this.json], connections: {}, staticData: this.stored },
			{ mode: 'manual', startNode: this.name },
		);
		if (result.error !== undefined) throw result.error;
		return result.ran(this.name) ? result.outputOf(this.name) : [];
	}

	/** The first publish under the durable scheduler: one poll with testingTrigger=true. */
	private async publishDurable(activation: WorkflowActivateMode): Promise<PollOutcome> {
		const { workflow, context } = this.durableRun(activation);
		const response = await this.runPoll(workflow, context);
		this.published = true;
		if (response !== null) {
			this.commitCursor(workflow);
			this.emitExecution(response);
		}
		// activateInternal: saveStaticData(workflow), whatever the poll returned
		this.saveWorkflowData(workflow);
		return response === null ? {} : { items: response[0] ?? [] };
	}

	/** One durable occurrence (PollTriggerTaskHandler.execute), raced against the poll timeout. */
	private async durableOccurrence(
		scheduler: Extract<PollScheduler, { kind: 'durable' }>,
	): Promise<PollOutcome> {
		if (!this.published) throw new UnexpectedError('The workflow is not published');
		const timeoutMs = scheduler.pollTimeoutMs ?? 45_000;
		const budgetMs = scheduler.pollBudgetMs ?? n8nPollBudget(timeoutMs);
		const { workflow, context } = this.durableRun('update');
		(context as unknown as { getPollBudgetMs: () => number }).getPollBudgetMs = () => budgetMs;
		const poll = this.runPoll(workflow, context);
		poll.catch(() => undefined);
		let timer: NodeJS.Timeout | undefined;
		const timedOut = new Promise<'timedOut'>((resolve) => {
			timer = setTimeout(() => resolve('timedOut'), timeoutMs);
		});
		try {
			const response = await Promise.race([poll, timedOut]);
			if (response === 'timedOut') {
				this.abandoned.push(poll);
				return { abandoned: true };
			}
			if (response === null) {
				// commitStagedCursor: the cursor alone; the workflow's static data is not saved
				this.commitCursor(workflow);
				return {};
			}
			this.commitCursor(workflow);
			this.saveWorkflowData(workflow);
			return this.emitExecution(response);
		} catch (error) {
			return this.failed(error);
		} finally {
			clearTimeout(timer);
		}
	}

	/** A fresh Workflow from the database, the node's data taken from `poller_state` when it is there. */
	private durableRun(activation: WorkflowActivateMode): {
		workflow: Workflow;
		context: PollContext;
	} {
		const key = `node:${this.name}`;
		const staticData = structuredClone(this.stored);
		if (this.cursorsInPollerState) {
			// getOrCreateCursor: seeded once with the node's workflow static data
			this.pollerState ??= structuredClone((this.stored[key] as IDataObject | undefined) ?? {});
			staticData[key] = structuredClone(this.pollerState);
		}
		const workflow = this.workflow({ active: true, staticData });
		return { workflow, context: this.pollContext(workflow, activation) };
	}

	/** The staged cursor reaches `poller_state` (when it changed: PollCursorService). */
	private commitCursor(workflow: Workflow): void {
		if (!this.cursorsInPollerState) return;
		const data = persistableStaticData(workflow)[`node:${this.name}`];
		this.pollerState = structuredClone((data as IDataObject | undefined) ?? {});
	}

	/** saveStaticData(workflow): the whole column, without the node's data when that is in `poller_state`. */
	private saveWorkflowData(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged !== true) return;
		const data = persistableStaticData(workflow);
		if (this.cursorsInPollerState) {
			const key = `node:${this.name}`;
			if (this.stored[key] === undefined) delete data[key];
			else data[key] = this.stored[key];
		}
		this.stored = data;
		workflow.staticData.__dataChanged = false;
	}

	private pollContext(workflow: Workflow, activation: WorkflowActivateMode): PollContext {
		const additionalData = createAdditionalData({
			credentialsHelper: this.context.credentials,
			urls: this.context.urls(),
		});
		return new PollContext(
			workflow,
			workflow.nodes[this.name],
			additionalData,
			'trigger',
			activation,
		);
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
		return this.emitExecution(response);
	}

	private emitExecution(response: INodeExecutionData[][]): PollOutcome {
		const items = response[0] ?? [];
		this.executions.push(items);
		return { items };
	}

	private failed(error: unknown): PollOutcome {
		const failure = error instanceof Error ? error : new Error(String(error));
		this.errors.push(failure);
		return { error: failure };
	}

	/** WorkflowStaticDataService.saveStaticData: writes only when a node changed something. */
	private save(workflow: Workflow): void {
		if (workflow.staticData.__dataChanged === true) {
			this.stored = persistableStaticData(workflow);
			workflow.staticData.__dataChanged = false;
		}
	}

	private workflow({
		active,
		staticData = this.stored,
	}: {
		active: boolean;
		staticData?: IDataObject;
	}): Workflow {
		const workflow = createWorkflow(
			{ id: this.workflowId, nodes: [this.json], connections: {}, staticData },
			this.context.nodeTypes,
		);
		workflow.active = active;
		return workflow;
	}
}
