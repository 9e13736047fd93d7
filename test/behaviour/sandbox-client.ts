// Shared by the behaviour tests: an in-process sandbox and small HTTP helpers over real sockets.
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server';

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
export const DAY = 86_400_000;

export interface Answer<T = unknown> {
	status: number;
	body: T;
}

export class SandboxClient {
	private constructor(
		private readonly sandbox: RunningSandbox,
		readonly keys: Record<string, string>,
	) {}

	static async start(): Promise<SandboxClient> {
		const sandbox = await startSandbox({ port: 0, host: '127.0.0.1' });
		const client = new SandboxClient(sandbox, sandbox.keys);
		await client.control('PATCH', '/_sandbox/config', { rate_limit: null });
		return client;
	}

	close(): Promise<void> {
		return this.sandbox.close();
	}

	async request<T = unknown>(method: string, path: string, body?: unknown, key: string | null = this.keys.full): Promise<Answer<T>> {
		const headers: Record<string, string> = {};
		if (key !== null) headers.authorization = `Bearer ${key}`;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const response = await fetch(this.sandbox.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		return { status: response.status, body: (await response.json()) as T };
	}

	api<T = unknown>(method: string, path: string, body?: unknown, key = this.keys.full): Promise<Answer<T>> {
		return this.request<T>(method, path, body, key);
	}

	control<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
		return this.request<T>(method, path, body, null);
	}

	/** POST /c/{id}/events on the content host, without an API key. */
	track<T = unknown>(resourceId: string, event: Record<string, unknown>): Promise<Answer<T>> {
		return this.request<T>('POST', `/c/${resourceId}/events`, event, null);
	}

	async analytics<T = unknown>(path: string, query: Record<string, string | number> = {}, key = this.keys.full): Promise<T> {
		const answer = await this.api<T>('GET', `/v1/analytics/${path}${queryString(query)}`, undefined, key);
		if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
		return answer.body;
	}

	/** A resource of account A; `published` publishes it, `archived` publishes and archives it. */
	async resource(options: { title: string; status?: 'draft' | 'published'; track_visitors?: boolean; cta?: boolean }): Promise<string> {
		const created = await this.api<{ id: string }>('POST', '/v1/resources', {
			title: options.title,
			type: 'article',
			track_visitors: options.track_visitors ?? true,
			...(options.cta === false ? {} : { cta_id: 'cta_demo00000000a001' }),
		});
		if (created.status !== 201) throw new Error(`create resource: ${JSON.stringify(created.body)}`);
		if ((options.status ?? 'published') === 'published') await this.api('POST', `/v1/resources/${created.body.id}/publish`);
		return created.body.id;
	}

	async now(): Promise<number> {
		const answer = await this.control<{ now: string }>('GET', '/_sandbox/clock');
		return Date.parse(answer.body.now);
	}

	/** Moves the sandbox clock to (just after) `target`; the clock only moves forward. */
	async advanceTo(target: number): Promise<void> {
		const seconds = Math.ceil((target - (await this.now())) / 1000);
		if (seconds <= 0) throw new Error('advanceTo: target is in the past');
		const answer = await this.control('POST', '/_sandbox/clock/advance', { seconds });
		if (answer.status !== 200) throw new Error(`advance: ${JSON.stringify(answer.body)}`);
	}
}

export function queryString(query: Record<string, string | number>): string {
	const entries = Object.entries(query);
	return entries.length ? `?${entries.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}` : '';
}

/** The first instant after `after` at which a local day of a UTC offset (in minutes) begins. */
export function nextLocalMidnight(after: number, offsetMinutes: number): number {
	const offset = offsetMinutes * MINUTE;
	return Math.ceil((after + offset) / DAY) * DAY - offset;
}

/** The local date (YYYY-MM-DD) of an instant at a UTC offset in minutes. */
export function localDate(ms: number, offsetMinutes: number): string {
	return new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, 10);
}
