// startSandbox: build the app and listen; used by the CLI, the tests and the e2e harness.
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp, type AppOptions } from './app';
import { keyMap } from './fixtures';

export interface StartOptions extends AppOptions {
	/** Default 4010; 0 picks a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
}

export interface RunningSandbox {
	/** Base URL, e.g. http://127.0.0.1:4010 (the API is under /v1, the control surface under /_sandbox). */
	url: string;
	/** The demo API keys: full, read_only, other_account, expired, other_account_read_only. */
	keys: Record<string, string>;
	app: FastifyInstance;
	close(): Promise<void>;
}

export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
	const app = await buildApp(options);
	await app.listen({ port: options.port ?? 4010, host: options.host ?? '127.0.0.1' });
	const address = app.server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host;
	return {
		url: `http://${reachable}:${address.port}`,
		keys: keyMap(),
		app,
		close: () => app.close(),
	};
}
