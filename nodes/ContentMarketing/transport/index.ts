import { randomUUID } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleepWithAbort } from 'n8n-workflow';

import { asNodeError } from '../helpers/items';
import { connectionApiError, readServiceError, serviceApiError } from './errors';
import { readPage } from './paging';
import { backoffDelay, isReplayable, isTransientNetworkError, MAX_RETRIES, networkErrorCode, retryAfterDelay } from './retry';

export const CREDENTIAL_TYPE = 'contentMarketingApi';
/** Page size used for Return All (§4 maximum). */
export const MAX_PAGE_SIZE = 100;
/** A request that has not answered after this long fails (and is retried when replayable). */
const REQUEST_TIMEOUT_MS = 60_000;

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export interface ApiRequestOptions {
	/** JSON body, or a FormData for multipart uploads (never retried after a 5xx or a broken connection). */
	body?: IDataObject | IDataObject[] | FormData;
	qs?: IDataObject;
	/** The item the request is made for; named in errors. */
	itemIndex?: number;
	/** Sent as `Idempotency-Key` (§8). Every non-multipart POST gets a fresh key per call when none is given, so it can be retried safely. */
	idempotencyKey?: string;
	headers?: IDataObject;
}

export interface ApiRequestAllItemsOptions {
	/** Maximum number of items; undefined returns all. */
	limit?: number;
	itemIndex?: number;
}

interface ContentMarketingCredential {
	baseUrl?: string;
}

/** The credential's base URL without trailing slashes and without a trailing `/v1` (every path starts with it). */
export function normaliseBaseUrl(baseUrl: string | undefined): string {
	return (baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

function isPlainBody(body: ApiRequestOptions['body']): body is IDataObject | IDataObject[] {
	return typeof body === 'object' && body !== null && (Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ENVELOPE_KEYS = ['data', 'object', 'meta', 'request_id', 'links'];

/** §11: a single object may come wrapped as `{ "data": { ... } }`. Lists (an array in `data`) are left alone. */
function unwrap(body: unknown): unknown {
	if (isObject(body) && isObject(body.data) && Object.keys(body).every((key) => ENVELOPE_KEYS.includes(key))) {
		return body.data;
	}
	return body;
}

function cancelSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
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
	const { baseUrl } = await this.getCredentials<ContentMarketingCredential>(CREDENTIAL_TYPE);
	const base = normaliseBaseUrl(baseUrl);
	const isMultipart = options.body !== undefined && !isPlainBody(options.body);
	const idempotencyKey =
		options.idempotencyKey ?? (method === 'POST' && !isMultipart ? randomUUID() : undefined);
	const replayable = isReplayable(method, idempotencyKey !== undefined, isMultipart);

	const request: IHttpRequestOptions = {
		method,
		url: `${base}${path}`,
		qs: options.qs,
		headers: {
			Accept: 'application/json',
			...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}),
			...options.headers,
		},
		body: options.body as IHttpRequestOptions['body'],
		json: !isMultipart,
		timeout: REQUEST_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};

	const signal = cancelSignal(this);
	/** Set once an attempt failed in a way that may have reached the service (5xx, broken connection). */
	let mayHaveBeenProcessed = false;
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// A missing credential or a cancelled execution, not a network failure.
			if (error instanceof NodeOperationError || signal?.aborted) throw asNodeError(this.getNode(), error, options.itemIndex);
			if (replayable && attempt < MAX_RETRIES && isTransientNetworkError(error)) {
				mayHaveBeenProcessed = true;
				await sleepWithAbort(backoffDelay(attempt), signal);
				continue;
			}
			// n8n-core's own error may carry the request options (and so the Authorization header): not passed on.
			throw connectionApiError(this.getNode(), base, networkErrorCode(error), options.itemIndex);
		}

		const { statusCode, headers, body } = response;
		if (statusCode >= 200 && statusCode < 300) {
			return (body === '' || body === undefined || body === null ? {} : unwrap(body)) as T;
		}
		// The earlier attempt deleted it, only its answer was lost.
		if (statusCode === 404 && method === 'DELETE' && mayHaveBeenProcessed) return {} as T;
		const retry =
			attempt < MAX_RETRIES &&
			!signal?.aborted &&
			(statusCode === 429 || (statusCode >= 500 && replayable));
		if (retry) {
			if (statusCode !== 429) mayHaveBeenProcessed = true;
			await sleepWithAbort(
				statusCode === 429 ? (retryAfterDelay(headers) ?? backoffDelay(attempt)) : backoffDelay(attempt),
				signal,
			);
			continue;
		}
		throw serviceApiError(this.getNode(), readServiceError(statusCode, body, headers), options.itemIndex);
	}
}

/** All items of a list endpoint (or the first `limit`), following `next_cursor` with pages of up to 100. */
export async function apiRequestAllItems<T = IDataObject>(
	this: ApiContext,
	path: string,
	qs?: IDataObject,
	options?: ApiRequestAllItemsOptions,
): Promise<T[]>;
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
	options: ApiRequestAllItemsOptions = {},
): Promise<T[]> {
	const { limit, itemIndex } = options;
	const results: T[] = [];
	const seenCursors = new Set<string>();
	let cursor: string | undefined;
	do {
		const remaining = limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, limit - results.length);
		if (remaining <= 0) break;
		const body: unknown = await apiRequest.call(this, 'GET', path, {
			qs: { ...qs, limit: remaining, ...(cursor !== undefined ? { cursor } : {}) },
			itemIndex,
		});
		const page = readPage<T>(body);
		results.push(...page.items);
		cursor = page.next;
		// A service that repeats a cursor (or sends one with an empty page) would page forever.
		if (cursor !== undefined && (seenCursors.has(cursor) || page.items.length === 0)) break;
		if (cursor !== undefined) seenCursors.add(cursor);
	} while (cursor !== undefined);
	return limit === undefined ? results : results.slice(0, limit);
}
