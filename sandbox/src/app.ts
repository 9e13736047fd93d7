// buildApp: the whole sandbox service as one Fastify instance (not yet listening).
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createBehaviourHost } from './create-behaviour-host';
import { registerBehaviour } from './behaviour';
import { registerControl } from './control';
import { installHttp } from './http';
import { randomId } from './ids';
import { registerCrmRoutes } from './routes/crm';
import { registerEventRoutes } from './routes/events';
import { registerLeadRoutes } from './routes/leads';
import { registerPublicLink } from './routes/public-link';
import { registerResourceRoutes } from './routes/resources';
import { registerSampleFiles } from './routes/sample-files';
import { registerUserAndCtaRoutes } from './routes/users-ctas';
import { registerWebhookRoutes } from './routes/webhooks';
import { Sandbox, type SandboxOptions } from './sandbox';
import { seedDemo } from './seed';

export interface AppOptions extends SandboxOptions {
	/** Seed the demo data once the app is ready (like POST /_sandbox/seed `{ "demo": true }`). */
	seedDemo?: boolean;
}

/** The origin clients reach the server at: a wildcard bind address is answered as loopback. */
function listeningOrigin(app: FastifyInstance): string {
	const address = app.server.address() as AddressInfo | string | null;
	if (!address || typeof address === 'string') return 'http://127.0.0.1';
	let host = address.address;
	if (host === '0.0.0.0') host = '127.0.0.1';
	if (host === '::') host = '::1';
	return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
	const sandbox = new Sandbox(options);
	const app = Fastify({
		logger: options.logger ?? false,
		genReqId: () => randomId('req'),
		requestIdHeader: false,
		routerOptions: { maxParamLength: 1000 },
		forceCloseConnections: true,
	});
	if (!options.contentHost) sandbox.contentHost = () => listeningOrigin(app);

	installHttp(app, sandbox);
	await app.register(multipart, { throwFileSizeLimit: false });

	registerLeadRoutes(app, sandbox);
	registerCrmRoutes(app, sandbox);
	registerResourceRoutes(app, sandbox);
	registerWebhookRoutes(app, sandbox);
	registerEventRoutes(app, sandbox);
	registerUserAndCtaRoutes(app, sandbox);
	registerPublicLink(app, sandbox);
	registerSampleFiles(app);
	registerControl(app, sandbox);
	sandbox.engine = registerBehaviour(app, createBehaviourHost(sandbox));

	if (options.seedDemo) {
		app.addHook('onReady', async () => {
			seedDemo(sandbox);
		});
	}
	app.addHook('onClose', async () => sandbox.webhooks.cancelAll());
	return app;
}
