// GET /v1/analytics/* (docs/api-contract.md §7, §12). The core's hook has authenticated the request; any key may read.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idString, parseOrThrow } from '../validation';
import {
	granularityOf,
	leadsQuery,
	overviewQuery,
	parseQuery,
	rankingQuery,
	resolvePeriod,
	resourceQuery,
} from './analytics-query';
import {
	channels,
	funnel,
	leadTrend,
	overview,
	ranking,
	resourceDetail,
	type ReportContext,
} from './analytics-reports';
import type { Engine } from './engine';
import type { BehaviourHost } from './host';
import { ownResource } from './resource-access';

const pathId = idString('res');

export function registerAnalyticsRoutes(
	app: FastifyInstance,
	host: BehaviourHost,
	engine: Engine,
): void {
	const contextOf = (request: FastifyRequest): ReportContext => {
		const { accountId } = host.authOf(request);
		return { host, accountId, stats: engine.statsOf(accountId) };
	};
	const now = () => host.clock.now().getTime();
	const scopeOf = (context: ReportContext, resourceId: string | undefined) =>
		resourceId === undefined ? undefined : ownResource(host, context.accountId, resourceId).id;

	app.get('/v1/analytics/overview', async (request) => {
		const context = contextOf(request);
		const query = parseQuery(overviewQuery, request.query);
		return overview(context, resolvePeriod(query, now()), scopeOf(context, query.resource_id));
	});

	app.get('/v1/analytics/resources', async (request) => {
		const context = contextOf(request);
		const query = parseQuery(rankingQuery, request.query);
		return ranking(context, resolvePeriod(query, now()), {
			resourceId: scopeOf(context, query.resource_id),
			sort: query.sort ?? 'page_views',
			order: query.order ?? 'desc',
			limit: query.limit ?? 10,
		});
	});

	app.get<{ Params: { id: string } }>('/v1/analytics/resources/:id', async (request) => {
		const context = contextOf(request);
		const id = parseOrThrow(pathId, request.params.id, 'id');
		const query = parseQuery(resourceQuery, request.query);
		const period = resolvePeriod(query, now());
		return resourceDetail(
			context,
			ownResource(host, context.accountId, id),
			period,
			granularityOf(query),
		);
	});

	app.get('/v1/analytics/channels', async (request) => {
		const context = contextOf(request);
		const query = parseQuery(overviewQuery, request.query);
		return channels(context, resolvePeriod(query, now()), scopeOf(context, query.resource_id));
	});

	app.get('/v1/analytics/leads', async (request) => {
		const context = contextOf(request);
		const query = parseQuery(leadsQuery, request.query);
		const period = resolvePeriod(query, now());
		return leadTrend(context, period, granularityOf(query), scopeOf(context, query.resource_id));
	});

	app.get('/v1/analytics/funnel', async (request) => {
		const context = contextOf(request);
		const query = parseQuery(overviewQuery, request.query);
		return funnel(context, resolvePeriod(query, now()), scopeOf(context, query.resource_id));
	});
}
