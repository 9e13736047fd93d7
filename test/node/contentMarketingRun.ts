// Support for the Content Marketing node's workflow tests: a sandbox, a harness loading the built package,
// and plain HTTP access to the sandbox's API and control surface to compare the node's output with.
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
import { startSandbox } from '../../sandbox/src/server';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const CREDENTIAL = 'contentMarketingApi';
export const ACCOUNT_A = 'acct_demo000000000001';

export interface Keys {
	full: string;
	read_only: string;
	other_account: string;
	expired: string;
}

export interface HttpAnswer<T = IDataObject> {
	status: number;
	body: T;
}

export interface SandboxRequest {
	method: string;
	path: string;
	/** The raw query string, without `?`. */
	query: string;
	/** Null when no answer was sent (a dropped connection). */
	status: number | null;
}

async function http<T>(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer<T>> {
	const response = await fetch(url, {
		method,
		headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export interface NodeTestBedOptions {
	binaryDataMode?: BinaryDataMode;
	extraNodes?: Record<string, INodeType>;
	/** Reset the sandbox before each test (default); false keeps what the file's own `beforeAll` set up. */
	resetEachTest?: boolean;
	/** Remove the injected faults after each test. */
	clearFaultsEachTest?: boolean;
}

interface Started {
	harness: Harness;
	url: string;
	keys: Keys;
	closeSandbox: () => Promise<void>;
}

/** A running sandbox and a harness whose Content Marketing credential points at it with the `full` key. */
export class NodeTestBed {
	private started?: Started;

	private constructor(private readonly options: NodeTestBedOptions) {}

	/**
	 * The bed of a test file: started before all its tests, closed after them, reset before each test and,
	 * with `clearFaultsEachTest`, cleared of faults after each. Call it at the top of the file, before the
	 * file's own hooks, which then run after these.
	 */
	static forFile(options: NodeTestBedOptions = {}): NodeTestBed {
		const bed = new NodeTestBed(options);
		beforeAll(async () => {
			await bed.start();
		});
		afterAll(async () => {
			await bed.close();
		});
		if (options.resetEachTest !== false) {
			beforeEach(async () => {
				await bed.reset();
			});
		}
		if (options.clearFaultsEachTest === true) {
			afterEach(async () => {
				await bed.control('DELETE', '/_sandbox/faults');
			});
		}
		return bed;
	}

	private async start(): Promise<void> {
		const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
		const keys = (await http<Keys>(`${sandbox.url}/_sandbox/keys`, 'GET')).body;
		await http(`${sandbox.url}/_sandbox/config`, 'PATCH', { rate_limit: null });
		const harness = await createHarness({
			packageRoot: PACKAGE_ROOT,
			binaryDataMode: this.options.binaryDataMode,
			nodeTypes: this.options.extraNodes,
			credentials: { [CREDENTIAL]: { apiKey: keys.full, baseUrl: sandbox.url } },
		});
		this.started = { harness, url: sandbox.url, keys, closeSandbox: async () => await sandbox.close() };
	}

	private get state(): Started {
		if (this.started === undefined) throw new Error('The test bed is not started (use it inside tests and hooks)');
		return this.started;
	}

	get harness(): Harness {
		return this.state.harness;
	}

	get url(): string {
		return this.state.url;
	}

	get keys(): Keys {
		return this.state.keys;
	}

	get nodeType(): string {
		return this.harness.typeName('contentMarketing');
	}

	/** Does nothing when the bed did not start. */
	async close(): Promise<void> {
		if (this.started === undefined) return;
		await this.started.harness.close();
		await this.started.closeSandbox();
	}

	/** Empty store (accounts, users, CTAs and keys kept), plan back to free, request log cleared. */
	async reset(): Promise<void> {
		await this.control('POST', '/_sandbox/reset');
		await this.control('PATCH', `/_sandbox/accounts/${ACCOUNT_A}`, { plan: 'free' });
		await this.control('DELETE', '/_sandbox/requests');
	}

	async api<T = IDataObject>(method: string, apiPath: string, body?: unknown, key = this.keys.full): Promise<HttpAnswer<T>> {
		return await http<T>(`${this.url}${apiPath}`, method, body, { authorization: `Bearer ${key}` });
	}

	async control<T = unknown>(method: string, controlPath: string, body?: unknown): Promise<HttpAnswer<T>> {
		return await http<T>(`${this.url}${controlPath}`, method, body);
	}

	async clearRequests(): Promise<void> {
		await this.control('DELETE', '/_sandbox/requests');
	}

	/** The `/v1` requests the sandbox has seen since the last reset or `clearRequests()`. */
	/** Every lead id of the account, read straight from the API page by page (independent of the node). */
	async allLeadIds(): Promise<string[]> {
		const ids: string[] = [];
		let cursor: string | null = null;
		do {
			const query: string = cursor === null ? '' : `&cursor=${cursor}`;
			const page = await this.api<{ data: Array<{ id: string }>; next_cursor: string | null }>('GET', `/v1/leads?limit=100${query}`);
			ids.push(...page.body.data.map((lead) => lead.id));
			cursor = page.body.next_cursor;
		} while (cursor !== null);
		return ids;
	}

	async requests(): Promise<SandboxRequest[]> {
		return (await this.control<SandboxRequest[]>('GET', '/_sandbox/requests')).body;
	}

	/** Runs the node once, fed with `input` (default: one empty item). */
	async run(parameters: INodeParameters, options: Omit<RunNodeOptions, 'type' | 'parameters'> = {}): Promise<NodeRunResult> {
		return await this.harness.runNode({ type: this.nodeType, parameters, ...options });
	}

	/** A CTA of account A. */
	async ctaId(): Promise<string> {
		const { body } = await this.api<{ data: Array<{ id: string }> }>('GET', '/v1/ctas?limit=1');
		return body.data[0].id;
	}

	/** Creates a resource directly through the API (JSON), optionally published or archived. */
	async createResource(fields: IDataObject, state: 'draft' | 'published' | 'archived' = 'draft'): Promise<IDataObject> {
		const created = await this.api('POST', '/v1/resources', { type: 'article', ...fields });
		if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
		const id = String(created.body.id);
		if (state === 'draft') return created.body;
		const published = await this.api('POST', `/v1/resources/${id}/publish`);
		if (state === 'published') return published.body;
		return (await this.api('POST', `/v1/resources/${id}/archive`)).body;
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
