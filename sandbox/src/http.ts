// Request plumbing shared by every route: parsers, request ids, the /v1 guard (faults, auth, rate limit,
// scope), the request log, the error envelope, 404 and 405.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { ZodError } from 'zod';
import { attachAuth, authenticate } from './auth';
import { ApiError, fromZodError } from './errors';
import type { RequestLogEntry } from './model';
import type { Sandbox } from './sandbox';

export function pathOf(request: FastifyRequest): string {
	const url = request.raw.url ?? '/';
	const q = url.indexOf('?');
	return q === -1 ? url : url.slice(0, q);
}

function queryOf(request: FastifyRequest): string {
	const url = request.raw.url ?? '';
	const q = url.indexOf('?');
	return q === -1 ? '' : url.slice(q + 1);
}

export function isApiPath(path: string): boolean {
	return path === '/v1' || path.startsWith('/v1/');
}

const FASTIFY_ERRORS: Record<string, (error: FastifyError) => ApiError> = {
	FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
		ApiError.invalid('Content-Type', 'must be application/json'),
	FST_ERR_CTP_INVALID_TYPE: () => ApiError.invalid('Content-Type', 'must be application/json'),
	FST_ERR_CTP_EMPTY_TYPE: () => ApiError.invalid('Content-Type', 'must be application/json'),
	FST_ERR_CTP_BODY_TOO_LARGE: () => ApiError.invalid('body', 'is larger than 1 MiB'),
	FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
		ApiError.invalid('Content-Length', 'does not match the body'),
	FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
		ApiError.invalid('Content-Type', 'must be multipart/form-data'),
	FST_FILES_LIMIT: () => ApiError.invalid('file', 'only one file part is allowed'),
	FST_PARTS_LIMIT: () => ApiError.invalid('body', 'has too many parts'),
	FST_FIELDS_LIMIT: () => ApiError.invalid('body', 'has too many parts'),
	FST_PROTO_VIOLATION: () => ApiError.invalid('body', 'has a part with a forbidden name'),
	FST_INVALID_JSON_FIELD_ERROR: () =>
		ApiError.invalid('body', 'has a JSON part that does not parse'),
};

/** Any error as the contract's envelope: ours as they are, framework 4xx as 400, everything else 500. */
export function toApiError(error: unknown): ApiError {
	if (error instanceof ApiError) return error;
	if (error instanceof ZodError) return fromZodError(error);
	const fastifyError = error as Partial<FastifyError> | null;
	const mapped = fastifyError?.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
	if (mapped) return mapped(fastifyError as FastifyError);
	const status = fastifyError?.statusCode;
	if (status !== undefined && status >= 400 && status < 500) {
		return ApiError.invalid('request', fastifyError?.message ?? 'is malformed');
	}
	return new ApiError('server_error', 'Internal server error');
}

export function sendError(
	request: FastifyRequest,
	reply: FastifyReply,
	error: ApiError,
): FastifyReply {
	return reply.code(error.status).headers(error.headers).send(error.toBody(request.id));
}

/** Turns a route pattern (`/v1/leads/:id`) into a matcher of concrete paths. */
function patternToRegExp(url: string): RegExp {
	const source = url
		.split('/')
		.map((segment) => {
			if (segment.startsWith(':')) return '[^/]+';
			if (segment === '*') return '.*';
			return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('/');
	return new RegExp(`^${source}$`);
}

export function installHttp(app: FastifyInstance, sandbox: Sandbox): void {
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
		const body = typeof text === 'string' ? text : text.toString('utf8');
		if (body.trim() === '') {
			done(null, undefined);
			return;
		}
		try {
			done(null, JSON.parse(body));
		} catch {
			done(ApiError.invalid('body', 'is not valid JSON'), undefined);
		}
	});

	const routes: Array<{ pattern: RegExp; method: string }> = [];
	/** Methods of each parameter-free route, e.g. `/v1/leads/batch-sync-crm` → POST. */
	const staticRouteMethods = new Map<string, string[]>();
	app.addHook('onRoute', (route) => {
		const methods = Array.isArray(route.method) ? route.method : [route.method];
		for (const method of methods) routes.push({ pattern: patternToRegExp(route.url), method });
		if (!route.url.includes(':'))
			staticRouteMethods.set(route.url, [...(staticRouteMethods.get(route.url) ?? []), ...methods]);
	});

	/** `GET /v1/leads/batch-sync-crm` is caught by `GET /v1/leads/:id`, but the path names a POST-only endpoint: 405. */
	function assertNotShadowedStaticPath(request: FastifyRequest, path: string): void {
		const allowed = staticRouteMethods.get(path);
		if (allowed && request.routeOptions.url?.includes(':')) {
			throw new ApiError(
				'method_not_allowed',
				`${request.method} is not allowed on ${path}`,
				undefined,
				{
					Allow: allowed.join(', '),
				},
			);
		}
	}

	const logEntries = new WeakMap<FastifyRequest, RequestLogEntry>();

	app.addHook('onRequest', async (request, reply) => {
		reply.header('X-Request-Id', request.id);
		const path = pathOf(request);
		if (!isApiPath(path)) return;

		const entry: RequestLogEntry = {
			request_id: request.id,
			method: request.method,
			path,
			query: queryOf(request),
			status: null,
			key_role: null,
			at: sandbox.nowIso(),
		};
		sandbox.store.requests.push(entry);
		logEntries.set(request, entry);

		const cursor = (request.query as Record<string, unknown> | undefined)?.cursor;
		const pageFault = sandbox.faults.pageFault(
			request.method,
			path,
			typeof cursor === 'string',
			'before',
		);
		if (pageFault === 'rate_limited')
			throw new ApiError('rate_limited', 'Too many requests (sandbox page fault)', undefined, {
				'Retry-After': '1',
			});
		if (pageFault === 'server_error')
			throw new ApiError('server_error', 'Internal server error (sandbox page fault)');
		const fault = sandbox.faults.decide(request.method, path);
		if (fault) {
			if (fault.latencyMs > 0) await sleep(fault.latencyMs);
			if (fault.outcome === 'drop') {
				logEntries.delete(request);
				reply.hijack();
				request.raw.socket.destroy();
				return;
			}
			if (fault.outcome === 'rate_429') {
				throw new ApiError(
					'rate_limited',
					'Too many requests (sandbox fault); retry later',
					undefined,
					{
						'Retry-After': String(fault.retryAfterSeconds),
					},
				);
			}
			if (fault.outcome === 'rate_500')
				throw new ApiError('server_error', 'Internal server error (sandbox fault)');
		}

		const auth = authenticate(request.headers.authorization, sandbox.clock.now());
		attachAuth(request, auth);
		entry.key_role = auth.keyRole;

		const limit = sandbox.config.rate_limit;
		if (limit) {
			const decision = sandbox.rateLimiter.take(auth.keyRole, sandbox.clock.now().getTime(), limit);
			reply.header('X-RateLimit-Limit', String(decision.limit));
			reply.header('X-RateLimit-Remaining', String(decision.remaining));
			reply.header('X-RateLimit-Reset', String(decision.reset));
			if (!decision.allowed) {
				throw new ApiError(
					'rate_limited',
					`Rate limit of ${limit.requests} requests per ${limit.window_seconds} s exceeded; retry after ${decision.retryAfterSeconds} s`,
					undefined,
					{ 'Retry-After': String(decision.retryAfterSeconds) },
				);
			}
		}

		if (auth.scope === 'read_only' && request.method !== 'GET' && request.method !== 'HEAD') {
			throw ApiError.forbidden('This API key is read-only');
		}
		assertNotShadowedStaticPath(request, path);
	});

	// A list page the client cannot follow (faults.ts page_fault): rewritten after the route answered, so the store is as the request left it.
	app.addHook('onSend', async (request, reply, payload) => {
		if (!logEntries.has(request) || reply.statusCode !== 200 || typeof payload !== 'string')
			return payload;
		const cursor = (request.query as Record<string, unknown> | undefined)?.cursor;
		const fault = sandbox.faults.pageFault(
			request.method,
			pathOf(request),
			typeof cursor === 'string',
			'after',
		);
		if (fault === null) return payload;
		const page = JSON.parse(payload) as {
			object?: string;
			data?: unknown[];
			next_cursor?: unknown;
		};
		if (page.object !== 'list') return payload;
		if (fault === 'not_a_list') return JSON.stringify('unavailable');
		if (fault === 'empty_page')
			return JSON.stringify({
				...page,
				data: [],
				has_more: true,
				next_cursor: page.next_cursor ?? cursor,
			});
		return JSON.stringify({ ...page, has_more: true, next_cursor: cursor });
	});

	app.addHook('onResponse', async (request, reply) => {
		const entry = logEntries.get(request);
		if (entry) entry.status = reply.statusCode;
	});

	app.setErrorHandler((error, request, reply) => {
		const apiError = toApiError(error);
		if (apiError.code === 'server_error' && !(error instanceof ApiError)) request.log.error(error);
		return sendError(request, reply, apiError);
	});

	app.setNotFoundHandler((request, reply) => {
		const path = pathOf(request);
		const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
		if (allowed.length > 0) {
			return sendError(
				request,
				reply,
				new ApiError(
					'method_not_allowed',
					`${request.method} is not allowed on ${path}`,
					undefined,
					{
						Allow: allowed.join(', '),
					},
				),
			);
		}
		return sendError(request, reply, ApiError.notFound(`No endpoint ${request.method} ${path}`));
	});
}
