import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

// How every message about bad input is worded: "<Field>: <problem> [item N]". The messages are shown to
// people in the editor and to AI agents as tool errors, so each says what was expected and what was given.

/** Anything with `getNode()`: execute, load-options and hook contexts. */
export type NodeContext = Pick<IExecuteFunctions, 'getNode'>;

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

/** The message with the input item it is about: `<message> [item N]` (as it is when no item is known). */
export function withItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} [item ${itemIndex}]`;
}

/** "item 3", "items 0–99" or "items 0–4, 7, 9–12": the input items, as ranges. */
export function describeItems(itemIndexes: number[]): string {
	const sorted = [...new Set(itemIndexes)].sort((a, b) => a - b);
	const runs: Array<[number, number]> = [];
	for (const index of sorted) {
		const last = runs[runs.length - 1];
		if (last !== undefined && index === last[1] + 1) last[1] = index;
		else runs.push([index, index]);
	}
	const shown = runs
		.slice(0, 6)
		.map(([from, to]) => (from === to ? String(from) : `${from}–${to}`));
	const rest = runs.length > 6 ? `, … (${sorted.length} items)` : '';
	return `${sorted.length === 1 ? 'item' : 'items'} ${shown.join(', ')}${rest}`;
}

/** The message with the input items it is about: `<message> [items 0–4, 7]`. */
export function withItems(message: string, itemIndexes: number[]): string {
	return `${message} [${describeItems(itemIndexes)}]`;
}

/** The message without a trailing `[item N]` / `[items ...]`, to name other items instead. */
export function withoutItems(message: string): string {
	return message.replace(/ \[items? [^\]]*\]$/, '');
}

const MAX_SHOWN = 80;

/**
 * A given value as a message shows it: text in quotes, numbers and booleans as they are, objects and
 * lists as JSON with their kind named (an expression may give either), "nothing" for no value.
 */
export function describeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	let text: string;
	try {
		text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	} catch {
		text = String(value);
	}
	const shortened = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 3)}...` : text;
	if (typeof value === 'string') return `"${shortened}"`;
	if (Array.isArray(value)) return `a list ${shortened}`;
	if (typeof value === 'object') return `an object ${shortened}`;
	return shortened;
}

/** A NodeOperationError naming the field and the item: `<field>: <problem> [item N]`. */
export function invalidField(
	this: NodeContext,
	field: string,
	problem: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(this.getNode(), withItem(`${field}: ${problem}`, itemIndex), {
		itemIndex,
		description: `Fix the "${field}" parameter of item ${itemIndex}; nothing was sent to the service for this item.`,
	});
}

/** `<field>: expected <expected>, got <value> [item N]`. */
export function unexpectedValue(
	this: NodeContext,
	field: string,
	expected: string,
	value: unknown,
	itemIndex: number,
): NodeOperationError {
	return invalidField.call(
		this,
		field,
		`expected ${expected}, got ${describeValue(value)}`,
		itemIndex,
	);
}
