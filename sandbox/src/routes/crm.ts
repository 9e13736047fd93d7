// CRM synchronisation (docs/api-contract.md §5 "CRM sync").
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findOwned } from '../auth';
import { ApiError } from '../errors';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { idString } from '../validation';

export const MAX_BATCH = 100;

const batchBody = z
	.object({
		lead_ids: z
			.array(idString('lead'))
			.min(1)
			.max(MAX_BATCH, `at most ${MAX_BATCH} leads per call`)
			.superRefine((ids, ctx) => {
				const seen = new Set<string>();
				ids.forEach((id, index) => {
					if (seen.has(id))
						ctx.addIssue({ code: 'custom', path: [index], message: 'duplicate lead id' });
					seen.add(id);
				});
			}),
	})
	.strict();

export function registerCrmRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/leads/:id/sync-crm',
		id: 'lead',
		find: (id, auth) => findOwned(sandbox.store.leads, id, auth, 'lead'),
		handler: ({ auth, found: lead }) => {
			const account = sandbox.crm.requireConfigured(auth.accountId);
			return sandbox.crm.sync(account, lead, 'manual');
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/leads/batch-sync-crm',
		body: batchBody,
		handler: ({ auth, body }) => {
			const account = sandbox.crm.requireConfigured(auth.accountId);
			const results = body.lead_ids.map((leadId) => {
				try {
					const lead = findOwned(sandbox.store.leads, leadId, auth, 'lead');
					return { lead_id: leadId, ...sandbox.crm.sync(account, lead, 'batch') };
				} catch (error) {
					if (!(error instanceof ApiError)) throw error;
					return {
						lead_id: leadId,
						synced: false,
						error: { code: error.code, message: error.message },
					};
				}
			});
			const syncedCount = results.filter((r) => r.synced).length;
			return {
				object: 'batch_sync_result',
				synced_count: syncedCount,
				failed_count: results.length - syncedCount,
				results,
			};
		},
	});
}
