// The one test client of the sandbox, shared by every suite: a sandbox started in-process on
// 127.0.0.1 port 0, its demo keys, key-bound views of its API, its control surface
// (docs/api-contract.md §13) and the wire shapes tests read. Plain `fetch` over real sockets:
// nothing of the node's own code is used here.
import { startSandbox, type RunningSandbox, type StartOptions } from '../../sandbox/src/server';
import type { CrmPush, DeliveryLogEntry, RequestLogEntry } from '../../sandbox/src/model';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

// ---- Fixed data of every sandbox (sandbox/src/fixtures.ts) ----

export const ACCOUNT_A = 'acct_demo000000000001';
export const ACCOUNT_B = 'acct_demo000000000002';
export const USER_A_OWNER = 'user_demo00000000a001';
export const USER_B_OWNER = 'user_demo00000000b001';
export const CTA_A = 'cta_demo00000000a001';
export const CTA_B = 'cta_demo00000000b001';
/** Timestamps on the wire: ISO 8601 UTC to the second (docs/api-contract.md §2). */
export const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The demo API keys by role, as `GET /_sandbox/keys` answers them. */
export interface Keys {
	/** Account A, full scope. */
	full: string;
	/** Account A, read-only scope. */
	read_only: string;
	/** Account B, full scope. */
	other_account: string;
	/** Account B, read-only scope. */
	other_account_read_only: string;
	/** Account A, expired. */
	expired: string;
}

/** The control surface (docs/api-contract.md §13): no key needed. */
export const CONTROL = {
	keys: '/_sandbox/keys',
	reset: '/_sandbox/reset',
	seed: '/_sandbox/seed',
	config: '/_sandbox/config',
	faults: '/_sandbox/faults',
	webhookFaults: '/_sandbox/webhook-faults',
	accounts: '/_sandbox/accounts',
	account: (id: string) => `/_sandbox/accounts/${id}`,
	requests: '/_sandbox/requests',
	deliveries: '/_sandbox/deliveries',
	crmPushes: '/_sandbox/crm/pushes',
	clock: '/_sandbox/clock',
	clockAdvance: '/_sandbox/clock/advance',
} as const;

/** Settings for suites that send many requests: no rate limit. */
export const NO_RATE_LIMIT: JsonObject = { rate_limit: null };

// ---- Wire shapes (docs/api-contract.md §3-§10) ----

export interface Answer<T = JsonObject> {
	status: number;
	headers: Headers;
	/** Parsed JSON for a JSON answer, the text otherwise; undefined for an empty body. */
	body: T;
}

export interface ErrorBody {
	error: { code: string; message: string; request_id: string; param?: string };
}

export interface ListPage<T> {
	object: 'list';
	data: T[];
	has_more: boolean;
	next_cursor: string | null;
}

export interface Lead {
	id: string;
	email: string;
	name: string | null;
	company: string | null;
	job_title: string | null;
	phone: string | null;
	status: string;
	score: number;
	source_resource_id: string | null;
	source_channel: string;
	utm: { source: string | null; medium: string | null; campaign: string | null };
	behavior_summary: Record<string, number>;
	custom_fields: Record<string, Json>;
	notes: string | null;
	assigned_to: string | null;
	created_at: string;
	updated_at: string;
}

export interface Resource {
	id: string;
	title: string;
	type: string;
	description: string | null;
	tags: string[];
	cta_id: string | null;
	track_visitors: boolean;
	status: string;
	url: string;
	preview_url: string | null;
	file: { name: string; size: number; mime_type: string } | null;
	created_at: string;
	updated_at: string;
	published_at: string | null;
	archived_at: string | null;
}

export type ResourceState = 'draft' | 'published' | 'archived';

export interface WebhookEndpoint {
	id: string;
	url: string;
	description: string | null;
	events: string[];
	active: boolean;
	status: string;
	created_at: string;
	updated_at: string;
	last_delivery_at: string | null;
	/** Only in the answer that created the endpoint. */
	secret?: string;
}

/** An entry of `GET /_sandbox/requests`: a `/v1` request seen since the last reset. */
export type SandboxRequest = RequestLogEntry;
/** An entry of `GET /_sandbox/deliveries`: one attempt to deliver a webhook event. */
export type DeliveryAttempt = DeliveryLogEntry;
/** An entry of `GET /_sandbox/crm/pushes`. */
export type CrmPushEntry = CrmPush;

// ---- HTTP ----

export interface RequestOptions {
	/** Sent as JSON with `Content-Type: application/json` (unless `headers` name another). */
	json?: unknown;
	/** Sent as is (multipart forms, streams, malformed JSON). */
	body?: RequestInit['body'];
	headers?: Record<string, string>;
	/** Needed when `body` is a stream. */
	duplex?: 'half';
}

/** The sandbox seen with one API key (`null`: no Authorization header, as for `/_sandbox`). */
export class Api {
	constructor(
		readonly baseUrl: string,
		readonly key: string | null,
	) {}

	async call<T = JsonObject>(
		method: string,
		path: string,
		options: RequestOptions = {},
	): Promise<Answer<T>> {
		const headers: Record<string, string> = { ...options.headers };
		if (this.key !== null) headers.Authorization = `Bearer ${this.key}`;
		let body = options.body;
		if (options.json !== undefined) {
			headers['Content-Type'] ??= 'application/json';
			body = JSON.stringify(options.json);
		}
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers,
			body,
			duplex: options.duplex,
		} as RequestInit);
		const text = await response.text();
		const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
		const parsed: unknown = text === '' ? undefined : isJson ? JSON.parse(text) : text;
		const answer = { status: response.status, body: parsed as T } as Answer<T>;
		// Not enumerable, so that a whole answer compares equal to `{ status, body }` in assertions.
		Object.defineProperty(answer, 'headers', { value: response.headers, enumerable: false });
		return answer;
	}

	get<T = JsonObject>(path: string, headers?: Record<string, string>): Promise<Answer<T>> {
		return this.call<T>('GET', path, { headers });
	}

	post<T = JsonObject>(
		path: string,
		json?: unknown,
		headers?: Record<string, string>,
	): Promise<Answer<T>> {
		return this.call<T>('POST', path, { json, headers });
	}

	put<T = JsonObject>(path: string, json?: unknown): Promise<Answer<T>> {
		return this.call<T>('PUT', path, { json });
	}

	patch<T = JsonObject>(path: string, json?: unknown): Promise<Answer<T>> {
		return this.call<T>('PATCH', path, { json });
	}

	delete<T = JsonObject>(path: string, json?: unknown): Promise<Answer<T>> {
		return this.call<T>('DELETE', path, { json });
	}
}

/** Throws with the method, path, status and body unless the answer has the expected status. */
export function expectStatus<T>(answer: Answer<T>, status: number, what: string): Answer<T> {
	if (answer.status !== status)
		throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	return answer;
}

/** Asserts the contract's error envelope (docs/api-contract.md §3) and the matching X-Request-Id header. */
export function expectError(
	answer: Answer<unknown>,
	status: number,
	code: string,
	param?: string,
): ErrorBody['error'] {
	const { error } = answer.body as ErrorBody;
	expect({ status: answer.status, code: error?.code }).toEqual({ status, code });
	expect(error.message).toEqual(expect.any(String));
	expect(error.request_id).toMatch(/^req_[a-z0-9]{16}$/);
	expect(answer.headers.get('x-request-id')).toBe(error.request_id);
	if (param !== undefined) {
		expect(error.param).toBe(param);
		expect(error.message.startsWith(param)).toBe(true);
	}
	return error;
}

/** Resolves when `predicate` holds, reading every `intervalMs` (at most `timeoutMs`). */
export async function waitFor<T>(
	read: () => Promise<T>,
	predicate: (value: T) => boolean,
	timeoutMs = 5000,
	intervalMs = 10,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline)
			throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

export function queryString(query: Record<string, string | number>): string {
	const entries = Object.entries(query);
	return entries.length
		? `?${entries.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`
		: '';
}

// ---- The client ----

export interface SandboxOptions {
	/** How the in-process sandbox starts (plan, demo data); it always listens on 127.0.0.1:0. */
	start?: Omit<StartOptions, 'port' | 'host'>;
	/** `PATCH /_sandbox/config` after start and after every reset done by `resetEachTest`. */
	settings?: JsonObject;
	/** Before each test: `POST /_sandbox/reset` (store, plan, settings, logs), then `settings`. */
	resetEachTest?: boolean;
	/** After each test: `DELETE /_sandbox/faults`. */
	clearFaultsEachTest?: boolean;
}

interface Started {
	running: RunningSandbox;
	keys: Keys;
}

/** A running sandbox, its keys and key-bound views, helpers over its API and control surface. */
export class SandboxClient {
	private started?: Started;

	constructor(readonly options: SandboxOptions = {}) {}

	/** A started client, for code that manages the lifetime itself (call `close()`). */
	static async start(options: SandboxOptions = {}): Promise<SandboxClient> {
		const client = new SandboxClient(options);
		await client.start();
		return client;
	}

	async start(): Promise<void> {
		const running = await startSandbox({ ...this.options.start, port: 0, host: '127.0.0.1' });
		const keys = (await new Api(running.url, null).get<Keys>(CONTROL.keys)).body;
		this.started = { running, keys };
		if (this.options.settings !== undefined) await this.config(this.options.settings);
	}

	/** Does nothing when the sandbox did not start. */
	async close(): Promise<void> {
		await this.started?.running.close();
		this.started = undefined;
	}

	private get state(): Started {
		if (this.started === undefined)
			throw new Error('The sandbox is not started (use it inside tests and hooks)');
		return this.started;
	}

	get url(): string {
		return this.state.running.url;
	}

	get keys(): Keys {
		return this.state.keys;
	}

	/** The API with any key (`null`: none). */
	as(key: string | null): Api {
		return new Api(this.url, key);
	}

	/** Account A, full key. */
	get api(): Api {
		return this.as(this.keys.full);
	}

	/** Account A, read-only key. */
	get readOnly(): Api {
		return this.as(this.keys.read_only);
	}

	/** Account B, full key. */
	get other(): Api {
		return this.as(this.keys.other_account);
	}

	/** Account A, expired key. */
	get expired(): Api {
		return this.as(this.keys.expired);
	}

	/** No key at all. */
	get anonymous(): Api {
		return this.as(null);
	}

	/** The `/_sandbox` control surface (no key). */
	get control(): Api {
		return this.as(null);
	}

	// -- control surface --

	/** `POST /_sandbox/reset`, then the client's `settings` again (reset restores start settings). */
	async reset(): Promise<void> {
		expectStatus(await this.control.post(CONTROL.reset), 200, 'POST /_sandbox/reset');
		if (this.options.settings !== undefined) await this.config(this.options.settings);
	}

	async config(patch: JsonObject): Promise<void> {
		expectStatus(await this.control.patch(CONTROL.config, patch), 200, 'PATCH /_sandbox/config');
	}

	async setFaults(faults: JsonObject): Promise<void> {
		expectStatus(await this.control.put(CONTROL.faults, faults), 200, 'PUT /_sandbox/faults');
	}

	async clearFaults(): Promise<void> {
		await this.control.delete(CONTROL.faults);
	}

	async setPlan(plan: 'free' | 'paid', account = ACCOUNT_A): Promise<void> {
		expectStatus(
			await this.control.patch(CONTROL.account(account), { plan }),
			200,
			'PATCH /_sandbox/accounts',
		);
	}

	async seed(body: JsonObject): Promise<JsonObject> {
		return expectStatus(await this.control.post(CONTROL.seed, body), 201, 'POST /_sandbox/seed')
			.body;
	}

	/** The `/v1` requests the sandbox has seen since the last reset or `clearRequests()`. */
	async requests(): Promise<SandboxRequest[]> {
		return (await this.control.get<SandboxRequest[]>(CONTROL.requests)).body;
	}

	async clearRequests(): Promise<void> {
		await this.control.delete(CONTROL.requests);
	}

	async deliveries(): Promise<DeliveryAttempt[]> {
		return (await this.control.get<DeliveryAttempt[]>(CONTROL.deliveries)).body;
	}

	/** Polls the delivery log until `done` holds (the sandbox delivers asynchronously). */
	async waitForDeliveries(
		done: (attempts: DeliveryAttempt[]) => boolean,
		timeoutMs = 10_000,
	): Promise<DeliveryAttempt[]> {
		return await waitFor(() => this.deliveries(), done, timeoutMs, 50);
	}

	/** The sandbox clock, in ms since the epoch. */
	async now(): Promise<number> {
		return Date.parse((await this.control.get<{ now: string }>(CONTROL.clock)).body.now);
	}

	/** Moves the sandbox clock to (just after) `target` ms; the clock only moves forward. */
	async advanceTo(target: number): Promise<void> {
		const seconds = Math.ceil((target - (await this.now())) / 1000);
		if (seconds <= 0) throw new Error('advanceTo: target is in the past');
		expectStatus(
			await this.control.post(CONTROL.clockAdvance, { seconds }),
			200,
			'POST /_sandbox/clock/advance',
		);
	}

	// -- data through the API --

	/** A lead with a random email (and `fields`), created with `api` (default: account A). */
	async createLead(fields: JsonObject = {}, api: Api = this.api): Promise<Lead> {
		const email = `lead${Math.random().toString(36).slice(2, 8)}@example.com`;
		return expectStatus(
			await api.post<Lead>('/v1/leads', { email, ...fields }),
			201,
			'POST /v1/leads',
		).body;
	}

	async setLeadStatus(leadId: string, status: string): Promise<Lead> {
		return expectStatus(
			await this.api.patch<Lead>(`/v1/leads/${leadId}`, { status }),
			200,
			'PATCH /v1/leads',
		).body;
	}

	/** A resource (default: an article titled "A resource"), published or archived on request. */
	async createResource(
		fields: JsonObject = {},
		state: ResourceState = 'draft',
		api: Api = this.api,
	): Promise<Resource> {
		const created = await api.post<Resource>('/v1/resources', {
			title: 'A resource',
			type: 'article',
			...fields,
		});
		const { id } = expectStatus(created, 201, 'POST /v1/resources').body;
		if (state === 'draft') return created.body;
		const published = expectStatus(
			await api.post<Resource>(`/v1/resources/${id}/publish`),
			200,
			'publish',
		);
		if (state === 'published') return published.body;
		return expectStatus(await api.post<Resource>(`/v1/resources/${id}/archive`), 200, 'archive')
			.body;
	}

	/** Every lead of the key's account, paged through. */
	async allLeads(api: Api = this.api): Promise<Lead[]> {
		const leads: Lead[] = [];
		let cursor: string | null = null;
		do {
			const query: string = cursor === null ? '' : `&cursor=${cursor}`;
			const page: Answer<ListPage<Lead>> = await api.get<ListPage<Lead>>(
				`/v1/leads?limit=100${query}`,
			);
			expectStatus(page, 200, 'GET /v1/leads');
			leads.push(...page.body.data);
			cursor = page.body.next_cursor;
		} while (cursor);
		return leads;
	}

	async allLeadIds(api: Api = this.api): Promise<string[]> {
		return (await this.allLeads(api)).map((lead) => lead.id);
	}

	/** Every webhook endpoint of account A (all pages), optionally only those for one URL. */
	async endpoints(url?: string): Promise<WebhookEndpoint[]> {
		const all: WebhookEndpoint[] = [];
		let cursor: string | null = null;
		do {
			const query = new URLSearchParams({ limit: '100' });
			if (url !== undefined) query.set('url', url);
			if (cursor !== null) query.set('cursor', cursor);
			const page: Answer<ListPage<WebhookEndpoint>> = await this.api.get(
				`/v1/webhooks?${query.toString()}`,
			);
			expectStatus(page, 200, 'GET /v1/webhooks');
			all.push(...page.body.data);
			cursor = page.body.next_cursor;
		} while (cursor !== null);
		return all;
	}

	/** The id of a CTA of account A. */
	async ctaId(): Promise<string> {
		return (await this.api.get<ListPage<{ id: string }>>('/v1/ctas?limit=1')).body.data[0].id;
	}

	/** `POST /c/{id}/events` on the content host (visitor tracking), without an API key. */
	track<T = JsonObject>(resourceId: string, event: Record<string, unknown>): Promise<Answer<T>> {
		return this.anonymous.post<T>(`/c/${resourceId}/events`, event);
	}

	/** `GET /v1/analytics/{path}`: the answer's body, or an error unless it is 200. */
	async analytics<T = JsonObject>(
		path: string,
		query: Record<string, string | number> = {},
		api: Api = this.api,
	): Promise<T> {
		const answer = await api.get<T>(`/v1/analytics/${path}${queryString(query)}`);
		return expectStatus(answer, 200, `GET /v1/analytics/${path}`).body;
	}

	/** A fingerprint of everything accounts A and B hold that a refused request must not change. */
	async snapshot(): Promise<string> {
		const parts: Json[] = [];
		for (const api of [this.api, this.other]) {
			for (const path of [
				'/v1/leads?limit=100',
				'/v1/resources?limit=100',
				'/v1/webhooks?limit=100',
			]) {
				parts.push((await api.get(path)).body);
			}
		}
		parts.push((await this.control.get<Json>(CONTROL.crmPushes)).body);
		parts.push((await this.control.get<Json>(CONTROL.accounts)).body);
		return JSON.stringify(parts);
	}
}

/**
 * Registers the jest hooks of a test file for `client`: started before all tests, closed after
 * them, and per `client.options` reset before each and cleared of faults after each. Call it at
 * the top of the file, before the file's own hooks, which then run after these.
 */
export function withFileHooks<C extends SandboxClient>(client: C): C {
	beforeAll(async () => {
		await client.start();
	});
	afterAll(async () => {
		await client.close();
	});
	if (client.options.resetEachTest === true) {
		beforeEach(async () => {
			await client.reset();
		});
	}
	if (client.options.clearFaultsEachTest === true) {
		afterEach(async () => {
			await client.clearFaults();
		});
	}
	return client;
}

/** The sandbox of one test file (see `withFileHooks`). */
export function useSandbox(options: SandboxOptions = {}): SandboxClient {
	return withFileHooks(new SandboxClient(options));
}
