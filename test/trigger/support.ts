import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Harness, StaticDataStore, TriggerHarness } from '../harness';
import { createHarness } from '../harness';
import type { DeliveryLogEntry } from '../../sandbox/src/model';
import { startSandbox } from '../../sandbox/src/server';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const CREDENTIAL = 'contentMarketingApi';
export const TRIGGER_NAME = 'contentMarketingTrigger';

export interface SandboxHandle {
	url: string;
	close(): Promise<void>;
}

export interface Keys {
	full: string;
	read_only: string;
	other_account: string;
	expired: string;
}

export interface Endpoint {
	id: string;
	url: string;
	description: string | null;
	events: string[];
	active: boolean;
	secret?: string;
}

/** An entry of the sandbox's delivery log (`GET /_sandbox/deliveries`). */
export type DeliveryAttempt = DeliveryLogEntry;

export interface HttpAnswer<T> {
	status: number;
	body: T;
}

export const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox settings of the trigger tests: no rate limit, webhook URLs on plain http allowed. */
const TEST_CONFIG = { rate_limit: null, allow_http_webhooks: true };
/** Redeliveries 300 ms apart, so that retries happen within a test. */
export const FAST_RETRIES = { webhook_retry_delays_ms: [300, 300, 300, 300, 300] };

/** A sandbox, its keys, and plain HTTP access to its API and control surface. */
export class SandboxClient {
	private started?: { handle: SandboxHandle; keys: Keys };

	private constructor() {}

	/**
	 * The sandbox of a test file: started before all its tests and closed after them. Before each test its
	 * data is reset and its settings are set to the test settings plus `config`. Call it at the top of the
	 * file, before the file's own hooks, which then run after these.
	 */
	static forFile(config: IDataObject = {}): SandboxClient {
		const client = new SandboxClient();
		beforeAll(async () => {
			await client.start();
		});
		afterAll(async () => {
			await client.close();
		});
		beforeEach(async () => {
			await client.control('POST', '/_sandbox/reset');
			await client.control('PATCH', '/_sandbox/config', { ...TEST_CONFIG, ...config });
		});
		return client;
	}

	private async start(): Promise<void> {
		const handle = (await startSandbox({ port: 0, host: '127.0.0.1' })) as SandboxHandle;
		const keys = (await control<Keys>(handle.url, 'GET', '/_sandbox/keys')).body;
		this.started = { handle, keys };
		await this.control('PATCH', '/_sandbox/config', { ...TEST_CONFIG, ...FAST_RETRIES });
	}

	private get state(): { handle: SandboxHandle; keys: Keys } {
		if (this.started === undefined) throw new Error('The sandbox is not started (use it inside tests and hooks)');
		return this.started;
	}

	get keys(): Keys {
		return this.state.keys;
	}

	get url(): string {
		return this.state.handle.url;
	}

	/** Does nothing when the sandbox did not start. */
	async close(): Promise<void> {
		await this.started?.handle.close();
	}

	async api<T = IDataObject>(method: string, path: string, body?: unknown, key = this.keys.full): Promise<HttpAnswer<T>> {
		return await request<T>(`${this.url}${path}`, method, body, { authorization: `Bearer ${key}` });
	}

	async control<T = unknown>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
		return await control<T>(this.url, method, path, body);
	}

	/** Every endpoint of account A (all pages), optionally only those for one URL. */
	async endpoints(url?: string): Promise<Endpoint[]> {
		const all: Endpoint[] = [];
		let cursor: string | null = null;
		do {
			const query = new URLSearchParams({ limit: '100' });
			if (url !== undefined) query.set('url', url);
			if (cursor !== null) query.set('cursor', cursor);
			const { status, body } = await this.api<{ data: Endpoint[]; next_cursor: string | null }>(
				'GET',
				`/v1/webhooks?${query.toString()}`,
			);
			if (status !== 200) throw new Error(`GET /v1/webhooks answered ${status}`);
			all.push(...body.data);
			cursor = body.next_cursor;
		} while (cursor !== null);
		return all;
	}

	async deliveries(): Promise<DeliveryAttempt[]> {
		return (await this.control<DeliveryAttempt[]>('GET', '/_sandbox/deliveries')).body;
	}

	/** Polls the delivery log until `done` holds (the sandbox delivers asynchronously). */
	async waitForDeliveries(
		done: (attempts: DeliveryAttempt[]) => boolean,
		timeoutMs = 10_000,
	): Promise<DeliveryAttempt[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const attempts = await this.deliveries();
			if (done(attempts)) return attempts;
			if (Date.now() > deadline) throw new Error(`Deliveries not as expected: ${JSON.stringify(attempts)}`);
			await sleep(50);
		}
	}

	async createLead(fields: IDataObject = {}): Promise<IDataObject> {
		const email = `lead-${randomBytes(4).toString('hex')}@example.com`;
		const { status, body } = await this.api('POST', '/v1/leads', { email, name: 'Ada Lovelace', ...fields });
		if (status !== 201) throw new Error(`POST /v1/leads answered ${status}: ${JSON.stringify(body)}`);
		return body;
	}

	async setStatus(leadId: string, status: string): Promise<void> {
		const answer = await this.api('PATCH', `/v1/leads/${leadId}`, { status });
		if (answer.status !== 200) throw new Error(`PATCH lead answered ${answer.status}`);
	}
}

async function control<T>(url: string, method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
	return await request<T>(`${url}${path}`, method, body, {});
}

async function request<T>(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<HttpAnswer<T>> {
	const init: RequestInit = { method, headers: { ...headers } };
	if (body !== undefined) {
		init.body = JSON.stringify(body);
		(init.headers as Record<string, string>)['content-type'] = 'application/json';
	}
	const response = await fetch(url, init);
	const text = await response.text();
	return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** A harness with the built package loaded, its credential pointing at the sandbox. */
export async function harnessFor(sandbox: SandboxClient, options: { serve?: boolean; origin?: string } = {}): Promise<Harness> {
	const harness = await createHarness({
		packageRoot: PACKAGE_ROOT,
		origin: options.origin,
		credentials: { [CREDENTIAL]: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } },
	});
	if (options.serve === true) await harness.serveWebhooks();
	return harness;
}

export function triggerOf(
	harness: Harness,
	parameters: INodeParameters,
	extra: { staticData?: IDataObject; staticDataStore?: StaticDataStore; webhookId?: string } = {},
): TriggerHarness {
	return harness.trigger({ type: harness.typeName(TRIGGER_NAME), parameters, ...extra });
}

/** The node's record for one URL in its static data: `seen` maps event ids to when first seen. */
export interface EndpointRecord {
	id: string;
	secret: string;
	seen: Record<string, number>;
}

/** The node's record for one URL in its static data (what `create` stored). */
export function recordFor(trigger: TriggerHarness, url: string): EndpointRecord | undefined {
	const endpoints = trigger.nodeStaticData.endpoints as IDataObject | undefined;
	return endpoints?.[url] as EndpointRecord | undefined;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

/** Contract §10, computed here independently of the node: `t=<unix>,v1=<hex HMAC-SHA256(secret, t.body)>`. */
export function sign(secret: string, body: string, timestamp = unixNow()): string {
	const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
	return `t=${timestamp},v1=${digest}`;
}

export function eventId(): string {
	return `evt_${randomBytes(8).toString('hex')}`;
}

/** A delivery body shaped like the sandbox's (contract §10). */
export function eventBody(type: string, lead: IDataObject, extra: IDataObject = {}): string {
	return JSON.stringify({
		id: eventId(),
		type,
		created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
		api_version: 'v1',
		account_id: 'acct_demo000000000001',
		data: { lead, ...extra },
	});
}

export function leadFixture(fields: IDataObject = {}): IDataObject {
	return {
		id: `lead_${randomBytes(8).toString('hex')}`,
		email: 'grace@example.com',
		name: 'Grace Hopper',
		status: 'new',
		source_resource_id: null,
		...fields,
	};
}

export const signedHeaders = (signature: string, name = 'CM-Signature') => ({
	'content-type': 'application/json',
	[name]: signature,
});
