import { randomUUID } from 'node:crypto';
import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/items';
import { connectionApiError, readServiceError, redirectApiError, serviceApiError } from './errors';
import { readPage } from './paging';
import {
	backoffDelay,
	isReplayable,
	isTransientNetworkError,
	MAX_RETRIES,
	networkErrorCode,
	retryAfterDelay,
} from './retry';
import type { ApiContext } from './session';
import { sessionOf } from './session';
import { attemptTimeout, retryFits } from './deadline';
import { sleepUnlessCancelled } from './wait';
import { isObject } from '../helpers/values';

export type { ApiContext } from './session';
export { CREDENTIAL_TYPE, normaliseBaseUrl } from './session';

/** Page size used for Return All (docs/api-contract.md §4 maximum). */
export const MAX_PAGE_SIZE = 100;
/** A request that has not answered after this long fails (and is retried when replayable). */
const REQUEST_TIMEOUT_MS = 60_000;
/** Redirects within the Base URL's origin that are followed (by the core itself, see `send`). */
const MAX_REDIRECTS = 5;

export interface ApiRequestOptions {
	/** JSON body. */
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The item the request is made for; named in errors. */
	itemIndex?: number;
	/** Sent as `Idempotency-Key` (docs/api-contract.md §8). Every JSON POST gets a fresh key per call when none is given, so it can be retried safely. */
	idempotencyKey?: string;
	headers?: IDataObject;
}

/** A `multipart/form-data` body, built anew for every attempt (a stream can be sent only once). */
export interface MultipartSource {
	build(): Promise<{
		contentType: string;
		contentLength?: number;
		body: Buffer | { destroy(): void };
	}>;
	/** Added to the description of a connection failure. */
	connectionHint?: string;
}

export interface ApiRequestAllItemsOptions<T = IDataObject> {
	/** Maximum number of items; undefined returns all. */
	limit?: number;
	itemIndex?: number;
	/**
	 * Turns each item into what is kept (e.g. Simplify) as its page arrives, so the service's full items
	 * are garbage one page later instead of all held until the last page (50,000 leads held twice).
	 */
	map?: (item: IDataObject) => T;
}

/** What the core sends: a JSON request, or a multipart one. */
interface CoreRequest extends ApiRequestOptions {
	method: IHttpRequestMethods;
	path: string;
	multipart?: MultipartSource;
}

const ENVELOPE_KEYS = ['data', 'object', 'meta', 'request_id', 'links'];

/** docs/api-contract.md §11: a single object may come wrapped as `{ "data": { ... } }`. Lists (an array in `data`) are left alone. */
function unwrap(body: unknown): unknown {
	if (
		isObject(body) &&
		isObject(body.data) &&
		Object.keys(body).every((key) => ENVELOPE_KEYS.includes(key))
	) {
		return body.data;
	}
	return body;
}

/** Answers of requests sent without `json: true` (multipart) arrive as text or a Buffer. */
function parseJson(body: unknown): unknown {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	if (typeof text !== 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function isEmpty(body: unknown): boolean {
	return (
		body === '' ||
		body === undefined ||
		body === null ||
		(Buffer.isBuffer(body) && body.length === 0)
	);
}

function headerText(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name];
	return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

/**
 * The one request path of the package (JSON, multipart, paging): authenticated with the header of the
 * credential read once per execution (see SessionCredential), retried after 429 (after Retry-After, every sender of the execution pausing
 * together) and, for replayable requests only, after 5xx and broken connections; errors become
 * NodeApiErrors built from the service's answer alone. Redirects are followed only within the Base URL's
 * origin: n8n would send the API key along to another origin, so that is an error.
 */
async function send<T>(this: ApiContext, request: CoreRequest): Promise<T> {
	const session = sessionOf(this);
	const { itemIndex, multipart, method } = request;
	let credential;
	try {
		credential = await session.credential();
	} catch (error) {
		throw asNodeError(this.getNode(), error, itemIndex);
	}
	const { base } = credential;
	const origin = originOf(base);
	const idempotencyKey =
		request.idempotencyKey ??
		(method === 'POST' && multipart === undefined ? randomUUID() : undefined);
	const replayable = isReplayable(method, idempotencyKey !== undefined, multipart !== undefined);
	const { signal, limit } = session;

	let url = `${base}${request.path}`;
	let qs = request.qs;
	let currentMethod = method;
	let redirects = 0;
	/** Set once an attempt failed in a way that may have reached the service (5xx, broken connection). */
	let mayHaveBeenProcessed = false;
	for (let attempt = 0; ; attempt++) {
		await limit.whenOpen();
		const framed =
			multipart === undefined || currentMethod === 'GET' ? undefined : await multipart.build();
		const discard = () => {
			if (framed !== undefined && !Buffer.isBuffer(framed.body)) framed.body.destroy();
		};
		const options: IHttpRequestOptions = {
			method: currentMethod,
			url,
			qs,
			headers: {
				Accept: 'application/json',
				Authorization: credential.authorization,
				...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}),
				...(framed !== undefined
					? {
							'Content-Type': framed.contentType,
							...(framed.contentLength !== undefined
								? { 'Content-Length': framed.contentLength }
								: {}),
						}
					: {}),
				...request.headers,
			},
			body: (framed?.body ??
				(currentMethod === 'GET' ? undefined : request.body)) as IHttpRequestOptions['body'],
			json: multipart === undefined,
			timeout: attemptTimeout(session, REQUEST_TIMEOUT_MS),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Redirects are handled below; following them in axios would also keep a streamed file in memory.
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		};

		const sent = limit.sent();
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequest(options)) as IN8nHttpFullResponse;
		} catch (error) {
			discard();
			// A missing credential or a cancelled execution, not a network failure.
			if (error instanceof NodeOperationError || signal?.aborted)
				throw asNodeError(this.getNode(), error, itemIndex);
			limit.answered(sent, 'error');
			const delay = backoffDelay(attempt);
			if (
				replayable &&
				attempt < MAX_RETRIES &&
				isTransientNetworkError(error) &&
				retryFits(session, delay)
			) {
				mayHaveBeenProcessed = true;
				await sleepUnlessCancelled(delay, signal);
				continue;
			}
			// n8n-core's own error may carry the request options (and so the Authorization header): not passed on.
			const apiError = connectionApiError(this.getNode(), base, networkErrorCode(error), itemIndex);
			if (multipart?.connectionHint)
				apiError.description = `${apiError.description ?? ''} ${multipart.connectionHint}`;
			throw apiError;
		}

		const { statusCode, headers } = response;
		const body = multipart === undefined ? response.body : parseJson(response.body);
		if (statusCode >= 200 && statusCode < 300) {
			limit.answered(sent, 'ok');
			return (isEmpty(body) ? {} : unwrap(body)) as T;
		}
		discard();
		const location =
			statusCode >= 300 && statusCode < 400 ? headerText(headers, 'location') : undefined;
		if (location !== undefined) {
			const target = new URL(location, url);
			if (target.origin !== origin)
				throw redirectApiError(this.getNode(), base, target.origin, itemIndex);
			if (++redirects > MAX_REDIRECTS) {
				throw serviceApiError(
					this.getNode(),
					readServiceError(statusCode, body, headers),
					itemIndex,
				);
			}
			// 303 (and 301/302 after a POST, as browsers do) continue as a GET; 307/308 repeat the request.
			if (
				statusCode === 303 ||
				((statusCode === 301 || statusCode === 302) && currentMethod === 'POST')
			) {
				currentMethod = 'GET';
			}
			url = target.href;
			qs = undefined;
			attempt--;
			continue;
		}
		// The earlier attempt deleted it, only its answer was lost.
		if (statusCode === 404 && method === 'DELETE' && mayHaveBeenProcessed) return {} as T;
		limit.answered(sent, statusCode === 429 ? 'rate_limited' : statusCode >= 500 ? 'error' : 'ok');
		const delay =
			(statusCode === 429 ? retryAfterDelay(headers) : undefined) ?? backoffDelay(attempt);
		const retry =
			attempt < MAX_RETRIES &&
			!signal?.aborted &&
			(statusCode === 429 || (statusCode >= 500 && replayable)) &&
			retryFits(session, delay);
		if (retry) {
			if (statusCode === 429) {
				// docs/api-contract.md §9: the limit is per key, so every sender of this execution waits.
				await limit.pauseFor(delay, signal);
			} else {
				mayHaveBeenProcessed = true;
				await sleepUnlessCancelled(delay, signal);
			}
			continue;
		}
		throw serviceApiError(this.getNode(), readServiceError(statusCode, body, headers), itemIndex);
	}
}

function originOf(base: string): string {
	try {
		return new URL(base).origin;
	} catch {
		return base;
	}
}

/**
 * One request to the Content Marketing API, authenticated by the credential. Retries 429 (after Retry-After,
 * else with exponential backoff) for every request, and 5xx and broken connections for replayable requests
 * only. Errors become NodeApiErrors built from the service's answer alone.
 */
export async function apiRequest<T = IDataObject>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options?: ApiRequestOptions,
): Promise<T>;
// Listed last so that `apiRequest.call(...)`, which sees only the last signature, answers an IDataObject.
export async function apiRequest(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options?: ApiRequestOptions,
): Promise<IDataObject>;
export async function apiRequest<T>(
	this: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	return await send.call<ApiContext, [CoreRequest], Promise<T>>(this, { ...options, method, path });
}

/** A multipart request (docs/api-contract.md §6 uploads) through the same core; never replayed after a 5xx or a broken connection (docs/api-contract.md §8). */
export async function apiMultipartRequest(
	this: ApiContext,
	method: 'POST' | 'PUT',
	path: string,
	multipart: MultipartSource,
	itemIndex: number,
): Promise<IDataObject> {
	// An upload holds its file's bytes while they are sent: at most MAX_PARALLEL_UPLOADS at once.
	const { uploads } = sessionOf(this);
	await uploads.acquire();
	try {
		const answer = await send.call<ApiContext, [CoreRequest], Promise<unknown>>(this, {
			method,
			path,
			multipart,
			itemIndex,
		});
		return isObject(answer) ? answer : {};
	} finally {
		uploads.release();
	}
}

/** What a visitor of `apiScanItems` wants after one item. */
export type ScanNext = 'continue' | 'stop';

/**
 * Visits the items of a list endpoint page by page (docs/api-contract.md §4 keyset cursor), holding one
 * page at a time, until `visit` says stop or the list ends. Pages are read one after the other: a cursor
 * is only known from the page before. The only cursor loop of the package, and its loop guard.
 */
export async function apiScanItems(
	this: ApiContext,
	path: string,
	qs: IDataObject,
	visit: (item: IDataObject) => ScanNext,
	options: { itemIndex?: number; pageSize?: () => number } = {},
): Promise<void> {
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	do {
		const size = options.pageSize?.() ?? MAX_PAGE_SIZE;
		if (size <= 0) return;
		const body: unknown = await apiRequest.call(this, 'GET', path, {
			qs: { ...qs, limit: size, ...(cursor !== undefined ? { cursor } : {}) },
			itemIndex: options.itemIndex,
		});
		const page = readPage<IDataObject>(body);
		for (const item of page.items) if (visit(item) === 'stop') return;
		cursor = page.next;
		// A service that repeats a cursor (or sends one with an empty page) would page forever.
		if (cursor !== undefined && (seenCursors.has(cursor) || page.items.length === 0)) return;
		if (cursor !== undefined) seenCursors.add(cursor);
	} while (cursor !== undefined);
}

/** All items of a list endpoint (or the first `limit`), following `next_cursor` with pages of up to 100, one page after the other. */
export async function apiRequestAllItems<T>(
	this: ApiContext,
	path: string,
	qs?: IDataObject,
	options?: ApiRequestAllItemsOptions<T>,
): Promise<T[]>;
// The last signature is the one `.call(this, ...)` sees: IDataObject items.
export async function apiRequestAllItems(
	this: ApiContext,
	path: string,
	qs?: IDataObject,
	options?: ApiRequestAllItemsOptions,
): Promise<IDataObject[]>;
export async function apiRequestAllItems<T>(
	this: ApiContext,
	path: string,
	qs: IDataObject = {},
	options: ApiRequestAllItemsOptions<T> = {},
): Promise<T[]> {
	const { limit, itemIndex, map } = options;
	const results: T[] = [];
	const pageSize = () =>
		limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - results.length);
	await apiScanItems.call(
		this,
		path,
		qs,
		(item) => {
			results.push(map ? map(item) : (item as T));
			return 'continue';
		},
		{ itemIndex, pageSize },
	);
	return limit === undefined ? results : results.slice(0, limit);
}
