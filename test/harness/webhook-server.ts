import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ENDPOINTS } from './additional-data';
import type { WebhookRequest, WebhookResponse } from './webhook-http';
import { toWebhookRequest, toWebhookResponse } from './webhook-http';

/** `manual`: the editor's test URL (`/webhook-test/...`); `trigger`: the production URL (`/webhook/...`). */
export type WebhookMode = 'manual' | 'trigger';

export interface WebhookRoute {
	mode: WebhookMode;
	/** The path after the endpoint prefix, as n8n stores it (no leading slash). */
	path: string;
	/** Set on requests made by `TriggerHarness.deliver()`, to hand the outcome back to it. */
	deliveryId?: string;
}

/** Handles a request if a trigger owns the route; resolves `false` if none does. */
export type WebhookDispatcher = (
	req: WebhookRequest,
	res: WebhookResponse,
	route: WebhookRoute,
) => Promise<boolean>;

export const DELIVERY_ID_HEADER = 'x-harness-delivery-id';

/** A local HTTP server (127.0.0.1, random port) routing n8n webhook URLs to triggers. */
export class WebhookServer {
	private constructor(
		private readonly server: Server,
		readonly origin: string,
	) {}

	static async start(dispatch: WebhookDispatcher): Promise<WebhookServer> {
		const server = createServer((rawReq, rawRes) => {
			const url = new URL(rawReq.url ?? '/', 'http://127.0.0.1');
			const res = toWebhookResponse(rawRes);
			const route = routeOf(url.pathname);
			if (route === undefined) {
				res.status(404).json({ code: 404, message: `No webhook endpoint at ${url.pathname}` });
				return;
			}
			route.deliveryId = takeDeliveryId(rawReq);
			const req = toWebhookRequest(rawReq, url);
			dispatch(req, res, route).then(
				(handled) => {
					if (!handled && !res.headersSent) {
						res.status(404).json({
							code: 404,
							message: `The requested webhook "${req.method ?? 'GET'} ${route.path}" is not registered.`,
						});
					}
				},
				(error: unknown) => {
					if (!res.headersSent) {
						res
							.status(500)
							.json({ code: 500, message: error instanceof Error ? error.message : String(error) });
					} else {
						res.end();
					}
				},
			);
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => resolve());
		});
		const { port } = server.address() as AddressInfo;
		return new WebhookServer(server, `http://127.0.0.1:${port}`);
	}

	urlFor(route: WebhookRoute): string {
		const prefix = route.mode === 'manual' ? ENDPOINTS.webhookTest : ENDPOINTS.webhook;
		return `${this.origin}/${prefix}/${route.path}`;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve, reject) =>
			this.server.close((error) => (error ? reject(error) : resolve())),
		);
	}
}

function routeOf(pathname: string): WebhookRoute | undefined {
	for (const [mode, prefix] of [
		['manual', ENDPOINTS.webhookTest],
		['trigger', ENDPOINTS.webhook],
	] as const) {
		const start = `/${prefix}/`;
		if (pathname.startsWith(start)) {
			return { mode, path: pathname.slice(start.length).replace(/\/+$/, '') };
		}
	}
	return undefined;
}

/** Removes the harness' own header, so the node sees exactly the headers the test sent. */
function takeDeliveryId(req: IncomingMessage): string | undefined {
	const value = req.headers[DELIVERY_ID_HEADER];
	if (value === undefined) return undefined;
	delete req.headers[DELIVERY_ID_HEADER];
	const index = req.rawHeaders.findIndex(
		(name, i) => i % 2 === 0 && name.toLowerCase() === DELIVERY_ID_HEADER,
	);
	if (index >= 0) req.rawHeaders.splice(index, 2);
	return Array.isArray(value) ? value[0] : value;
}
