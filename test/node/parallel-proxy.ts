// A proxy between the node and the sandbox for the parallel-requests tests: it holds each request for a
// seeded random time, can answer in the sandbox's place or drop the connection after the sandbox
// committed, and records when each request arrived and was answered and how many were in flight at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	url: string;
	body: string;
	headers: http.IncomingHttpHeaders;
	arrivedAt: number;
	answeredAt?: number;
	status?: number;
}

/** What to do with a request: forward it, answer it here, or forward it and drop the connection after. */
export type Rule =
	| 'forward'
	| 'drop-after-forward'
	| { status: number; headers?: Record<string, string>; body?: unknown };

export interface ProxyOptions {
	/** Milliseconds to hold the request before acting on it (default 0). */
	delay?: (request: SeenRequest, index: number) => number;
	rule?: (request: SeenRequest, index: number) => Rule;
}

/** A small deterministic PRNG (mulberry32), so a seed gives the same delays every run. */
export function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class ParallelProxy {
	readonly requests: SeenRequest[] = [];
	options: ProxyOptions = {};
	maxInFlight = 0;
	private inFlight = 0;

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
		private readonly target: string,
	) {}

	static async start(target: string): Promise<ParallelProxy> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		const proxy = new ParallelProxy(server, `http://127.0.0.1:${port}`, target);
		server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
			void proxy.handle(req, res);
		});
		return proxy;
	}

	reset(options: ProxyOptions = {}): void {
		this.requests.length = 0;
		this.options = options;
		this.maxInFlight = 0;
		this.inFlight = 0;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		this.inFlight++;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const seen: SeenRequest = {
			method: req.method ?? 'GET',
			url: req.url ?? '/',
			body: Buffer.concat(chunks).toString('utf8'),
			headers: req.headers,
			arrivedAt: Date.now(),
		};
		const index = this.requests.push(seen) - 1;
		const delay = this.options.delay?.(seen, index) ?? 0;
		if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
		const rule = this.options.rule?.(seen, index) ?? 'forward';
		try {
			if (rule !== 'forward' && rule !== 'drop-after-forward') {
				this.answer(
					seen,
					res,
					rule.status,
					{ 'content-type': 'application/json', ...rule.headers },
					JSON.stringify(rule.body ?? {}),
				);
				return;
			}
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers)) {
				if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
					headers[name] = value;
			}
			let upstream: Response;
			let text: string;
			try {
				upstream = await fetch(`${this.target}${seen.url}`, {
					method: seen.method,
					headers,
					body: seen.body === '' ? undefined : seen.body,
				});
				text = await upstream.text();
			} catch {
				// The sandbox dropped the connection (fault drop_rate): so does the proxy.
				req.socket.destroy();
				return;
			}
			if (rule === 'drop-after-forward') {
				seen.answeredAt = Date.now();
				req.socket.destroy();
				return;
			}
			const answerHeaders: Record<string, string> = {};
			upstream.headers.forEach((value, name) => {
				if (
					!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)
				)
					answerHeaders[name] = value;
			});
			this.answer(seen, res, upstream.status, answerHeaders, text);
		} finally {
			this.inFlight--;
		}
	}

	private answer(
		seen: SeenRequest,
		res: http.ServerResponse,
		status: number,
		headers: Record<string, string>,
		body: string,
	): void {
		seen.answeredAt = Date.now();
		seen.status = status;
		res.writeHead(status, headers);
		res.end(body);
	}
}
