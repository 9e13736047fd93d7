// Users and CTAs of the account (docs/api-contract.md §5 and §6, our additions for pickers).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { findOwned } from '../auth';
import { paginate, pagingQuery } from '../paging';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { textQuery } from '../validation';
import { ctaView, userView } from '../views';

const listQuery = z.object({ q: textQuery(200).optional(), ...pagingQuery }).strict();

function contains(q: string | undefined, ...texts: string[]): boolean {
	return q === undefined || texts.some((text) => text.toLowerCase().includes(q.toLowerCase()));
}

export function registerUserAndCtaRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/users',
		query: listQuery,
		handler: ({ auth, query }) => {
			const users = [...sandbox.store.users.values()].filter(
				(u) => u.account_id === auth.accountId && contains(query.q, u.name, u.email),
			);
			return paginate(users, { ...query, sort: 'id', order: 'asc' }, (u) => u.id, userView);
		},
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/users/:id',
		id: 'user',
		find: (id, auth) => findOwned(sandbox.store.users, id, auth, 'user'),
		handler: ({ found }) => userView(found),
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/ctas',
		query: listQuery,
		handler: ({ auth, query }) => {
			const ctas = [...sandbox.store.ctas.values()].filter(
				(c) => c.account_id === auth.accountId && contains(query.q, c.name),
			);
			return paginate(ctas, { ...query, sort: 'id', order: 'asc' }, (c) => c.id, ctaView);
		},
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/ctas/:id',
		id: 'cta',
		find: (id, auth) => findOwned(sandbox.store.ctas, id, auth, 'CTA'),
		handler: ({ found }) => ctaView(found),
	});
}
