import type { IDataObject, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

import { isObject } from '../helpers/values';
import type { AnswerKind } from './concurrency';

/** What one answer of the service means for the request that got it. */
export type AnswerVerdict =
	| { kind: 'success'; body: unknown }
	| { kind: 'redirect'; location: string }
	/** The DELETE of an earlier attempt went through, only its answer was lost: done. */
	| { kind: 'alreadyDeleted' }
	/** An error answer: retried (see retry.ts `retryAfterAnswer`) or turned into a NodeApiError. */
	| { kind: 'failure'; body: unknown };

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

export function isSuccess(statusCode: number): boolean {
	return statusCode >= 200 && statusCode < 300;
}

/** The answer's body as JSON when it can be read as such (a multipart request's answer comes as text). */
export function answerBody(response: IN8nHttpFullResponse, json: boolean): unknown {
	return json ? response.body : parseJson(response.body);
}

/**
 * What an answer means: a success (its body unwrapped, `{}` when empty), a redirect to follow, a DELETE
 * that an earlier attempt already did (`mayHaveBeenProcessed`: that attempt failed after it may have
 * reached the service), or a failure.
 */
export function classifyAnswer(
	response: IN8nHttpFullResponse,
	body: unknown,
	method: IHttpRequestMethods,
	mayHaveBeenProcessed: boolean,
): AnswerVerdict {
	const { statusCode, headers } = response;
	if (isSuccess(statusCode)) return { kind: 'success', body: isEmpty(body) ? {} : unwrap(body) };
	const location =
		statusCode >= 300 && statusCode < 400 ? headerText(headers, 'location') : undefined;
	if (location !== undefined) return { kind: 'redirect', location };
	if (statusCode === 404 && method === 'DELETE' && mayHaveBeenProcessed)
		return { kind: 'alreadyDeleted' };
	return { kind: 'failure', body };
}

/** How the adaptive limit (concurrency.ts) reads a failed answer's status. */
export function failureKind(statusCode: number): AnswerKind {
	return statusCode === 429 ? 'rate_limited' : statusCode >= 500 ? 'error' : 'ok';
}
