import { randomUUID } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
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
import { NodeOperationError } from 'n8n-workflow';

import { authorizationHeader, httpOrigin, keyMayGoTo } from '../../../credentials/apiKeyRule';
import { asNodeError } from '../helpers/itemErrors';
import { isObject } from '../helpers/values';
import type { AnswerKind, Sent } from './concurrency';
import { AdaptiveLimit, MAX_PARALLEL_UPLOADS, Semaphore } from './concurrency';
import {
	connectionApiError,
	keyWaitApiError,
	readServiceError,
	redirectApiError,
	serviceApiError,
} from './errors';
import type { Turn } from './keyPace';
import { keyId, paceOf, TurnExpiredError } from './keyPace';
import type { RetryWait } from './retry';
import {
	isReplayable,
	MAX_KEY_WAIT_MS,
	networkErrorCode,
	retryAfterAnswer,
	retryAfterNetworkError,
	sleepUnlessCancelled,
} from './retry';

// The one request path of the package (JSON, multipart, paging), in the order a request travels:
// the execution's session (credential read once, limit of requests in flight), `send` (attempts until
// one succeeds), the key's turn (keyPace.ts), one attempt, what its answer means, a redirect, a failure
// (retry or error), the wait.

export const CREDENTIAL_TYPE = 'contentMarketingApi';

/** A request that has not answered after this long fails (and is retried when replayable). */
const REQUEST_TIMEOUT_MS = 60_000;
/** Redirects within the Base URL's origin that are followed. */
const MAX_REDIRECTS = 5;
/** An attempt needs at least this long to be worth making after a wait before a deadline. */
const MIN_ATTEMPT_MS = 1_000;

export type ApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| IPollFunctions;

export interface ApiRequestOptions {
	/** JSON body. */
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The item the request is made for; named in errors. */
	itemIndex?: number;
	/** Sent as `Idempotency-Key` (docs/api-contract.md §8). Every JSON POST gets a fresh key per call when none is given, so it can be retried safely. */
	idempotencyKey?: string;
	/**
	 * Called with the headers of the answer that succeeded, and whether an earlier attempt of this request
	 * may have reached the service (e.g. to tell the service's replay of another request, §8, from one's own).
	 */
	onSuccess?: (headers: IDataObject, earlierAttemptMayHaveBeenProcessed: boolean) => void;
	headers?: IDataObject;
	/**
	 * Epoch milliseconds by which the request is over, retries included (a poll's budget,
	 * docs/api-contract.md §14): each attempt's timeout is cut to it and no retry waits past it.
	 */
	deadline?: number;
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

/** What `send` sends: a JSON request, or a multipart one. */
export interface CoreRequest extends ApiRequestOptions {
	method: IHttpRequestMethods;
	path: string;
	multipart?: MultipartSource;
}

// ---- The session: what all requests of one node execution share ----

interface SessionCredential {
	/** The Base URL without trailing slashes and `/v1` (every path starts with it). */
	base: string;
	/** The credential's header (apiKeyRule.ts), made once. */
	authorization: string;
	/** The name of the key's pace (keyPace.ts `keyId`): a hash, not the key. */
	keyId: string;
}

export interface Session {
	credential(): Promise<SessionCredential>;
	readonly limit: AdaptiveLimit;
	readonly uploads: Semaphore;
	readonly signal?: AbortSignal;
}

/** The credential's base URL without trailing slashes and without a trailing `/v1` (every path starts with it). */
export function normaliseBaseUrl(baseUrl: string | undefined): string {
	return (baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

// n8n makes one context object per node execution (and per load-options call or hook): the key of its session.
const sessions = new WeakMap<object, Session>();

/**
 * The session of this execution. Reading the credential costs n8n a database read and a decryption
 * each time (so does `httpRequestWithAuthentication`, per request); with hundreds of items in flight it is
 * read once and shared.
 */
export function sessionOf(context: ApiContext): Session {
	let session = sessions.get(context);
	if (session !== undefined) return session;
	let credential: Promise<SessionCredential> | undefined;
	session = {
		credential: async () => {
			credential ??= readCredential(context);
			// A failed read (no credential set) is not kept: the next call reports it again.
			return await credential.catch((error: unknown) => {
				credential = undefined;
				throw error;
			});
		},
		limit: new AdaptiveLimit(),
		uploads: new Semaphore(MAX_PARALLEL_UPLOADS),
		signal: 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined,
	};
	sessions.set(context, session);
	return session;
}

async function readCredential(context: ApiContext): Promise<SessionCredential> {
	const data = await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const baseUrl = typeof data.baseUrl === 'string' ? data.baseUrl : undefined;
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey : '';
	const base = normaliseBaseUrl(baseUrl);
	const authorization = authorizationHeader(apiKey);
	return { base, authorization, keyId: keyId(base, authorization) };
}

// ---- send: attempts until one succeeds ----

/** Where the next attempt goes: the request's URL until a redirect moves it. */
interface Hop {
	url: string;
	method: IHttpRequestMethods;
	qs?: IDataObject;
	/** Redirects followed so far. */
	redirects: number;
}

/** What a failed attempt needs to know about its request. */
interface FailedRequest {
	session: Session;
	base: string;
	replayable: boolean;
	/** Retries after failures other than 429 (retry.ts MAX_RETRIES). */
	attempt: number;
	/** 429 answers so far (they are retried for as long as the key's wait allows). */
	rateLimited: number;
	/** Time spent waiting for the key (turns and 429 pauses), bounded by MAX_KEY_WAIT_MS. */
	keyWaitMs: number;
	/** The pause of the last 429, counted when the next turn comes. */
	pausedMs: number;
	multipart?: MultipartSource;
	itemIndex?: number;
	deadline?: number;
}

/**
 * Sends `request` until it succeeds: each attempt after any rate-limit pause, redirects followed within
 * the Base URL's origin, failures retried on the policy of retry.ts or turned into a NodeApiError built
 * from the service's answer alone.
 */
export async function send<T>(this: ApiContext, request: CoreRequest): Promise<T> {
	const session = sessionOf(this);
	const { itemIndex, multipart, method } = request;
	let credential: SessionCredential;
	try {
		credential = await session.credential();
	} catch (error) {
		throw asNodeError(this.getNode(), error, itemIndex);
	}
	const idempotencyKey =
		request.idempotencyKey ??
		(method === 'POST' && multipart === undefined ? randomUUID() : undefined);
	const failed: FailedRequest = {
		session,
		base: credential.base,
		replayable: isReplayable(method, idempotencyKey !== undefined, multipart !== undefined),
		attempt: 0,
		rateLimited: 0,
		keyWaitMs: 0,
		pausedMs: 0,
		multipart,
		itemIndex,
		deadline: request.deadline,
	};
	let hop: Hop = { url: `${credential.base}${request.path}`, method, qs: request.qs, redirects: 0 };
	/** Set once an attempt failed in a way that may have reached the service (5xx, broken connection). */
	let mayHaveBeenProcessed = false;
	for (;;) {
		const turn = await waitForTurn.call(this, failed, credential);
		let attempt: AttemptResult | undefined;
		try {
			attempt = await sendAttempt.call(this, session, credential, request, hop, idempotencyKey);
		} finally {
			paceOf(credential.keyId).answered(
				turn,
				attempt?.response?.statusCode,
				attempt?.response?.headers,
			);
		}
		const { sent, response, error } = attempt;
		let wait: RetryWait;
		if (response === undefined) {
			wait = retryOrThrowAfterNoAnswer.call(this, failed, sent, error);
		} else {
			const body = answerBody(response, multipart === undefined);
			const verdict = classifyAnswer(response, body, method, mayHaveBeenProcessed);
			if (verdict.kind === 'success') {
				session.limit.answered(sent, 'ok');
				request.onSuccess?.(response.headers ?? {}, mayHaveBeenProcessed);
				return verdict.body as T;
			}
			if (verdict.kind === 'alreadyDeleted') return {} as T;
			if (verdict.kind === 'redirect') {
				// Not a retry: `attempt` stays.
				hop = followRedirect.call(
					this,
					hop,
					verdict.location,
					response,
					body,
					credential.base,
					itemIndex,
				);
				continue;
			}
			wait = retryOrThrowAfterErrorAnswer.call(this, failed, sent, response, body);
		}
		mayHaveBeenProcessed ||= wait.mayHaveBeenProcessed;
		await waitBeforeRetry(session, credential, failed, wait);
	}
}

// ---- The key's turn ----

/**
 * Waits for the request's turn on the key (shared by every execution of this process that uses it).
 * A retry goes ahead of its execution's other waiting requests. The wait ends with the execution's
 * cancellation, the request's deadline, or when the request has waited MAX_KEY_WAIT_MS for the key.
 */
async function waitForTurn(
	this: ApiContext,
	failed: FailedRequest,
	credential: SessionCredential,
): Promise<Turn> {
	const { session, itemIndex } = failed;
	const pace = paceOf(credential.keyId);
	// The pace's monotonic clock counts the wait; the deadline (epoch ms) is turned into it once, here.
	const started = pace.now();
	const expiresAt =
		started +
		Math.min(MAX_KEY_WAIT_MS - failed.keyWaitMs, timeLeft(failed.deadline) - MIN_ATTEMPT_MS);
	try {
		return await pace.take(session, {
			signal: session.signal,
			expiresAt,
			first: failed.attempt + failed.rateLimited > 0,
		});
	} catch (error) {
		if (error instanceof TurnExpiredError)
			throw keyWaitApiError(this.getNode(), failed.keyWaitMs + pace.now() - started, itemIndex);
		throw asNodeError(this.getNode(), error, itemIndex);
	} finally {
		// Whole milliseconds, so a turn given at once adds nothing; a 429's pause counts at least its length
		// (tests run `sleep` faster than the clock).
		failed.keyWaitMs += Math.max(Math.floor(pace.now() - started), failed.pausedMs);
		failed.pausedMs = 0;
	}
}

// ---- One attempt ----

/** One attempt's result: the service's answer (any status), or the error of a request that got none. */
type AttemptResult =
	| { sent: Sent; response: IN8nHttpFullResponse; error?: undefined }
	| { sent: Sent; response?: undefined; error: unknown };

/**
 * A JSON body as the text sent. Handing n8n the object instead would lose keys on n8n 2.41: its axios
 * (1.18 and later) merges the request config and skips the keys `constructor` and `prototype` at any
 * depth, so a custom field named `constructor` would vanish without an error. n8n sends no body for an
 * empty object; neither does this.
 */
function jsonBody(body: IDataObject | IDataObject[] | undefined): string | undefined {
	if (body === undefined || Object.keys(body).length === 0) return undefined;
	return JSON.stringify(body);
}

/** Milliseconds left before `deadline` (Infinity when there is none). */
function timeLeft(deadline: number | undefined): number {
	return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
}

/**
 * Sends the request once to `hop`, after any rate-limit pause: with the credential's header, the
 * Idempotency-Key, and a multipart body framed anew (a redirect turned into a GET sends none). Status
 * errors and redirects come back as answers.
 */
async function sendAttempt(
	this: ApiContext,
	session: Session,
	credential: SessionCredential,
	request: CoreRequest,
	hop: Hop,
	idempotencyKey: string | undefined,
): Promise<AttemptResult> {
	const { limit } = session;
	const { multipart } = request;
	const framed =
		multipart === undefined || hop.method === 'GET' ? undefined : await multipart.build();
	const json = multipart === undefined && hop.method !== 'GET' ? jsonBody(request.body) : undefined;
	const discard = () => {
		if (framed !== undefined && !Buffer.isBuffer(framed.body)) framed.body.destroy();
	};
	const headers: IDataObject = {
		Accept: 'application/json',
		Authorization: credential.authorization,
		...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}),
		...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
		...(framed !== undefined
			? {
					'Content-Type': framed.contentType,
					...(framed.contentLength !== undefined ? { 'Content-Length': framed.contentLength } : {}),
				}
			: {}),
		...request.headers,
	};
	const options: IHttpRequestOptions = {
		method: hop.method,
		url: hop.url,
		qs: hop.qs,
		headers,
		body: (framed?.body ?? json) as IHttpRequestOptions['body'],
		json: multipart === undefined,
		timeout: Math.max(1, Math.min(REQUEST_TIMEOUT_MS, timeLeft(request.deadline))),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed by `send`; following them in axios would also keep a streamed file in memory.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};

	const sent = limit.sent();
	try {
		const response = (await this.helpers.httpRequest(options)) as IN8nHttpFullResponse;
		if (response.statusCode < 200 || response.statusCode >= 300) discard();
		return { sent, response };
	} catch (error) {
		discard();
		return { sent, error };
	}
}

// ---- What an answer means ----

/** What one answer of the service means for the request that got it. */
export type AnswerVerdict =
	| { kind: 'success'; body: unknown }
	| { kind: 'redirect'; location: string }
	/** The DELETE of an earlier attempt went through, only its answer was lost: done. */
	| { kind: 'alreadyDeleted' }
	/** An error answer: retried (retry.ts `retryAfterAnswer`) or turned into a NodeApiError. */
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
	if (statusCode >= 200 && statusCode < 300)
		return { kind: 'success', body: isEmpty(body) ? {} : unwrap(body) };
	const location =
		statusCode >= 300 && statusCode < 400 ? headerText(headers, 'location') : undefined;
	if (location !== undefined) return { kind: 'redirect', location };
	if (statusCode === 404 && method === 'DELETE' && mayHaveBeenProcessed)
		return { kind: 'alreadyDeleted' };
	return { kind: 'failure', body };
}

/** How the limit of requests in flight (concurrency.ts) reads a failed answer's status. */
export function failureKind(statusCode: number): AnswerKind {
	return statusCode === 429 ? 'rate_limited' : statusCode >= 500 ? 'error' : 'ok';
}

// ---- A redirect ----

/**
 * The hop a redirect leads to. Followed only where the key may go (apiKeyRule.ts, the credential's own
 * rule): anywhere else is an error (as is the sixth redirect in a row). 303 (and 301/302 after a POST,
 * as browsers do) continue as a GET; 307/308 repeat the request.
 */
function followRedirect(
	this: ApiContext,
	from: Hop,
	location: string,
	response: IN8nHttpFullResponse,
	body: unknown,
	base: string,
	itemIndex?: number,
): Hop {
	const { statusCode, headers } = response;
	const target = new URL(location, from.url);
	if (!keyMayGoTo(httpOrigin(target.href), base))
		throw redirectApiError(this.getNode(), base, target.origin, itemIndex);
	if (from.redirects + 1 > MAX_REDIRECTS) {
		throw serviceApiError(this.getNode(), readServiceError(statusCode, body, headers), itemIndex);
	}
	const becomesGet =
		statusCode === 303 || ((statusCode === 301 || statusCode === 302) && from.method === 'POST');
	return {
		url: target.href,
		method: becomesGet ? 'GET' : from.method,
		qs: undefined,
		redirects: from.redirects + 1,
	};
}

// ---- A failure: retry or error ----

/** Whether a retry that first waits `ms` still has time for its attempt before the request's deadline. */
function retryFits(failed: FailedRequest, wait: RetryWait | undefined): wait is RetryWait {
	return wait !== undefined && timeLeft(failed.deadline) >= wait.ms + MIN_ATTEMPT_MS;
}

/**
 * A request that got no answer: the retry to make, or the error to throw. A cancelled execution or a
 * missing credential is passed on as it is; a connection failure names only the Base URL and the
 * system code (n8n-core's own error may carry the request options, and so the Authorization header).
 */
function retryOrThrowAfterNoAnswer(
	this: ApiContext,
	failed: FailedRequest,
	sent: Sent,
	error: unknown,
): RetryWait {
	const { session, itemIndex, multipart } = failed;
	if (error instanceof NodeOperationError || session.signal?.aborted)
		throw asNodeError(this.getNode(), error, itemIndex);
	session.limit.answered(sent, 'error');
	const wait = retryAfterNetworkError(error, failed.attempt, failed.replayable);
	if (retryFits(failed, wait)) return wait;
	const apiError = connectionApiError(
		this.getNode(),
		failed.base,
		networkErrorCode(error),
		itemIndex,
	);
	if (multipart?.connectionHint)
		apiError.description = `${apiError.description ?? ''} ${multipart.connectionHint}`;
	throw apiError;
}

/** An error answer (4xx, 5xx, a redirect without Location): the retry to make, or the NodeApiError built from the answer alone. */
function retryOrThrowAfterErrorAnswer(
	this: ApiContext,
	failed: FailedRequest,
	sent: Sent,
	response: IN8nHttpFullResponse,
	body: unknown,
): RetryWait {
	const { session, itemIndex } = failed;
	const { statusCode, headers } = response;
	session.limit.answered(sent, failureKind(statusCode));
	const cancelled = session.signal?.aborted === true;
	const rateLimited = statusCode === 429;
	const tries = rateLimited ? failed.rateLimited : failed.attempt;
	const wait = retryAfterAnswer(statusCode, headers, tries, failed.replayable, cancelled);
	const withinKeyWait =
		!rateLimited || (wait !== undefined && failed.keyWaitMs + wait.ms <= MAX_KEY_WAIT_MS);
	if (withinKeyWait && retryFits(failed, wait)) return wait;
	throw serviceApiError(this.getNode(), readServiceError(statusCode, body, headers), itemIndex);
}

/**
 * Every wait before a retry, and only here: a 429 pauses every turn of the key (keyPace.ts; the retry
 * then waits for its turn), anything else waits alone. Both end at once when the execution is cancelled.
 */
async function waitBeforeRetry(
	session: Session,
	credential: SessionCredential,
	failed: FailedRequest,
	wait: RetryWait,
): Promise<void> {
	if (wait.everySender) {
		failed.rateLimited++;
		failed.pausedMs = wait.ms;
		paceOf(credential.keyId).pauseFor(wait.ms);
		return;
	}
	failed.attempt++;
	await sleepUnlessCancelled(wait.ms, session.signal);
}
