// Route definitions with the contract's input rules applied once: path id, strict query, strict JSON body,
// multipart only where allowed, and Idempotency-Key on /v1 POSTs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from './auth';
import type { RequestAuth } from './behaviour/host';
import { ApiError } from './errors';
import { canonicalJson, type Claim, IDEMPOTENCY_KEY } from './idempotency';
import { isId, type IdPrefix } from './ids';
import type { Sandbox } from './sandbox';
import { noBody, noQuery, parseOrThrow, type Schema } from './validation';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Input<Q, B> {
	request: FastifyRequest;
	reply: FastifyReply;
	/** The validated `:id` path parameter ('' when the route has none). */
	id: string;
	query: Q;
	/** The validated JSON body (undefined for GET and for multipart requests). */
	body: B;
	multipart: boolean;
}

interface Spec<Q, B, I> {
	method: Method;
	url: string;
	/** Prefix of the `:id` path parameter. */
	id?: IdPrefix;
	query?: Schema<Q>;
	body?: Schema<B>;
	/** Also accepts multipart/form-data (the handler reads the parts). */
	multipart?: boolean;
	/** Status of a successful answer (default 200). */
	status?: number;
	handler(input: I): unknown;
}

/**
 * Checks in the order of docs/api-contract.md §3: path id, then `lookup` (404/403 of the addressed object), then the
 * query and the JSON body.
 */
function readInput<Q, B>(
	spec: Spec<Q, B, never>,
	request: FastifyRequest,
	reply: FastifyReply,
	lookup: (id: string) => void = () => undefined,
): Input<Q, B> {
	const multipart = request.isMultipart();
	if (multipart && !spec.multipart)
		throw ApiError.invalid('Content-Type', 'must be application/json');
	let id = '';
	if (spec.id) {
		const raw = (request.params as Record<string, string>).id;
		if (!isId(spec.id, raw)) throw ApiError.invalid('id', `must be a ${spec.id}_ id`);
		id = raw;
		lookup(id);
	}
	// Without a schema the route takes no query parameters and no body; Q and B then default to those shapes.
	const query = spec.query
		? parseOrThrow(spec.query, request.query, 'query')
		: (parseOrThrow(noQuery, request.query, 'query') as unknown as Q);
	let body = undefined as B;
	if (spec.method !== 'GET' && !multipart) {
		body = spec.body
			? parseOrThrow(spec.body, request.body, 'body')
			: (parseOrThrow(noBody, request.body, 'body') as unknown as B);
	}
	return { request, reply, id, query, body, multipart };
}

function sendJson(reply: FastifyReply, status: number, json: string): FastifyReply {
	return reply.code(status).type('application/json; charset=utf-8').send(json);
}

interface ApiSpec<Q, B, F> extends Spec<Q, B, Input<Q, B> & { auth: RequestAuth; found: F }> {
	/** The object addressed by the path id, or ApiError 404/403; runs before query and body validation. */
	find?: (id: string, auth: RequestAuth) => F;
}

/** A /v1 route: the guard hook has authenticated the request; POSTs honour Idempotency-Key (docs/api-contract.md §8). */
export function apiRoute<Q = Record<string, never>, B = undefined, F = undefined>(
	app: FastifyInstance,
	sandbox: Sandbox,
	spec: ApiSpec<Q, B, F>,
): void {
	app.route({
		method: spec.method,
		url: spec.url,
		handler: async (request, reply) => {
			const auth = authOf(request);
			let claim: Claim | undefined;
			const key = request.headers['idempotency-key'];
			if (spec.method === 'POST' && key !== undefined && !request.isMultipart()) {
				if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
					throw ApiError.invalid('Idempotency-Key', 'must be 1 to 255 printable ASCII characters');
				}
				const fingerprint = `${request.method} ${request.raw.url}\n${canonicalJson(request.body)}`;
				claim = await sandbox.idempotency.claim(
					auth.accountId,
					key,
					fingerprint,
					sandbox.clock.now().getTime(),
				);
				if (claim.kind === 'replay') {
					reply.header('Idempotent-Replayed', 'true');
					return sendJson(reply, claim.answer.status, claim.answer.body);
				}
				if (claim.kind === 'conflict') {
					throw ApiError.invalid(
						'Idempotency-Key',
						'was already used with another request (path or body)',
					);
				}
			}
			const fresh = claim?.kind === 'fresh' ? claim : undefined;
			try {
				let found = undefined as F;
				const input = readInput<Q, B>(spec, request, reply, (id) => {
					if (spec.find) found = spec.find(id, auth);
				});
				const result = await spec.handler({ ...input, auth, found });
				const status = spec.status ?? 200;
				const json = JSON.stringify(result);
				fresh?.complete({ status, body: json });
				return sendJson(reply, status, json);
			} catch (error) {
				fresh?.complete(undefined);
				throw error;
			}
		},
	});
}

/** A /_sandbox control route: no authentication, same input rules. */
export function controlRoute<Q = Record<string, never>, B = undefined>(
	app: FastifyInstance,
	spec: Spec<Q, B, Input<Q, B>>,
): void {
	app.route({
		method: spec.method,
		url: spec.url,
		handler: async (request, reply) => {
			const result = await spec.handler(readInput<Q, B>(spec, request, reply));
			return sendJson(reply, spec.status ?? 200, JSON.stringify(result));
		},
	});
}
