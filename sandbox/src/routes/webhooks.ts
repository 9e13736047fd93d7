// Webhook endpoints (docs/api-contract.md §10): CRUD, event types and the test operation.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findOwned } from '../auth';
import type { RequestAuth } from '../behaviour/host';
import { randomToken } from '../ids';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../model';
import { paginate, pagingQuery } from '../paging';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { boolQuery } from '../validation';
import { webhookView } from '../views';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Why the URL is refused, or null: https with a host; http only for loopback hosts while allowed (docs/api-contract.md §13). */
function urlProblem(value: string, allowHttp: boolean): string | null {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'must be an absolute https:// URL';
	}
	if (url.protocol === 'https:') return url.hostname ? null : 'must have a host';
	if (url.protocol === 'http:' && allowHttp && LOOPBACK.test(url.hostname)) return null;
	if (url.protocol === 'http:') {
		return allowHttp
			? 'must be an https:// URL (http:// is accepted for loopback hosts only)'
			: 'must be an https:// URL';
	}
	return 'must be an https:// URL';
}

const events = z
	.array(z.enum(WEBHOOK_EVENT_TYPES))
	.min(1)
	.max(10)
	.superRefine((types, ctx) => {
		types.forEach((type, index) => {
			if (types.indexOf(type) !== index)
				ctx.addIssue({ code: 'custom', path: [index], message: 'duplicate event type' });
		});
	});

const description = z.string().max(500).nullable();

const listQuery = z
	.object({
		url: z.string().min(1).max(2048).optional(),
		event: z.enum(WEBHOOK_EVENT_TYPES).optional(),
		active: boolQuery.optional(),
		...pagingQuery,
	})
	.strict();

const eventTypesQuery = z.object(pagingQuery).strict();

export function registerWebhookRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	const url = z
		.string()
		.max(2048)
		.superRefine((value, ctx) => {
			const problem = urlProblem(value, sandbox.config.allow_http_webhooks);
			if (problem) ctx.addIssue({ code: 'custom', message: problem });
		});
	const createBody = z
		.object({ url, description: description.optional(), events, active: z.boolean().default(true) })
		.strict();
	const patchBody = z
		.object({ url, description, events, active: z.boolean() })
		.strict()
		.partial()
		.refine((body) => Object.keys(body).length > 0, {
			message: 'at least one of url, description, events, active is required',
		});
	const find = (id: string, auth: RequestAuth) =>
		findOwned(sandbox.store.webhooks, id, auth, 'webhook endpoint');

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/webhooks/event-types',
		query: eventTypesQuery,
		handler: ({ query }) =>
			paginate(
				WEBHOOK_EVENT_TYPES.map((type) => ({
					id: type,
					type,
					description: WEBHOOK_EVENT_DESCRIPTIONS[type],
				})),
				{ ...query, sort: 'type', order: 'asc' },
				(entry) => entry.type,
				({ type, description: text }) => ({ type, description: text }),
			),
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/webhooks',
		query: listQuery,
		handler: ({ auth, query }) => {
			const items = [...sandbox.store.webhooks.values()].filter(
				(e) =>
					e.account_id === auth.accountId &&
					(query.url === undefined || e.url === query.url) &&
					(query.event === undefined || e.events.includes(query.event)) &&
					(query.active === undefined || e.active === query.active),
			);
			return paginate(
				items,
				{ ...query, sort: 'created_at', order: 'desc' },
				(e) => e.created_at,
				webhookView,
			);
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/webhooks',
		body: createBody,
		status: 201,
		handler: ({ auth, body }) => {
			const now = sandbox.nowIso();
			const endpoint: WebhookEndpoint = {
				id: sandbox.ids.next('wh'),
				account_id: auth.accountId,
				url: body.url,
				description: body.description ?? null,
				events: body.events,
				active: body.active,
				status: 'active',
				secret: `whsec_${randomToken(32)}`,
				created_at: now,
				updated_at: now,
				last_delivery_at: null,
			};
			sandbox.store.webhooks.set(endpoint.id, endpoint);
			return { ...webhookView(endpoint), secret: endpoint.secret };
		},
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/webhooks/:id',
		id: 'wh',
		find,
		handler: ({ found }) => webhookView(found),
	});

	apiRoute(app, sandbox, {
		method: 'PATCH',
		url: '/v1/webhooks/:id',
		id: 'wh',
		find,
		body: patchBody,
		handler: ({ found: endpoint, body }) => {
			Object.assign(endpoint, body);
			endpoint.updated_at = sandbox.nowIso();
			return webhookView(endpoint);
		},
	});

	apiRoute(app, sandbox, {
		method: 'DELETE',
		url: '/v1/webhooks/:id',
		id: 'wh',
		find,
		handler: ({ found: endpoint }) => {
			sandbox.store.webhooks.delete(endpoint.id);
			return { id: endpoint.id, deleted: true };
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/webhooks/:id/test',
		id: 'wh',
		find,
		handler: async ({ found: endpoint }) => {
			const result = await sandbox.webhooks.test(endpoint);
			return {
				delivered: result.ok,
				status_code: result.status_code,
				duration_ms: result.duration_ms,
				endpoint_status: endpoint.status,
			};
		},
	});
}
