import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { NodeError } from '../../helpers/items';
import { asNodeError, errorItem } from '../../helpers/items';
import { getLocatorId } from '../../helpers/locator';
import { apiRequest } from '../../transport';
import { leadLocator } from './fields';

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

export const description = updateDisplayOptions({ show: { resource: ['lead'], operation: ['syncManyToCrm'] } }, properties);

interface Entry {
	itemIndex: number;
	leadId?: string;
	error?: NodeError;
}

type Outcome = { result: IDataObject } | { error: NodeError } | { failure: IDataObject };

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Result entries by lead ID; entries without an ID are matched by position (they come in request order). */
function resultsById(answer: unknown, chunk: string[]): Map<string, IDataObject> {
	const list = Array.isArray(answer)
		? answer
		: isObject(answer)
			? ([answer.results, answer.data].find(Array.isArray) ?? [])
			: [];
	const byId = new Map<string, IDataObject>();
	list.filter(isObject).forEach((entry, position) => {
		const id = typeof entry.lead_id === 'string' ? entry.lead_id : typeof entry.id === 'string' ? entry.id : chunk[position];
		if (id !== undefined) byId.set(id, { ...entry, lead_id: id });
	});
	return byId;
}

function entryError(this: IExecuteFunctions, leadId: string, failure: IDataObject, itemIndex: number): NodeOperationError {
	const error = isObject(failure.error) ? failure.error : {};
	const code = typeof error.code === 'string' ? error.code : 'not_synced';
	const message = typeof error.message === 'string' ? error.message : 'The lead was not synced';
	return new NodeOperationError(this.getNode(), `Lead ${leadId} was not synced: ${message} (${code}) [item ${itemIndex}]`, {
		itemIndex,
		description: 'The other leads of the batch were synced; this one failed in the CRM sync.',
	});
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
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

	const ids = [...new Set(entries.flatMap((entry) => (entry.leadId === undefined ? [] : [entry.leadId])))];
	const outcomes = new Map<string, Outcome>();
	for (let start = 0; start < ids.length; start += BATCH_SIZE) {
		const chunk = ids.slice(start, start + BATCH_SIZE);
		try {
			const answer = await apiRequest.call(this, 'POST', '/v1/leads/batch-sync-crm', { body: { lead_ids: chunk } });
			const results = resultsById(answer, chunk);
			for (const id of chunk) {
				const result = results.get(id);
				if (result === undefined) outcomes.set(id, { failure: { error: { code: 'missing_result', message: 'The service returned no result for this lead' } } });
				else if (result.synced === false) outcomes.set(id, { failure: result });
				else outcomes.set(id, { result });
			}
		} catch (error) {
			const callError = asNodeError(this.getNode(), error);
			if (!continueOnFail) throw callError;
			for (const id of chunk) outcomes.set(id, { error: callError });
		}
	}

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
			outcome !== undefined && 'error' in outcome
				? outcome.error
				: entryError.call(this, leadId, outcome?.failure ?? {}, itemIndex);
		if (!continueOnFail) throw itemError;
		output.push(errorItem(itemError, itemIndex, { lead_id: leadId }));
	}
	return output;
}
