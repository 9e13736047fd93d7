// The Content Marketing node's workflow tests: the shared sandbox client plus a harness that loads the
// built package with its credential pointing at that sandbox (full key of account A).
import path from 'node:path';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { BinaryDataMode, Harness, NodeRunResult, RunNodeOptions } from '../harness';
import { createHarness } from '../harness';
import { NO_RATE_LIMIT, SandboxClient, withFileHooks } from '../support/sandbox-client';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const CREDENTIAL = 'contentMarketingApi';

export interface NodeTestBedOptions {
	binaryDataMode?: BinaryDataMode;
	extraNodes?: Record<string, INodeType>;
	/** Reset the sandbox before each test (default); false keeps what the file's own `beforeAll` set up. */
	resetEachTest?: boolean;
	/** Remove the injected faults after each test. */
	clearFaultsEachTest?: boolean;
}

/** A running sandbox (no rate limit) and a harness whose Content Marketing credential points at it. */
export class NodeTestBed extends SandboxClient {
	private loaded?: Harness;

	private constructor(private readonly bedOptions: NodeTestBedOptions) {
		super({
			settings: NO_RATE_LIMIT,
			resetEachTest: bedOptions.resetEachTest !== false,
			clearFaultsEachTest: bedOptions.clearFaultsEachTest === true,
		});
	}

	/**
	 * The bed of a test file: started before all its tests, closed after them, reset before each test and,
	 * with `clearFaultsEachTest`, cleared of faults after each. Call it at the top of the file, before the
	 * file's own hooks, which then run after these.
	 */
	static forFile(options: NodeTestBedOptions = {}): NodeTestBed {
		return withFileHooks(new NodeTestBed(options));
	}

	override async start(): Promise<void> {
		await super.start();
		this.loaded = await createHarness({
			packageRoot: PACKAGE_ROOT,
			binaryDataMode: this.bedOptions.binaryDataMode,
			nodeTypes: this.bedOptions.extraNodes,
			credentials: { [CREDENTIAL]: { apiKey: this.keys.full, baseUrl: this.url } },
		});
	}

	/** Does nothing when the bed did not start. */
	override async close(): Promise<void> {
		await this.loaded?.close();
		this.loaded = undefined;
		await super.close();
	}

	get harness(): Harness {
		if (this.loaded === undefined)
			throw new Error('The test bed is not started (use it inside tests and hooks)');
		return this.loaded;
	}

	get nodeType(): string {
		return this.harness.typeName('contentMarketing');
	}

	/** Runs the node once, fed with `input` (default: one empty item). */
	async run(
		parameters: INodeParameters,
		options: Omit<RunNodeOptions, 'type' | 'parameters'> = {},
	): Promise<NodeRunResult> {
		return await this.harness.runNode({ type: this.nodeType, parameters, ...options });
	}
}

export const BIG_FILE_NODE_TYPE = 'n8n-nodes-content-marketing-test.bigFile';

/** Emits one item whose binary field `data` holds `size` bytes, stored by the binary data service. */
export class BigFileNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Big File',
		name: 'bigFile',
		group: ['transform'],
		version: 1,
		description: 'Test node emitting a large binary file',
		defaults: { name: 'Big File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Size', name: 'size', type: 'number', default: 1 },
			{ displayName: 'File Name', name: 'fileName', type: 'string', default: 'big.mp4' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const size = this.getNodeParameter('size', 0) as number;
		const fileName = this.getNodeParameter('fileName', 0) as string;
		const data = await this.helpers.prepareBinaryData(Buffer.alloc(size, 7), fileName, 'video/mp4');
		return [[{ json: {}, binary: { data }, pairedItem: { item: 0 } }]];
	}
}

/** The error message and description of a failed run (the node's error, or the execution's). */
export function errorText(result: NodeRunResult): string {
	const error = result.error as (Error & { description?: string | null }) | undefined;
	return error === undefined ? '' : `${error.message} ${error.description ?? ''}`;
}

/** Name and HTTP code of the error a run failed with (run data holds errors as plain objects). */
export function errorKind(result: NodeRunResult): { name?: string; httpCode?: string | null } {
	const error = result.error as { name?: string; httpCode?: string | null } | undefined;
	return { name: error?.name, httpCode: error?.httpCode };
}

export function jsonOf(result: NodeRunResult): IDataObject[] {
	return result.items.map((item) => item.json);
}

/** Input items with these JSON bodies. */
export const items = (...json: IDataObject[]): INodeExecutionData[] =>
	json.map((entry) => ({ json: entry }));

/** Lead › Create or Update keyed by each item's `email`. */
export const upsert = (
	fields: INodeParameters = {},
	options: INodeParameters = {},
): INodeParameters => ({
	resource: 'lead',
	operation: 'createOrUpdate',
	email: '={{ $json.email }}',
	additionalFields: fields,
	options,
});
