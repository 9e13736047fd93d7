// A programmable HTTP proxy between the node and the sandbox: it records what the node sent and can answer
// in its place, drop the connection after the sandbox processed a request, or rewrite the sandbox's answer
// (to exercise the tolerated response forms of docs/api-contract.md §11).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
	method: string;
	/** Path and query, e.g. /v1/leads?limit=100. */
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface Answer {
	status: number;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string as is. */
	body?: unknown;
}

/** What to do with one request: forward it, answer it here, or forward it and then drop the connection. */
export type Decision = 'forward' | 'drop-after-forward' | Answer;

export interface ProxyRules {
	/** Holds the request here until the promise settles, then decides on it (e.g. until a test lets it go). */
	hold?: (request: ProxiedRequest, index: number) => Promise<void> | undefined;
	/** Holds the service's answer here until the promise settles, then passes it on. */
	holdAnswer?: (request: ProxiedRequest, index: number) => Promise<void> | undefined;
	decide?: (request: ProxiedRequest, index: number) => Decision;
	/** Rewrites the sandbox's answer (status, JSON body) before it reaches the node. */
	transform?: (
		request: ProxiedRequest,
		answer: { status: number; body: unknown; headers: Record<string, string> },
	) => Answer;
}

export class ApiProxy {
	readonly requests: ProxiedRequest[] = [];

	rules: ProxyRules = {};

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
		private readonly target: string,
	) {}

	static async start(target: string): Promise<ApiProxy> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const proxy = new ApiProxy(server, `http://127.0.0.1:${port}`, target);
		server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
			void proxy.handle(req, res);
		});
		return proxy;
	}

	reset(rules: ProxyRules = {}): void {
		this.requests.length = 0;
		this.rules = rules;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const request: ProxiedRequest = {
			method: req.method ?? 'GET',
			url: req.url ?? '/',
			headers: req.headers,
			body: Buffer.concat(chunks).toString('utf8'),
		};
		const index = this.requests.push(request) - 1;
		await this.rules.hold?.(request, index);
		const decision = this.rules.decide?.(request, index) ?? 'forward';
		if (decision !== 'forward' && decision !== 'drop-after-forward') {
			send(res, decision);
			return;
		}

		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
				headers[name] = value;
		}
		const upstream = await fetch(`${this.target}${request.url}`, {
			method: request.method,
			headers,
			body: request.body === '' ? undefined : request.body,
		});
		const text = await upstream.text();
		await this.rules.holdAnswer?.(request, index);
		if (decision === 'drop-after-forward') {
			req.socket.destroy();
			return;
		}
		const upstreamHeaders: Record<string, string> = {};
		upstream.headers.forEach((value, name) => {
			if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
				upstreamHeaders[name] = value;
		});
		let body: unknown = text;
		try {
			body = text === '' ? undefined : (JSON.parse(text) as unknown);
		} catch {
			body = text;
		}
		const answer = this.rules.transform?.(request, {
			status: upstream.status,
			body,
			headers: upstreamHeaders,
		}) ?? {
			status: upstream.status,
			headers: upstreamHeaders,
			body,
		};
		send(res, answer);
	}
}

function send(res: http.ServerResponse, answer: Answer): void {
	const isText = typeof answer.body === 'string';
	const payload =
		answer.body === undefined ? '' : isText ? (answer.body as string) : JSON.stringify(answer.body);
	const headers = { ...answer.headers };
	if (
		!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type') &&
		payload !== ''
	) {
		headers['content-type'] = isText ? 'text/plain' : 'application/json';
	}
	res.writeHead(answer.status, headers);
	res.end(payload);
}
