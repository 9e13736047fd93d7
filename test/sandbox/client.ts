// A tiny HTTP client for the sandbox conformance tests: Node's global fetch against a sandbox started
// in-process on 127.0.0.1 port 0.
import { startSandbox, type RunningSandbox, type StartOptions } from '../../sandbox/src/server';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Answer<T = JsonObject> {
	status: number;
	headers: Headers;
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
	secret?: string;
}

export interface RequestInitLite {
	json?: unknown;
	body?: RequestInit['body'];
	headers?: Record<string, string>;
	duplex?: 'half';
}

export class Api {
	constructor(
		readonly baseUrl: string,
		readonly key: string | null,
	) {}

	async call<T = JsonObject>(method: string, path: string, init: RequestInitLite = {}): Promise<Answer<T>> {
		const headers: Record<string, string> = { ...init.headers };
		if (this.key !== null) headers.Authorization = `Bearer ${this.key}`;
		let body = init.body;
		if (init.json !== undefined) {
			headers['Content-Type'] ??= 'application/json';
			body = JSON.stringify(init.json);
		}
		const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, duplex: init.duplex });
		const text = await response.text();
		const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
		return { status: response.status, headers: response.headers, body: (isJson ? JSON.parse(text) : text) as T };
	}

	get<T = JsonObject>(path: string, headers?: Record<string, string>): Promise<Answer<T>> {
		return this.call<T>('GET', path, { headers });
	}

	post<T = JsonObject>(path: string, json?: unknown, headers?: Record<string, string>): Promise<Answer<T>> {
		return this.call<T>('POST', path, { json, headers });
	}

	put<T = JsonObject>(path: string, json?: unknown): Promise<Answer<T>> {
		return this.call<T>('PUT', path, { json });
	}

	patch<T = JsonObject>(path: string, json?: unknown): Promise<Answer<T>> {
		return this.call<T>('PATCH', path, { json });
	}

	delete<T = JsonObject>(path: string): Promise<Answer<T>> {
		return this.call<T>('DELETE', path);
	}
}

/** Asserts the contract's error envelope (§3) and the matching X-Request-Id header. */
export function expectError(answer: Answer<unknown>, status: number, code: string, param?: string): ErrorBody['error'] {
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

export const ACCOUNT_A = 'acct_demo000000000001';
export const ACCOUNT_B = 'acct_demo000000000002';
export const USER_A_OWNER = 'user_demo00000000a001';
export const USER_B_OWNER = 'user_demo00000000b001';
export const CTA_A = 'cta_demo00000000a001';
export const CTA_B = 'cta_demo00000000b001';
export const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A sandbox for one test file: started in beforeAll, closed in afterAll. */
export class TestSandbox {
	private running: RunningSandbox | undefined;
	/** Full key of account A. */
	api!: Api;
	readOnly!: Api;
	other!: Api;
	expired!: Api;
	anonymous!: Api;
	/** The /_sandbox control surface (no key). */
	control!: Api;
	keys!: Record<string, string>;

	get url(): string {
		if (!this.running) throw new Error('sandbox not started');
		return this.running.url;
	}

	async start(options: StartOptions): Promise<void> {
		this.running = await startSandbox({ port: 0, host: '127.0.0.1', ...options });
		const keys = (await new Api(this.running.url, null).get<Record<string, string>>('/_sandbox/keys')).body;
		this.keys = keys;
		this.api = new Api(this.running.url, keys.full);
		this.readOnly = new Api(this.running.url, keys.read_only);
		this.other = new Api(this.running.url, keys.other_account);
		this.expired = new Api(this.running.url, keys.expired);
		this.anonymous = new Api(this.running.url, null);
		this.control = new Api(this.running.url, null);
	}

	async close(): Promise<void> {
		await this.running?.close();
	}

	async reset(): Promise<void> {
		expect((await this.control.post('/_sandbox/reset')).status).toBe(200);
	}

	async config(patch: JsonObject): Promise<void> {
		expect((await this.control.patch('/_sandbox/config', patch)).status).toBe(200);
	}

	async createLead(fields: JsonObject = {}, api: Api = this.api): Promise<Lead> {
		const answer = await api.post<Lead>('/v1/leads', { email: `lead${Math.random().toString(36).slice(2, 8)}@example.com`, ...fields });
		expect(answer.status).toBe(201);
		return answer.body;
	}

	async createResource(fields: JsonObject = {}, api: Api = this.api): Promise<Resource> {
		const answer = await api.post<Resource>('/v1/resources', { title: 'A resource', type: 'article', ...fields });
		expect(answer.status).toBe(201);
		return answer.body;
	}

	/** Every lead of account A, paged through. */
	async allLeads(): Promise<Lead[]> {
		const leads: Lead[] = [];
		let cursor: string | null = null;
		do {
			const query: string = cursor ? `&cursor=${cursor}` : '';
			const page: Answer<ListPage<Lead>> = await this.api.get<ListPage<Lead>>(`/v1/leads?limit=100${query}`);
			expect(page.status).toBe(200);
			leads.push(...page.body.data);
			cursor = page.body.next_cursor;
		} while (cursor);
		return leads;
	}

	/** A fingerprint of everything account A and B hold that a bad request must not change. */
	async snapshot(): Promise<string> {
		const parts: Json[] = [];
		for (const api of [this.api, this.other]) {
			for (const path of ['/v1/leads?limit=100', '/v1/resources?limit=100', '/v1/webhooks?limit=100']) {
				parts.push((await api.get(path)).body);
			}
		}
		parts.push((await this.control.get<Json>('/_sandbox/crm/pushes')).body);
		parts.push((await this.control.get<Json>('/_sandbox/accounts')).body);
		return JSON.stringify(parts);
	}
}

export function useSandbox(options: StartOptions = {}): TestSandbox {
	const sandbox = new TestSandbox();
	beforeAll(() => sandbox.start(options));
	afterAll(() => sandbox.close());
	return sandbox;
}

/** Resolves when `predicate` holds, polling every 10 ms (at most `timeoutMs`). */
export async function waitFor<T>(read: () => Promise<T>, predicate: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
