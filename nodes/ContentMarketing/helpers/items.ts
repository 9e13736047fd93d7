import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEFAULT_MAX_PARALLEL, MAX_PARALLEL_LIMIT } from '../transport/concurrency';
import { describeItems, withItem } from './itemErrors';
import { readInteger } from './values';
import { sessionOf } from '../transport/session';

export type NodeError = NodeApiError | NodeOperationError;

/** The error as a NodeApiError/NodeOperationError; with an item index, one that names the item. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined)
			error.context.itemIndex = itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, withItem(message, itemIndex), { itemIndex });
}

/** The output item that stands for a failed input item under "Continue On Fail". */
export function errorItem(
	error: NodeError,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData {
	const json: IDataObject = { error: error.message, ...extra };
	if (error.description) json.details = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Appends the output items of one input item to `output`: an array answer gives one item each, all
 * paired with the input item. Appended in place: a Return All of 50,000 leads makes no second list.
 */
export function pushItems(
	output: INodeExecutionData[],
	result: IDataObject | IDataObject[],
	itemIndex: number,
): void {
	if (!Array.isArray(result)) {
		output.push({ json: result, pairedItem: { item: itemIndex } });
		return;
	}
	for (const json of result) output.push({ json, pairedItem: { item: itemIndex } });
}

/**
 * Options › Max Parallel Requests, read once (it cannot differ per item): the cap of the adaptive limit.
 * Operations without the option run with the default.
 */
export function readMaxParallel(this: IExecuteFunctions): number {
	const value = this.getNodeParameter(
		'options.maxParallelRequests',
		0,
		DEFAULT_MAX_PARALLEL,
	) as unknown;
	return readInteger.call(this, value, 'Max Parallel Requests', 0, {
		min: 1,
		max: MAX_PARALLEL_LIMIT,
	});
}

/** The outcome of one task of `runInParallel`; `undefined` for a task that was never started. */
export type TaskOutcome<T> = { value: T } | { error: unknown } | undefined;

/**
 * Runs `task(0)` … `task(count - 1)`, started in order, as many at once as the execution's adaptive limit
 * allows (docs/api-contract.md §9; docs/performance.md). With `stopOnError`, no task
 * starts after one failed; tasks already running finish. Cancelling the execution stops new starts at once.
 */
export async function runInParallel<T>(
	this: IExecuteFunctions,
	count: number,
	task: (index: number) => Promise<T>,
	options: { stopOnError: boolean; maxParallel?: number },
): Promise<Array<TaskOutcome<T>>> {
	const { limit, signal } = sessionOf(this);
	limit.setCap(options.maxParallel ?? readMaxParallel.call(this));
	const outcomes: Array<TaskOutcome<T>> = new Array<TaskOutcome<T>>(count).fill(undefined);
	const running = new Set<Promise<void>>();
	let failed = false;
	for (let index = 0; index < count && !failed; index++) {
		try {
			await limit.acquire(signal);
		} catch (error) {
			// Cancelled while waiting for a slot: let the started tasks end, then report.
			await Promise.all(running);
			throw asNodeError(this.getNode(), error);
		}
		if (failed) {
			limit.release();
			break;
		}
		const run = (async () => {
			try {
				outcomes[index] = { value: await task(index) };
			} catch (error) {
				outcomes[index] = { error };
				if (options.stopOnError) failed = true;
			} finally {
				limit.release();
			}
		})();
		running.add(run);
		void run.finally(() => running.delete(run));
	}
	await Promise.all(running);
	return outcomes;
}

/**
 * Runs `fn` for each input item, several items' requests in flight at once (Options › Max Parallel
 * Requests). Output is in input order and every output item is paired with its input item. With
 * "Continue On Fail" a failed item gives `{ error }` in its place and the others go on; otherwise the first
 * failure (in input order) stops the node: nothing new starts, running items finish, and the error says
 * which other items had already been sent.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const continueOnFail = this.continueOnFail();
	const outcomes = (await runInParallel.call(this, items.length, fn, {
		stopOnError: !continueOnFail,
	})) as Array<TaskOutcome<IDataObject | IDataObject[]>>;
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < outcomes.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome === undefined) continue;
		if ('value' in outcome) {
			pushItems(output, outcome.value, itemIndex);
			continue;
		}
		const itemError = asNodeError(this.getNode(), outcome.error, itemIndex);
		if (continueOnFail) {
			output.push(errorItem(itemError, itemIndex));
			continue;
		}
		throw withOthersSent(itemError, itemIndex, outcomes);
	}
	return output;
}

/** The stopping error, telling which other items had already been sent (their changes are made). */
function withOthersSent<T>(
	error: NodeError,
	failedIndex: number,
	outcomes: Array<TaskOutcome<T>>,
): NodeError {
	const started = outcomes.flatMap((outcome, index) =>
		outcome !== undefined && index !== failedIndex ? [index] : [],
	);
	if (started.length === 0) return error;
	const succeeded = started.filter((index) => {
		const outcome = outcomes[index];
		return outcome !== undefined && 'value' in outcome;
	}).length;
	// the counts stand apart from the item numbers, so "3 succeeded" is never read as "item 3 succeeded"
	const note =
		`The node stopped at item ${failedIndex}; ${started.length} other ${started.length === 1 ? 'item had' : 'items had'} already been sent: ` +
		`${describeItems(started)}. Of those, ${succeeded} succeeded and ${started.length - succeeded} failed. Check them before running the node again.`;
	error.description = [error.description, note].filter(Boolean).join(' · ');
	return error;
}
