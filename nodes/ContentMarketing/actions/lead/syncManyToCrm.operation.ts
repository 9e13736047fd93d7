import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { NodeError } from '../../helpers/itemErrors';
import {
	asNodeError,
	describeItems,
	withItem,
	withItems,
	withoutItems,
} from '../../helpers/itemErrors';
import { errorItem, runInParallel } from '../itemLoop';
import { getLocatorId } from '../locator';
import { isObject, trimmedText } from '../../helpers/values';
import { apiRequest } from '../../transport';
import { serviceApiError } from '../../transport/errors';
import { leadLocator } from './fields';
import { byId, type OperationExample } from '../types';

/** The service accepts at most 100 leads per batch call. */
export const BATCH_SIZE = 100;

const properties: INodeProperties[] = [
	{
		...leadLocator,
		default: { mode: 'id', value: '' },
		description:
			'The lead of each input item. All input items are synced together, in calls of up to 100 leads; a lead given by several items is synced once.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['syncManyToCrm'] } },
	properties,
);

interface Entry {
	itemIndex: number;
	leadId?: string;
	error?: NodeError;
}

/** A batch call that failed as a whole: its error and the input items whose leads it carried. */
interface ChunkFailure {
	error: NodeError;
	itemIndexes: number[];
	/** Whether other batches of this run were synced. */
	afterSyncedBatches: boolean;
}

type Outcome = { result: IDataObject } | { chunkFailure: ChunkFailure } | { failure: IDataObject };

/** Result entries by lead ID; entries without an ID are matched by position (they come in request order). */
function resultsById(answer: unknown, chunk: string[]): Map<string, IDataObject> {
	const list = Array.isArray(answer)
		? answer
		: isObject(answer)
			? ([answer.results, answer.data].find(Array.isArray) ?? [])
			: [];
	const byId = new Map<string, IDataObject>();
	list.filter(isObject).forEach((entry, position) => {
		const id =
			typeof entry.lead_id === 'string'
				? entry.lead_id
				: typeof entry.id === 'string'
					? entry.id
					: chunk[position];
		if (id !== undefined) byId.set(id, { ...entry, lead_id: id });
	});
	return byId;
}

/** The HTTP status a failed result entry stands for (an entry has a code, no status of its own). */
const STATUS_BY_CODE: Record<string, number> = {
	invalid_params: 400,
	unauthorized: 401,
	forbidden: 403,
	not_found: 404,
	conflict: 409,
	invalid_state: 409,
	crm_not_configured: 409,
	rate_limited: 429,
};

function entryStatus(code: string): number {
	return STATUS_BY_CODE[code] ?? (code.startsWith('invalid') ? 400 : 500);
}

/** A failed entry of the batch result as the service's error (NodeApiError with its code and message). */
function entryError(
	this: IExecuteFunctions,
	leadId: string,
	failure: IDataObject,
	itemIndex: number,
): NodeApiError {
	const error = isObject(failure.error) ? failure.error : {};
	const code = trimmedText(error.code) ?? 'not_synced';
	const message = trimmedText(error.message) ?? 'The lead was not synced';
	const status =
		typeof error.status === 'number' && error.status >= 400 ? error.status : entryStatus(code);
	const apiError = serviceApiError(
		this.getNode(),
		{
			status,
			code,
			message,
			requestId: trimmedText(error.request_id),
			param: trimmedText(error.param),
		},
		itemIndex,
	);
	// One batch carries many leads: the message names the lead of this item.
	apiError.message = withItem(`Lead ${leadId} was not synced: ${message} (${code})`, itemIndex);
	apiError.description = [
		apiError.description,
		'The batch call succeeded; the result for this lead reports a failure, the other leads have their own results.',
	]
		.filter(Boolean)
		.join(' · ');
	return apiError;
}

/**
 * The error of a failed batch call for the items it carried: for one item (`itemIndex`, Continue On Fail)
 * or, without it, for the whole chunk, naming its items.
 */
function chunkError(this: IExecuteFunctions, failure: ChunkFailure, itemIndex?: number): NodeError {
	const { error, itemIndexes, afterSyncedBatches } = failure;
	const items = describeItems(itemIndexes);
	const message =
		itemIndex === undefined
			? withItems(withoutItems(error.message), itemIndexes)
			: withItem(withoutItems(error.message), itemIndex);
	const description = [
		error.description,
		`The whole batch call failed: none of the leads of ${items} was synced.`,
		itemIndex === undefined && afterSyncedBatches
			? 'The leads of the other batches sent were synced.'
			: undefined,
	]
		.filter(Boolean)
		.join(' · ');
	const index = itemIndex ?? Math.min(...itemIndexes);
	if (error instanceof NodeApiError) {
		return new NodeApiError(
			this.getNode(),
			(error.errorResponse ?? { message: error.message }) as JsonObject,
			{
				message,
				description,
				httpCode: error.httpCode ?? undefined,
				itemIndex: index,
			},
		);
	}
	return new NodeOperationError(this.getNode(), message, { description, itemIndex: index });
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const continueOnFail = this.continueOnFail();

	// Every item is validated before the first request.
	const entries: Entry[] = items.map((_item, itemIndex) => {
		try {
			return { itemIndex, leadId: getLocatorId.call(this, 'leadId', itemIndex, 'lead', 'Lead') };
		} catch (error) {
			const itemError = asNodeError(this.getNode(), error, itemIndex);
			if (!continueOnFail) throw itemError;
			return { itemIndex, error: itemError };
		}
	});

	const ids = [
		...new Set(entries.flatMap((entry) => (entry.leadId === undefined ? [] : [entry.leadId]))),
	];
	const outcomes = new Map<string, Outcome>();
	const chunks: string[][] = [];
	for (let start = 0; start < ids.length; start += BATCH_SIZE)
		chunks.push(ids.slice(start, start + BATCH_SIZE));
	// The batches are sent in parallel like items (Options › Max Parallel Requests); the first failed one stops new ones.
	const answers = await runInParallel.call(
		this,
		chunks.length,
		async (index) =>
			await apiRequest.call(this, 'POST', '/v1/leads/batch-sync-crm', {
				body: { lead_ids: chunks[index] },
			}),
		{ stopOnError: !continueOnFail },
	);
	const synced = answers.some((answer) => answer !== undefined && 'value' in answer);
	chunks.forEach((chunk, index) => {
		const answer = answers[index];
		if (answer === undefined) return;
		if ('value' in answer) {
			const results = resultsById(answer.value, chunk);
			for (const id of chunk) {
				const result = results.get(id);
				if (result === undefined)
					outcomes.set(id, {
						failure: {
							error: {
								code: 'missing_result',
								message: 'The service returned no result for this lead',
							},
						},
					});
				else if (result.synced === false) outcomes.set(id, { failure: result });
				else outcomes.set(id, { result });
			}
			return;
		}
		const inChunk = new Set(chunk);
		const chunkFailure: ChunkFailure = {
			error: asNodeError(this.getNode(), answer.error),
			// Every item whose lead was in the chunk, repeated leads included.
			itemIndexes: entries.flatMap((entry) =>
				entry.leadId !== undefined && inChunk.has(entry.leadId) ? [entry.itemIndex] : [],
			),
			afterSyncedBatches: synced,
		};
		if (!continueOnFail) throw chunkError.call(this, chunkFailure);
		for (const id of chunk) outcomes.set(id, { chunkFailure });
	});

	const output: INodeExecutionData[] = [];
	for (const { itemIndex, leadId, error } of entries) {
		if (error !== undefined || leadId === undefined) {
			if (error !== undefined) output.push(errorItem(error, itemIndex));
			continue;
		}
		const outcome = outcomes.get(leadId);
		if (outcome !== undefined && 'result' in outcome) {
			output.push({ json: outcome.result, pairedItem: { item: itemIndex } });
			continue;
		}
		const itemError =
			outcome !== undefined && 'chunkFailure' in outcome
				? chunkError.call(this, outcome.chunkFailure, itemIndex)
				: entryError.call(this, leadId, outcome?.failure ?? {}, itemIndex);
		if (!continueOnFail) throw itemError;
		output.push(errorItem(itemError, itemIndex, { lead_id: leadId }));
	}
	return output;
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ leadId: byId('={{ $json.id }}') }),
	input: (ids) => [{ id: ids.leadId }],
};
