import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { NodeError } from '../helpers/itemErrors';
import { asNodeError, describeItems } from '../helpers/itemErrors';
import type { TaskOutcome } from '../transport/concurrency';
import { runWithinLimit } from '../transport/concurrency';
import { sessionOf } from '../transport/request';
import { readMaxParallel } from './maxParallel';

// The one item loop every operation goes through: input order, `pairedItem` and Continue On Fail in one
// place, several items' requests in flight at once.

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
 * Runs `task(0)` … `task(count - 1)`, started in order, as many at once as the execution's limit of
 * requests in flight allows (capped by Options › Max Parallel Requests; docs/performance.md). With
 * `stopOnError`, no task starts after one failed; tasks already running finish. Cancelling the execution
 * stops new starts at once.
 */
export async function runInParallel<T>(
	this: IExecuteFunctions,
	count: number,
	task: (index: number) => Promise<T>,
	options: { stopOnError: boolean; maxParallel?: number },
): Promise<Array<TaskOutcome<T>>> {
	const { limit, signal } = sessionOf(this);
	limit.setCap(options.maxParallel ?? readMaxParallel.call(this));
	const { outcomes, cancelled } = await runWithinLimit(
		limit,
		signal,
		count,
		task,
		options.stopOnError,
	);
	// Cancelled while waiting for a slot: the started tasks have ended.
	if (cancelled !== undefined) throw asNodeError(this.getNode(), cancelled.reason);
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
