import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	WebhookType,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, createRunExecutionData } from 'n8n-workflow';

import type { HttpRequestSlot, HttpResponseSlot } from './additional-data';
import { createAdditionalData } from './additional-data';
import type { Deferred } from './deferred';
import { deferred } from './deferred';
import type { HarnessContext } from './harness-context';
import { triggerNodeJson } from './harness-context';
import { sendHttpRequest } from './http-client';
import type { WebhookRequest, WebhookResponse } from './webhook-http';
import type { WebhookMode, WebhookRoute, WebhookServer } from './webhook-server';
import { DELIVERY_ID_HEADER } from './webhook-server';
import {
	getNodeWebhooks,
	parseRequestBody,
	onReceivedAnswer,
	respondStoreError,
	respondWebhookError,
	responseCode,
	runWebhook,
	sendAnswer,
} from './webhook-service';
import {
	DEFAULT_WORKFLOW_ID,
	createWorkflow,
	persistableStaticData,
	workflowBase,
} from './workflow';

export interface TriggerOptions {
	type: string;
	typeVersion?: number;
	parameters?: INodeParameters;
	/** Defaults to "Trigger". */
	name?: string;
	/** Credential type -> id; left out, every listed type the harness holds data for is attached. */
	credentials?: Record<string, string>;
	/** Initial workflow static data (what n8n would have loaded from the database). */
	staticData?: IDataObject;
	/**
	 * The database row the static data lives in, shared with other triggers to play several n8n
	 * processes of one workflow (queue mode); `staticData` is ignored when given.
	 */
	staticDataStore?: StaticDataStore;
	webhookId?: string;
	/**
	 * n8n storing the execution of an accepted call (what WorkflowRunner.run does before the answer):
	 * throwing plays a database that refuses the write, awaiting one that stalls.
	 */
	storeExecution?: StoreExecution;
}

export type StoreExecution = (items: INodeExecutionData[]) => Promise<void> | void;

/** Where a workflow's static data is persisted; each save replaces `data` whole (last write wins). */
export interface StaticDataStore {
	data: IDataObject;
	/**
	 * The database's time for one save, between serializing the data and the write landing (as n8n's
	 * UPDATE takes): saves in flight together can land in any order.
	 */
	saveLatency?: () => Promise<void>;
}

export interface DeliveryRequest {
	/** `trigger` (production URL, default) or `manual` (test URL). */
	mode?: WebhookMode;
	webhookName?: WebhookType;
	/** Defaults to the webhook's (first) HTTP method. */
	method?: IHttpRequestMethods;
	headers?: Record<string, string>;
	/** Objects are sent as JSON (with a JSON content-type unless one is given). */
	body?: string | Buffer | IDataObject | IDataObject[];
	query?: Record<string, string>;
}

/** What the trigger's `webhook()` did with one request. */
export interface Delivery {
	mode: WebhookMode;
	webhookName: WebhookType;
	headers: IncomingHttpHeaders;
	rawBody?: Buffer;
	body: unknown;
	/** What `webhook()` returned; `undefined` if it threw. */
	response?: IWebhookResponseData;
	/** Items of the first output the trigger emitted (empty if it started no execution). */
	items: INodeExecutionData[];
	error?: Error;
}

export interface DeliveryResult extends Delivery {
	status: number;
	responseHeaders: IncomingHttpHeaders;
	responseBody: string;
}

interface ModeSettings {
	execute: WorkflowExecuteMode;
	activation: WorkflowActivateMode;
	isTest: boolean;
}

/** How n8n's TestWebhooks (`manual`) and ActiveWorkflowManager (`trigger`) call the setup methods. */
const MODES: Record<WebhookMode, ModeSettings> = {
	manual: { execute: 'manual', activation: 'manual', isTest: true },
	trigger: { execute: 'trigger', activation: 'activate', isTest: false },
};

/** n8n deletes webhooks in `internal` mode with activation `update` (ActiveWorkflowManager.clearWebhooks). */
const DELETE_MODE = { execute: 'internal', activation: 'update' } as const;

/**
 * One trigger node in a workflow of its own. Each call builds a fresh `Workflow` from the static
 * data the previous calls left behind, as n8n loads it from the database.
 */
export class TriggerHarness {
	readonly name: string;

	readonly deliveries: Delivery[] = [];

	private readonly json: INode;

	private readonly store: StaticDataStore;

	private readonly pending = new Map<string, Deferred<Delivery>>();

	private readonly waiters: Array<(delivery: Delivery) => void> = [];

	/** See TriggerOptions.storeExecution; settable between deliveries. */
	storeExecution: StoreExecution | undefined;

	constructor(
		private readonly context: HarnessContext,
		private readonly server: () => Promise<WebhookServer>,
		options: TriggerOptions,
	) {
		this.name = options.name ?? 'Trigger';
		this.json = triggerNodeJson(context, { ...options, name: this.name });
		this.store = options.staticDataStore ?? { data: structuredClone(options.staticData ?? {}) };
		this.storeExecution = options.storeExecution;
	}

	/** The node as n8n runs it (parameter defaults applied). */
	get node(): INode {
		return this.workflow().nodes[this.name];
	}

	/** The persisted workflow static data (a copy). */
	get staticData(): IDataObject {
		return structuredClone(this.store.data);
	}

	/** The persisted static data of this node (`getWorkflowStaticData('node')`). */
	get nodeStaticData(): IDataObject {
		const data = this.store.data[`node:${this.name}`];
		return isDataObject(data) ? structuredClone(data) : {};
	}

	/** The URL n8n registers for this webhook in this mode (`this.getNodeWebhookUrl(name)` in a HookContext). */
	webhookUrl(mode: WebhookMode, webhookName: WebhookType = 'default'): string {
		const workflow = this.workflow();
		const context = this.hookContext(
			workflow,
			this.webhook(workflow, mode, webhookName),
			MODES[mode],
		);
		const url = context.getNodeWebhookUrl(webhookName);
		if (url === undefined) throw new UnexpectedError(`Node has no "${webhookName}" webhook`);
		return url;
	}

	async checkExists(mode: WebhookMode, webhookName: WebhookType = 'default'): Promise<boolean> {
		return await this.runSetupMethod('checkExists', mode, webhookName);
	}

	async create(mode: WebhookMode, webhookName: WebhookType = 'default'): Promise<boolean> {
		return await this.runSetupMethod('create', mode, webhookName);
	}

	async delete(mode: WebhookMode, webhookName: WebhookType = 'default'): Promise<boolean> {
		return await this.runSetupMethod('delete', mode, webhookName);
	}

	/** WebhookService.createWebhookIfNotExists for every webhook of the node. */
	async activate(mode: WebhookMode): Promise<void> {
		for (const { webhookDescription } of this.webhooks(this.workflow(), mode)) {
			if (!(await this.checkExists(mode, webhookDescription.name))) {
				await this.create(mode, webhookDescription.name);
			}
		}
	}

	/** WebhookService.deleteWebhook for every webhook of the node. */
	async deactivate(mode: WebhookMode): Promise<void> {
		for (const { webhookDescription } of this.webhooks(this.workflow(), mode)) {
			await this.delete(mode, webhookDescription.name);
		}
	}

	/** Sends a real HTTP request to the webhook's path on the harness' server and reports what happened. */
	async deliver(request: DeliveryRequest = {}): Promise<DeliveryResult> {
		const mode = request.mode ?? 'trigger';
		const webhookData = this.webhook(this.workflow(), mode, request.webhookName ?? 'default');
		const url = new URL((await this.server()).urlFor({ mode, path: webhookData.path }));
		for (const [key, value] of Object.entries(request.query ?? {}))
			url.searchParams.set(key, value);

		const id = randomUUID();
		const outcome = deferred<Delivery>();
		this.pending.set(id, outcome);
		try {
			const { body, headers } = encodeRequest(request);
			const method = request.method ?? webhookData.httpMethod;
			const response = await sendHttpRequest(
				url,
				method,
				{ ...headers, [DELIVERY_ID_HEADER]: id },
				body,
			);
			const delivery = await outcome.promise;
			return {
				...delivery,
				status: response.status,
				responseHeaders: response.headers,
				responseBody: response.body,
			};
		} finally {
			this.pending.delete(id);
		}
	}

	/** Resolves with the next delivery (e.g. one an external service sends to a registered URL). */
	async nextDelivery(timeoutMs = 5000): Promise<Delivery> {
		return await new Promise<Delivery>((resolve, reject) => {
			const settle = (delivery: Delivery) => {
				clearTimeout(timer);
				resolve(delivery);
			};
			const timer = setTimeout(() => {
				this.waiters.splice(this.waiters.indexOf(settle), 1);
				reject(new Error(`No webhook delivery to "${this.name}" within ${timeoutMs} ms`));
			}, timeoutMs);
			this.waiters.push(settle);
		});
	}

	/** The node's webhook serving this route and method, if any. */
	matches(route: WebhookRoute, method: string | undefined): IWebhookData | undefined {
		return this.webhooks(this.workflow(), route.mode).find(
			(webhook) => webhook.path === route.path && webhook.httpMethod === method,
		);
	}

	/** Runs the node's `webhook()` for a request, then answers it as n8n's executeWebhook does. */
	async handle(
		req: WebhookRequest,
		res: WebhookResponse,
		route: WebhookRoute,
		webhookData: IWebhookData,
	): Promise<void> {
		const workflow = this.workflow();
		const node = workflow.nodes[this.name];
		const executeMode: WorkflowExecuteMode = route.mode === 'manual' ? 'manual' : 'webhook';
		const additionalData = createAdditionalData({
			credentialsHelper: this.context.credentials,
			urls: this.context.urls(),
			executionId: this.context.nextExecutionId(DEFAULT_WORKFLOW_ID),
			httpRequest: req as unknown as HttpRequestSlot,
			httpResponse: res as unknown as HttpResponseSlot,
		});
		const delivery: Delivery = {
			mode: route.mode,
			webhookName: webhookData.webhookDescription.name,
			headers: { ...req.headers },
			body: undefined,
			items: [],
		};

		try {
			await parseRequestBody(req, node, workflow, executeMode);
		} catch (error) {
			delivery.error = error instanceof Error ? error : new Error(String(error));
			res
				.status(422)
				.json({ code: 422, message: 'Failed to parse request body', hint: delivery.error.message });
			this.record(delivery, route);
			return;
		}
		delivery.body = req.body;
		delivery.rawBody = req.rawBody;

		try {
			const context = new WebhookContext(
				workflow,
				node,
				additionalData,
				executeMode,
				{ ...webhookData, workflowExecuteAdditionalData: additionalData },
				[],
				null,
			);
			delivery.response = await runWebhook(this.nodeType(workflow), context);
		} catch (error) {
			delivery.error = error instanceof Error ? error : new Error(String(error));
			respondWebhookError(res);
			this.record(delivery, route);
			return;
		}
		const { response } = delivery;
		const items = response.workflowData?.[0] ?? [];
		if (response.workflowData !== undefined && response.noWebhookResponse !== true) {
			// executeWebhook: WorkflowRunner.run stores the execution, then the answer is built, then
			// the live-webhooks callback saves static data, then the answer goes out.
			try {
				await this.storeExecution?.(items);
			} catch (error) {
				delivery.error = error instanceof Error ? error : new Error(String(error));
				respondStoreError(res);
				this.record(delivery, route);
				return;
			}
		}
		delivery.items = items;
		const answer = onReceivedAnswer(
			res,
			response,
			responseCode(webhookData),
			webhookData.webhookDescription.responseData,
		);
		await this.persist(workflow);
		sendAnswer(res, answer);
		this.record(delivery, route);
	}

	/**
	 * Runs a stored execution of items this trigger emitted, as n8n runs one after storing it: the
	 * trigger's node first, with the items as its input; static data saved after, if the run changed it.
	 * `recovered`: as n8n 2.41 re-runs at start one a kill left `new`, from the stored workflow snapshot,
	 * which has no static data. `mode`: `webhook` (a production run, default) or `manual` (the run a test
	 * webhook starts). `meanwhile`: what happens while the run's later steps go on, after the trigger's
	 * step and before n8n saves the static data the run loaded at its start. Resolves to the trigger's output.
	 */
	async runExecution(
		items: INodeExecutionData[],
		{
			recovered = false,
			mode = 'webhook',
			meanwhile,
		}: {
			recovered?: boolean;
			mode?: WorkflowExecuteMode;
			meanwhile?: () => Promise<void>;
		} = {},
	): Promise<INodeExecutionData[]> {
		const workflow = recovered
			? createWorkflow(
					{ id: DEFAULT_WORKFLOW_ID, nodes: [this.json], connections: {}, staticData: {} },
					this.context.nodeTypes,
				)
			: this.workflow();
		const node = workflow.nodes[this.name];
		const executionId = this.context.nextExecutionId(DEFAULT_WORKFLOW_ID);
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowBase(workflow));
		const finished = deferred<IRun>();
		hooks.addHandler('workflowExecuteAfter', (run) => finished.resolve(run));
		const additionalData = createAdditionalData({
			credentialsHelper: this.context.credentials,
			urls: this.context.urls(),
			executionId,
			hooks,
		});
		const runData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main: [items] }, source: null }] },
		});
		await new WorkflowExecute(additionalData, mode, runData).processRunExecutionData(workflow);
		const run = await finished.promise;
		await meanwhile?.();
		if (!recovered) await this.persist(workflow);
		const error = run.data.resultData.error;
		if (error !== undefined) throw error;
		return run.data.resultData.runData[this.name]?.[0]?.data?.main?.[0] ?? [];
	}

	private record(delivery: Delivery, route: WebhookRoute): void {
		this.deliveries.push(delivery);
		if (route.deliveryId !== undefined) this.pending.get(route.deliveryId)?.resolve(delivery);
		for (const settle of this.waiters.splice(0)) settle(delivery);
	}

	private async runSetupMethod(
		method: WebhookSetupMethodNames,
		mode: WebhookMode,
		webhookName: WebhookType,
	): Promise<boolean> {
		const workflow = this.workflow();
		const setupMethod = this.nodeType(workflow).webhookMethods?.[webhookName]?.[method];
		if (setupMethod === undefined) {
			throw new UnexpectedError(
				`Node type "${this.json.type}" has no webhookMethods.${webhookName}.${method}`,
			);
		}
		const settings = method === 'delete' ? { ...MODES[mode], ...DELETE_MODE } : MODES[mode];
		const context = this.hookContext(workflow, this.webhook(workflow, mode, webhookName), settings);
		const result = await setupMethod.call(context);
		await this.persist(workflow);
		return result;
	}

	private hookContext(
		workflow: Workflow,
		webhookData: IWebhookData,
		settings: ModeSettings,
	): HookContext {
		return new HookContext(
			workflow,
			workflow.nodes[this.name],
			webhookData.workflowExecuteAdditionalData,
			settings.execute,
			settings.activation,
			{ ...webhookData, isTest: settings.isTest },
		);
	}

	private workflow(): Workflow {
		return createWorkflow(
			{ id: DEFAULT_WORKFLOW_ID, nodes: [this.json], connections: {}, staticData: this.store.data },
			this.context.nodeTypes,
		);
	}

	private nodeType(workflow: Workflow): INodeType {
		const node = workflow.nodes[this.name];
		return this.context.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	}

	/** additionalData outside an execution, as n8n builds it for activation. */
	private additionalData(): IWorkflowExecuteAdditionalData {
		return createAdditionalData({
			credentialsHelper: this.context.credentials,
			urls: this.context.urls(),
		});
	}

	private webhooks(workflow: Workflow, mode: WebhookMode): IWebhookData[] {
		const node = workflow.nodes[this.name];
		return getNodeWebhooks(
			workflow,
			node,
			this.nodeType(workflow),
			this.additionalData(),
			MODES[mode].isTest,
		);
	}

	private webhook(workflow: Workflow, mode: WebhookMode, webhookName: WebhookType): IWebhookData {
		const webhookData = this.webhooks(workflow, mode).find(
			(w) => w.webhookDescription.name === webhookName,
		);
		if (webhookData === undefined)
			throw new UnexpectedError(`Node "${this.name}" has no "${webhookName}" webhook`);
		return webhookData;
	}

	/** WorkflowStaticDataService.saveStaticData: stores only what a node changed. */
	private async persist(workflow: Workflow): Promise<void> {
		if (workflow.staticData.__dataChanged !== true) return;
		const data = persistableStaticData(workflow);
		await this.store.saveLatency?.();
		this.store.data = data;
	}
}

function encodeRequest(request: DeliveryRequest): {
	body?: Buffer;
	headers: Record<string, string>;
} {
	const headers = { ...request.headers };
	const { body } = request;
	if (body === undefined) return { headers };
	if (Buffer.isBuffer(body)) return { body, headers };
	if (typeof body === 'string') return { body: Buffer.from(body), headers };
	if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
		headers['content-type'] = 'application/json';
	}
	return { body: Buffer.from(JSON.stringify(body)), headers };
}

function isDataObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
