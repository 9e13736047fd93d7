import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sendHttpRequest } from './http-client';
import { sign } from './test-nodes';

export interface RecordedRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

export interface Hook {
	id: string;
	url: string;
	event: string;
	secret: string;
}

/**
 * The external service of the harness tests: echoes requests, fails on /missing, keeps
 * webhook subscriptions under /hooks and can deliver signed events to them.
 */
export class TestApiServer {
	readonly requests: RecordedRequest[] = [];

	readonly hooks = new Map<string, Hook>();

	private readonly server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const recorded: RecordedRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: url.searchParams,
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			this.requests.push(recorded);
			const [status, body] = this.route(recorded);
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(body === undefined ? '' : JSON.stringify(body));
		});
	});

	static async start(): Promise<TestApiServer> {
		const api = new TestApiServer();
		await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
		return api;
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** POSTs a signed event to every subscription, as the real service would. */
	async deliverEvent(payload: object): Promise<number[]> {
		const statuses: number[] = [];
		for (const hook of this.hooks.values()) {
			const body = JSON.stringify(payload);
			const headers = {
				'content-type': 'application/json',
				'x-signature': sign(hook.secret, body),
			};
			statuses.push((await sendHttpRequest(hook.url, 'POST', headers, body)).status);
		}
		return statuses;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private route(request: RecordedRequest): [number, unknown] {
		const { method, path, body } = request;
		if (path === '/missing') return [404, { message: 'No such thing' }];
		if (path === '/login' && method === 'POST') {
			const { username } = JSON.parse(body.toString()) as { username: string };
			return [200, { token: `session-of-${username}` }];
		}
		if (path === '/hooks' && method === 'GET')
			return [200, [...this.hooks.values()].map(({ id, url }) => ({ id, url }))];
		if (path === '/hooks' && method === 'POST') {
			const { url, event } = JSON.parse(body.toString()) as { url: string; event: string };
			const hook: Hook = { id: randomUUID(), url, event, secret: randomUUID() };
			this.hooks.set(hook.id, hook);
			return [201, hook];
		}
		if (path.startsWith('/hooks/') && method === 'DELETE') {
			const deleted = this.hooks.delete(path.slice('/hooks/'.length));
			return deleted ? [204, undefined] : [404, { message: 'No such hook' }];
		}
		return [
			200,
			{
				method,
				path,
				item: Number(request.query.get('item')),
				bytes: body.length,
				text: body.toString(),
				contentType: request.headers['content-type'] ?? null,
			},
		];
	}
}
