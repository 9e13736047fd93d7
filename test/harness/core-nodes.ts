import type {
	IBinaryData,
	IBinaryKeyData,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { BINARY_ENCODING, NodeConnectionTypes, UnexpectedError, jsonParse } from 'n8n-workflow';

/** Stand-ins for n8n-nodes-base's Manual Trigger and a Set/Code node, which this package cannot depend on. */
export const START_NODE_TYPE = 'n8n-nodes-harness.manualTrigger';
export const SET_ITEMS_NODE_TYPE = 'n8n-nodes-harness.setItems';

/** A workflow node as tests write it: id, position and typeVersion are filled in by the harness. */
export type WorkflowNode = Omit<INode, 'id' | 'position' | 'typeVersion' | 'parameters'> &
	Partial<Pick<INode, 'id' | 'position' | 'typeVersion' | 'parameters'>>;

/** Inline binary data (base64 in `data`), as a test writes it before the harness stores it. */
export function binary(
	content: Buffer | string,
	{ mimeType, fileName }: { mimeType: string; fileName?: string },
): IBinaryData {
	const buffer = typeof content === 'string' ? Buffer.from(content) : content;
	return { data: buffer.toString(BINARY_ENCODING), mimeType, fileName };
}

/** Start node emitting `items`; inline binary data gets stored by the BinaryDataService, as a trigger's would. */
export function startNode(
	items: INodeExecutionData[] = [{ json: {} }],
	name = 'Start',
): WorkflowNode {
	return { name, type: START_NODE_TYPE, parameters: { items: JSON.stringify(items) } };
}

/** Node that ignores its input and emits `items` (each paired with input item 0 unless it says otherwise). */
export function setItemsNode(name: string, items: INodeExecutionData[]): WorkflowNode {
	return { name, type: SET_ITEMS_NODE_TYPE, parameters: { items: JSON.stringify(items) } };
}

/** Connections for a straight line of nodes: each node's first output into the next node's first input. */
export function chain(...nodeNames: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < nodeNames.length - 1; i++) {
		connections[nodeNames[i]] = {
			main: [[{ node: nodeNames[i + 1], type: NodeConnectionTypes.Main, index: 0 }]],
		};
	}
	return connections;
}

const itemsProperty: INodeTypeDescription['properties'][number] = {
	displayName: 'Items (JSON)',
	name: 'items',
	type: 'string',
	default: '[{"json":{}}]',
};

async function emitItems(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = parseItems(this.getNodeParameter('items', 0) as string);
	const output: INodeExecutionData[] = [];
	for (const item of items) {
		output.push({
			json: item.json,
			binary: item.binary === undefined ? undefined : await storeBinary.call(this, item.binary),
			pairedItem: item.pairedItem ?? { item: 0 },
		});
	}
	return [output];
}

async function storeBinary(
	this: IExecuteFunctions,
	binaryData: IBinaryKeyData,
): Promise<IBinaryKeyData> {
	const stored: IBinaryKeyData = {};
	for (const [key, value] of Object.entries(binaryData)) {
		stored[key] =
			value.id !== undefined
				? value
				: await this.helpers.prepareBinaryData(
						Buffer.from(value.data, BINARY_ENCODING),
						value.fileName,
						value.mimeType,
					);
	}
	return stored;
}

function parseItems(raw: string): INodeExecutionData[] {
	const parsed: unknown = jsonParse(raw);
	if (!Array.isArray(parsed) || !parsed.every(isItem)) {
		throw new UnexpectedError(
			'The "items" parameter must be a JSON array of { json, binary? } items',
		);
	}
	return parsed;
}

function isItem(value: unknown): value is INodeExecutionData {
	return (
		isObject(value) &&
		isObject(value.json) &&
		(value.binary === undefined || isObject(value.binary))
	);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class HarnessManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts a test workflow with fixed items',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [itemsProperty],
	};

	execute = emitItems;
}

export class HarnessSetItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Set Items',
		name: 'setItems',
		group: ['transform'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Set Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [itemsProperty],
	};

	execute = emitItems;
}
