import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	ExecutionError,
	ExecutionStatus,
	IBinaryData,
	IDataObject,
	INodeExecutionData,
	IRun,
	INode,
	IRunData,
	ITaskData,
	Workflow,
} from 'n8n-workflow';

/** What one workflow execution produced, with accessors for the common assertions. */
export class RunResult {
	constructor(
		readonly run: IRun,
		/** Node names in the order their executions finished. */
		readonly executionOrder: string[],
		/** The workflow's static data after the run (what n8n would save). */
		readonly staticData: IDataObject,
		readonly workflow: Workflow,
	) {}

	/** A node as it ran: with the parameter defaults n8n added. */
	node(nodeName: string): INode {
		const node = this.workflow.getNode(nodeName);
		if (node === null) throw new Error(`Node "${nodeName}" is not in the workflow`);
		return node;
	}

	get runData(): IRunData {
		return this.run.data.resultData.runData;
	}

	/** The error that stopped the execution, if any (a plain copy of the thrown error, as n8n stores it). */
	get error(): ExecutionError | undefined {
		return this.run.data.resultData.error;
	}

	get status(): ExecutionStatus {
		return this.run.status;
	}

	ran(nodeName: string): boolean {
		return (this.runData[nodeName]?.length ?? 0) > 0;
	}

	task(nodeName: string, runIndex = 0): ITaskData {
		const task = this.runData[nodeName]?.[runIndex];
		if (task === undefined) {
			throw new Error(
				`Node "${nodeName}" has no run #${runIndex}. Nodes that ran: ${this.executionOrder.join(', ') || 'none'}` +
					(this.error ? `. Execution error: ${this.error.message}` : ''),
			);
		}
		return task;
	}

	/** The error of a node's run (also set for nodes that continued on fail via their error output). */
	errorOf(nodeName: string, runIndex = 0): ExecutionError | undefined {
		return this.task(nodeName, runIndex).error;
	}

	/** All main outputs of a node's run. */
	outputsOf(nodeName: string, runIndex = 0): INodeExecutionData[][] {
		const task = this.task(nodeName, runIndex);
		if (task.error !== undefined && task.data === undefined) {
			throw new Error(`Node "${nodeName}" failed and has no output: ${task.error.message}`);
		}
		return (task.data?.main ?? []).map((items) => items ?? []);
	}

	/** Items of one main output (the first by default) of a node's run (the first by default). */
	outputOf(nodeName: string, outputIndex = 0, runIndex = 0): INodeExecutionData[] {
		return this.outputsOf(nodeName, runIndex)[outputIndex] ?? [];
	}

	/** Content of an item's binary property, whether stored inline or by the BinaryDataService. */
	async binaryOf(item: INodeExecutionData, propertyName = 'data'): Promise<Buffer> {
		const binaryData: IBinaryData | undefined = item.binary?.[propertyName];
		if (binaryData === undefined) throw new Error(`Item has no binary property "${propertyName}"`);
		return await Container.get(BinaryDataService).getAsBuffer(binaryData);
	}
}
