import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import { ManualExecutionCancelledError, sleep } from 'n8n-workflow';

// The retry policy (docs/api-contract.md §9, §11): which requests may be sent again, after which failures,
// and how long to wait first. `send` (request.ts) applies it.

/** Failures other than 429 (5xx, broken connections) are retried at most this often (docs/api-contract.md §11). */
export const MAX_RETRIES = 6;
/**
 * A busy key costs time, not the item: a 429 is retried until the request has waited this long for the
 * key in all (its turns and the pauses after 429s; docs/api-contract.md §9).
 */
export const MAX_KEY_WAIT_MS = 15 * 60_000;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A Retry-After longer than this is cut short; the next attempt then simply waits again. */
const MAX_RETRY_AFTER_MS = 60_000;

const IDEMPOTENT_METHODS: IHttpRequestMethods[] = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'];

/** Network failures after which the request may or may not have reached the service. */
const TRANSIENT_NETWORK_CODES = [
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'ESOCKETTIMEDOUT',
];
const TRANSIENT_NETWORK_MESSAGES = ['socket hang up'];

/** Whether sending the request twice is safe: idempotent methods, and POSTs carrying an Idempotency-Key (docs/api-contract.md §8). */
export function isReplayable(
	method: IHttpRequestMethods,
	hasIdempotencyKey: boolean,
	isMultipart: boolean,
): boolean {
	if (isMultipart) return false;
	return IDEMPOTENT_METHODS.includes(method) || (method === 'POST' && hasIdempotencyKey);
}

export function backoffDelay(attempt: number): number {
	const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
	// Up to 10 % jitter so that parallel executions do not retry in lockstep.
	return Math.round(delay * (1 + Math.random() * 0.1));
}

/** Milliseconds to wait according to a Retry-After header (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterDelay(
	headers: IDataObject | undefined,
	now = Date.now(),
): number | undefined {
	const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
	if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
	const text = String(raw).trim();
	if (text === '') return undefined;
	const seconds = Number(text);
	if (Number.isFinite(seconds) && seconds >= 0)
		return Math.min(MAX_RETRY_AFTER_MS, Math.round(seconds * 1000));
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}

interface ErrorSignals {
	codes: string[];
	messages: string[];
}

const SYSTEM_CODE = /\bE[A-Z_]{3,}\b/g;

/**
 * Codes and messages along an error's cause chain. n8n-core wraps network failures in a NodeApiError whose
 * `httpCode` holds the system code (ECONNRESET, ...) and whose `messages` keep the original texts.
 */
function errorSignals(error: unknown): ErrorSignals {
	const signals: ErrorSignals = { codes: [], messages: [] };
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const { code, httpCode, message, messages, cause } = current as {
			code?: unknown;
			httpCode?: unknown;
			message?: unknown;
			messages?: unknown;
			cause?: unknown;
		};
		const texts = [message, ...(Array.isArray(messages) ? messages : [])].filter(
			(text): text is string => typeof text === 'string',
		);
		for (const candidate of [code, httpCode]) {
			if (typeof candidate === 'string') signals.codes.push(candidate.toUpperCase());
		}
		for (const text of texts) {
			signals.messages.push(text.toLowerCase());
			signals.codes.push(...(text.match(SYSTEM_CODE) ?? []));
		}
		current = cause;
	}
	return signals;
}

export function isTransientNetworkError(error: unknown): boolean {
	const { codes, messages } = errorSignals(error);
	return (
		codes.some((code) => TRANSIENT_NETWORK_CODES.includes(code)) ||
		messages.some((message) => TRANSIENT_NETWORK_MESSAGES.some((text) => message.includes(text)))
	);
}

/** The first Node.js system error code (ECONNREFUSED, ENOTFOUND, ...) along the cause chain. */
export function networkErrorCode(error: unknown): string | undefined {
	return errorSignals(error).codes.find((code) => /^E[A-Z_]{3,}$/.test(code));
}

/** A retry `send` makes: after `ms`, waited by its `waitBeforeRetry`. */
export interface RetryWait {
	ms: number;
	/** A 429: the limit is per API key, so every turn of the key pauses (keyPace.ts, docs/api-contract.md §9). */
	everySender: boolean;
	/** The failed attempt may have reached the service (5xx, broken connection). */
	mayHaveBeenProcessed: boolean;
}

/** Whether (and after how long) to re-send after a request got no answer: replayable requests only, after a transient failure. */
export function retryAfterNetworkError(
	error: unknown,
	attempt: number,
	replayable: boolean,
): RetryWait | undefined {
	if (!replayable || attempt >= MAX_RETRIES || !isTransientNetworkError(error)) return undefined;
	return { ms: backoffDelay(attempt), everySender: false, mayHaveBeenProcessed: true };
}

/**
 * Whether (and after how long) to re-send after an error answer (docs/api-contract.md §9, §11): every
 * request after a 429 (after its Retry-After, else backing off; `attempt` counts the 429s, and the
 * request's wait for the key bounds them, not a count), replayable ones after a 5xx within MAX_RETRIES
 * retries; never once the execution is cancelled.
 */
export function retryAfterAnswer(
	statusCode: number,
	headers: IDataObject | undefined,
	attempt: number,
	replayable: boolean,
	cancelled: boolean,
): RetryWait | undefined {
	if (cancelled) return undefined;
	if (statusCode === 429) {
		const ms = retryAfterDelay(headers) ?? backoffDelay(attempt);
		return { ms, everySender: true, mayHaveBeenProcessed: false };
	}
	if (attempt >= MAX_RETRIES) return undefined;
	if (statusCode >= 500 && replayable)
		return { ms: backoffDelay(attempt), everySender: false, mayHaveBeenProcessed: true };
	return undefined;
}

/**
 * Waits `ms`, or rejects as soon as `signal` aborts (the user stopped the execution while a retry waits),
 * with the error n8n's own cancellation uses. Not n8n-workflow's `sleepWithAbort`: n8n 2.41's n8n-workflow,
 * which the nodes load from the user's n8n, does not export it; `sleep` is in every supported n8n (checked by
 * `npm run lint`).
 */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal === undefined) return await sleep(ms);
	if (signal.aborted) throw new ManualExecutionCancelledError('');
	let onAbort = () => {};
	const cancelled = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new ManualExecutionCancelledError(''));
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
