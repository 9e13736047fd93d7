// /_sandbox: what the sandbox saw and sent (docs/api-contract.md §13).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { controlRoute } from '../route';
import type { Sandbox } from '../sandbox';

/** `max`: run at most this many retries, the earliest due first (a check pacing its early retries). */
const retryNowSchema = z
	.object({ max: z.number().int().min(1).optional() })
	.strict()
	.optional();

export function registerLogControl(app: FastifyInstance, sandbox: Sandbox): void {
	const logs = {
		'/_sandbox/requests': sandbox.store.requests,
		'/_sandbox/crm/pushes': sandbox.store.crmPushes,
		'/_sandbox/deliveries': sandbox.store.deliveries,
	};
	for (const [url, entries] of Object.entries(logs)) {
		controlRoute(app, { method: 'GET', url, handler: () => entries });
		controlRoute(app, {
			method: 'DELETE',
			url,
			handler: () => {
				entries.length = 0;
				return { cleared: true };
			},
		});
	}
	controlRoute(app, {
		method: 'POST',
		url: '/_sandbox/deliveries/retry-now',
		body: retryNowSchema,
		handler: ({ body }) => ({ retried: sandbox.webhooks.retryNow(body?.max) }),
	});
}
