// Leads (docs/api-contract.md §5): list, create, read, update.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findOwned } from '../auth';
import type { RequestAuth } from '../behaviour/host';
import { ApiError } from '../errors';
import { createLead, mergeCustomFields, updateLead } from '../lead-service';
import { LEAD_STATUSES, SOURCE_CHANNELS, type StoredLead } from '../model';
import { LEAD_SORTS } from '../lead-order';
import { paginateSorted, pagingQuery } from '../paging';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { DAY_MS } from '../time';
import { idString, intQuery, sortOrder, textQuery } from '../validation';
import { leadView } from '../views';

const MAX_CUSTOM_FIELDS = 50;

const customFields = z
	.record(
		z
			.string()
			.regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'keys must match ^[A-Za-z][A-Za-z0-9_]{0,63}$'),
		z.union([z.string().max(1000), z.number(), z.boolean(), z.null()], {
			errorMap: () => ({
				message: 'must be a string (at most 1,000 characters), number, boolean or null',
			}),
		}),
	)
	.refine(
		(value) => Object.keys(value).length <= MAX_CUSTOM_FIELDS,
		`at most ${MAX_CUSTOM_FIELDS} keys`,
	);

const shortText = z.string().max(200).nullable().optional();

const createBody = z
	.object({
		email: z.string().max(254).email(),
		name: shortText,
		company: shortText,
		job_title: shortText,
		source_channel: z.enum(SOURCE_CHANNELS).default('api'),
		custom_fields: customFields.optional(),
	})
	.strict();

const patchBody = z
	.object({
		status: z.enum(LEAD_STATUSES),
		assigned_to: idString('user').nullable(),
		notes: z.string().max(10_000).nullable(),
		custom_fields: customFields,
	})
	.strict()
	.partial()
	.refine((body) => Object.keys(body).length > 0, {
		message: 'at least one of status, assigned_to, notes, custom_fields is required',
	});

const listQuery = z
	.object({
		days: intQuery(1, 365).optional(),
		sort: z.enum(LEAD_SORTS).default('created_at'),
		order: sortOrder.default('desc'),
		status: z.enum(LEAD_STATUSES).optional(),
		source_resource_id: idString('res').optional(),
		source_channel: z.enum(SOURCE_CHANNELS).optional(),
		assigned_to: idString('user').optional(),
		q: textQuery(200).optional(),
		...pagingQuery,
	})
	.strict();

export function registerLeadRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	const find = (id: string, auth: RequestAuth) => findOwned(sandbox.store.leads, id, auth, 'lead');

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/leads',
		query: listQuery,
		handler: ({ auth, query }) => {
			const since =
				query.days === undefined ? undefined : sandbox.clock.now().getTime() - query.days * DAY_MS;
			const q = query.q?.toLowerCase();
			const matches = (lead: StoredLead) =>
				(since === undefined || Date.parse(lead.created_at) >= since) &&
				(query.status === undefined || lead.status === query.status) &&
				(query.source_resource_id === undefined ||
					lead.source_resource_id === query.source_resource_id) &&
				(query.source_channel === undefined || lead.source_channel === query.source_channel) &&
				(query.assigned_to === undefined || lead.assigned_to === query.assigned_to) &&
				(q === undefined ||
					[lead.email, lead.name, lead.company].some(
						(text) => text !== null && text.toLowerCase().includes(q),
					));
			return paginateSorted(
				sandbox.store.leadOrder.sorted(auth.accountId, query.sort),
				query,
				matches,
				leadView,
			);
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/leads',
		body: createBody,
		status: 201,
		handler: ({ auth, body }) => leadView(createLead(sandbox, auth.accountId, body)),
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/leads/:id',
		id: 'lead',
		find,
		handler: ({ found }) => leadView(found),
	});

	apiRoute(app, sandbox, {
		method: 'PATCH',
		url: '/v1/leads/:id',
		id: 'lead',
		find,
		body: patchBody,
		handler: ({ auth, found: lead, body }) => {
			if (body.assigned_to) {
				const user = sandbox.store.users.get(body.assigned_to);
				if (!user || user.account_id !== auth.accountId) {
					throw ApiError.invalid('assigned_to', `no user ${body.assigned_to} in this account`);
				}
			}
			if (
				body.custom_fields &&
				Object.keys(mergeCustomFields(lead.custom_fields, body.custom_fields)).length >
					MAX_CUSTOM_FIELDS
			) {
				throw ApiError.invalid('custom_fields', `at most ${MAX_CUSTOM_FIELDS} keys after merging`);
			}
			return leadView(updateLead(sandbox, lead, body));
		},
	});
}
