// /_sandbox: keys, accounts, reset and seed (docs/api-contract.md §13).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors';
import { keyMap } from '../fixtures';
import { CRM_TYPES, PLANS } from '../model';
import { controlRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { seedBodySchema, seedBulk, seedDemo } from '../seed';
import { ctaView, userView } from '../views';

const accountPatch = z
	.object({
		plan: z.enum(PLANS),
		crm: z
			.object({ crm_type: z.enum(CRM_TYPES) })
			.strict()
			.nullable(),
	})
	.strict()
	.partial();

export function registerStateControl(app: FastifyInstance, sandbox: Sandbox): void {
	const accountView = (id: string) => {
		const account = sandbox.store.account(id);
		return {
			...account,
			crm: account.crm && { ...account.crm },
			users: [...sandbox.store.users.values()].filter((u) => u.account_id === id).map(userView),
			ctas: [...sandbox.store.ctas.values()].filter((c) => c.account_id === id).map(ctaView),
		};
	};

	controlRoute(app, { method: 'GET', url: '/_sandbox/keys', handler: () => keyMap() });

	controlRoute(app, {
		method: 'GET',
		url: '/_sandbox/accounts',
		handler: () => [...sandbox.store.accounts.keys()].map(accountView),
	});

	controlRoute(app, {
		method: 'PATCH',
		url: '/_sandbox/accounts/:id',
		body: accountPatch,
		handler: ({ request, body }) => {
			const { id } = request.params as { id: string };
			const account = sandbox.store.accounts.get(id);
			if (!account) throw ApiError.notFound(`No account with id ${id}`);
			if (body.plan !== undefined) account.plan = body.plan;
			if (body.crm !== undefined) account.crm = body.crm;
			return accountView(id);
		},
	});

	controlRoute(app, {
		method: 'POST',
		url: '/_sandbox/reset',
		handler: () => {
			sandbox.reset();
			return { reset: true };
		},
	});

	controlRoute(app, {
		method: 'POST',
		url: '/_sandbox/seed',
		body: seedBodySchema,
		status: 201,
		handler: ({ body }) => {
			if (body.demo) {
				if (body.leads > 0 || body.resources > 0)
					throw ApiError.invalid('demo', 'cannot be combined with leads or resources');
				return seedDemo(sandbox);
			}
			return seedBulk(sandbox, body);
		},
	});
}
