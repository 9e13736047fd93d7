import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export type NodeError = NodeApiError | NodeOperationError;

/** The error as a NodeApiError/NodeOperationError; with an item index, one that names the item. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, itemIndex === undefined ? message : `${message} [item ${itemIndex}]`, { itemIndex });
}

/** The output item that stands for a failed input item under "Continue On Fail". */
export function errorItem(error: NodeError, itemIndex: number, extra: IDataObject = {}): INodeExecutionData {
	const json: IDataObject = { error: error.message, ...extra };
	if (error.description) json.details = error.description;
	return { json, pairedItem: { item: itemIndex } };
}

/** Output items for one input item: an array answer gives one item each, all paired with the input item. */
export function toItems(result: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(result) ? result : [result];
	return list.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/**
 * Runs `fn` for each input item in order. Every output item is paired with its input item; with
 * "Continue On Fail" a failed item gives `{ error }` and the loop goes on, otherwise the error stops the node.
 */
export async function forEachItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	fn: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			output.push(...toItems(await fn(itemIndex), itemIndex));
		} catch (error) {
			const itemError = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw itemError;
			output.push(errorItem(itemError, itemIndex));
		}
	}
	return output;
}
