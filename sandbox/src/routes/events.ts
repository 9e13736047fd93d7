// Events list (docs/api-contract.md §14): the lead events the webhook deliveries carry, listed for pollers.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors';
import { WEBHOOK_EVENT_TYPES } from '../model';
import { paginate, pagingQuery } from '../paging';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { DAY_MS } from '../time';
import { sortOrder } from '../validation';
import type { WebhookEvent } from '../webhooks/delivery';

/** Events are kept 7 days: well past the last delivery retry (about 7 h 11 min after the event, §10). */
export const EVENT_RETENTION_MS = 7 * DAY_MS;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const listQuery = z
	.object({
		type: z.enum(WEBHOOK_EVENT_TYPES).optional(),
		created_after: z
			.string()
			.regex(TIMESTAMP, 'must be a timestamp like 2026-11-21T08:15:00Z')
			.refine((value) => !Number.isNaN(Date.parse(value)), 'must be a valid timestamp')
			.optional(),
		order: sortOrder.default('asc'),
		...pagingQuery,
	})
	.strict();

/** Drops events older than the retention (the list is in recording order, so from the front). */
function prune(sandbox: Sandbox): WebhookEvent[] {
	const events = sandbox.store.events;
	const oldest = sandbox.clock.now().getTime() - EVENT_RETENTION_MS;
	let expired = 0;
	while (expired < events.length && Date.parse(events[expired].created_at) < oldest) expired++;
	if (expired > 0) events.splice(0, expired);
	return events;
}

export function registerEventRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/events',
		query: listQuery,
		handler: ({ auth, query }) => {
			// Switched off (docs/api-contract.md §13 `events_endpoint`): answered as a service without this endpoint would.
			if (!sandbox.config.events_endpoint) throw ApiError.notFound('No endpoint GET /v1/events');
			const after = query.created_after === undefined ? undefined : Date.parse(query.created_after);
			const items = prune(sandbox).filter(
				(event) =>
					event.account_id === auth.accountId &&
					(query.type === undefined || event.type === query.type) &&
					(after === undefined || Date.parse(event.created_at) > after),
			);
			return paginate(
				items,
				{ sort: 'created_at', order: query.order, limit: query.limit, cursor: query.cursor },
				(event) => event.created_at,
				(event) => event,
			);
		},
	});
}
