import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeCredentialsDetails,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessUrls } from './additional-data';
import { DEFAULT_ORIGIN, urlsFor } from './additional-data';
import type { BinaryDataMode } from './binary-data';
import { initBinaryDataService } from './binary-data';
import {
	HarnessManualTrigger,
	HarnessSetItems,
	SET_ITEMS_NODE_TYPE,
	START_NODE_TYPE,
} from './core-nodes';
import { HarnessCredentialTypes } from './credential-types';
import { HarnessCredentialsHelper } from './credentials-helper';
import type { HarnessContext } from './harness-context';
import type { AnyNodeType } from './node-types';
import { HarnessNodeTypes } from './node-types';
import type { LoadedPackage } from './package-loader';
import { loadPackage } from './package-loader';
import type { NodeRunResult, RunNodeOptions } from './run-node';
import { runNode } from './run-node';
import type { RunResult } from './run-result';
import type { RunOptions } from './run-workflow';
import { runWorkflow } from './run-workflow';
import type { PollOptions } from './poll';
import { PollHarness } from './poll';
import type { TriggerOptions } from './trigger';
import { TriggerHarness } from './trigger';
import type { WebhookRequest, WebhookResponse } from './webhook-http';
import type { WebhookRoute } from './webhook-server';
import { WebhookServer } from './webhook-server';
import type { WorkflowJson } from './workflow';

export interface HarnessOptions {
	/** A package root whose package.json lists built nodes/credentials (`n8n.nodes`, `n8n.credentials`). */
	packageRoot?: string;
	/** Extra node types by full type name, e.g. test-only nodes. */
	nodeTypes?: Record<string, AnyNodeType>;
	/** Extra credential types. */
	credentialTypes?: ICredentialType[];
	/** Decrypted credential data by credential type; stored under id "1". */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Default `filesystem` (under N8N_USER_FOLDER); the first harness of a test file decides. */
	binaryDataMode?: BinaryDataMode;
	/** Origin of the URLs in additionalData (default http://localhost:5678) until `serveWebhooks()`. */
	origin?: string;
}

/** Runs nodes in n8n-core's execution engine. One per test file (or per test); `close()` it afterwards. */
export class Harness {
	readonly nodeTypes = new HarnessNodeTypes();

	readonly credentialTypes = new HarnessCredentialTypes();

	readonly credentials = new HarnessCredentialsHelper(this.credentialTypes);

	/** What was loaded from `packageRoot`, if given. */
	loadedPackage?: LoadedPackage;

	private origin: string;

	private server?: Promise<WebhookServer>;

	private readonly triggers: TriggerHarness[] = [];

	private readonly executions: Array<{ workflowId: string; executionId: string }> = [];

	private executionCounter = 0;

	private readonly context: HarnessContext;

	constructor(options: Pick<HarnessOptions, 'origin'> = {}) {
		this.origin = options.origin ?? DEFAULT_ORIGIN;
		this.nodeTypes.add(START_NODE_TYPE, new HarnessManualTrigger());
		this.nodeTypes.add(SET_ITEMS_NODE_TYPE, new HarnessSetItems());
		this.context = {
			nodeTypes: this.nodeTypes,
			credentials: this.credentials,
			urls: () => this.urls(),
			nextExecutionId: (workflowId) => {
				const executionId = `${process.pid}-${Date.now()}-${++this.executionCounter}`;
				this.executions.push({ workflowId, executionId });
				return executionId;
			},
		};
	}

	urls(): HarnessUrls {
		return urlsFor(this.origin);
	}

	/** `<package name>.<node name>` for a node of the loaded package. */
	typeName(nodeName: string): string {
		if (this.loadedPackage === undefined) throw new UnexpectedError('No package was loaded');
		return `${this.loadedPackage.packageName}.${nodeName}`;
	}

	addNodeType(typeName: string, type: AnyNodeType): void {
		this.nodeTypes.add(typeName, type);
	}

	addCredentialType(type: ICredentialType): void {
		this.credentialTypes.add(type);
	}

	setCredentials(
		type: string,
		data: ICredentialDataDecryptedObject,
		options?: { id?: string; name?: string },
	): INodeCredentialsDetails {
		return this.credentials.set(type, data, options);
	}

	/** Runs a workflow (nodes + connections) and returns its run data. */
	async run(workflow: WorkflowJson, options?: RunOptions): Promise<RunResult> {
		return await runWorkflow(this.context, workflow, options);
	}

	/** Runs one node fed by a start node emitting `options.input`. */
	async runNode(options: RunNodeOptions): Promise<NodeRunResult> {
		return await runNode(this.context, options);
	}

	/** A polling trigger node of an active workflow, polled the way n8n polls it. */
	poller(options: PollOptions): PollHarness {
		return new PollHarness(this.context, options);
	}

	/** A trigger node ready for its webhook lifecycle (checkExists/create/delete) and deliveries. */
	trigger(options: TriggerOptions): TriggerHarness {
		const trigger = new TriggerHarness(this.context, async () => await this.startServer(), options);
		this.triggers.push(trigger);
		return trigger;
	}

	/**
	 * Starts the local webhook server and points every base URL at it, so URLs that triggers
	 * register from now on reach this process. Call it before `create()`.
	 */
	async serveWebhooks(): Promise<WebhookServer> {
		const server = await this.startServer();
		this.origin = server.origin;
		return server;
	}

	/**
	 * Stops the webhook server, deletes the binary data of this harness' executions and runs
	 * n8n's shutdown hook of the SSH client manager, whose 60 s sweep timer every node execution
	 * starts and which would otherwise keep jest from exiting.
	 */
	async close(): Promise<void> {
		Container.get(SSHClientsManager).onShutdown();
		const server = this.server;
		this.server = undefined;
		if (server !== undefined) await (await server).close();
		const locations = this.executions.splice(0).map(({ workflowId, executionId }) => ({
			type: 'execution' as const,
			workflowId,
			executionId,
		}));
		await Container.get(BinaryDataService).deleteMany(locations);
	}

	private async startServer(): Promise<WebhookServer> {
		this.server ??= WebhookServer.start(
			async (req, res, route) => await this.dispatch(req, res, route),
		);
		return await this.server;
	}

	private async dispatch(
		req: WebhookRequest,
		res: WebhookResponse,
		route: WebhookRoute,
	): Promise<boolean> {
		for (const trigger of this.triggers) {
			const webhookData = trigger.matches(route, req.method);
			if (webhookData !== undefined) {
				await trigger.handle(req, res, route, webhookData);
				return true;
			}
		}
		return false;
	}
}

/** Creates a harness: binary data service initialised, package and extra types loaded, credentials stored. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	await initBinaryDataService(options.binaryDataMode ?? 'filesystem');
	const harness = new Harness(options);
	if (options.packageRoot !== undefined) {
		harness.loadedPackage = await loadPackage(
			options.packageRoot,
			harness.nodeTypes,
			harness.credentialTypes,
		);
	}
	for (const [typeName, type] of Object.entries(options.nodeTypes ?? {}))
		harness.addNodeType(typeName, type);
	for (const type of options.credentialTypes ?? []) harness.addCredentialType(type);
	for (const [type, data] of Object.entries(options.credentials ?? {}))
		harness.setCredentials(type, data);
	return harness;
}
