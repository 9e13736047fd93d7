import type { IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/items';
import type { Sent } from './concurrency';
import { retryFits } from './deadline';
import { connectionApiError, readServiceError, serviceApiError } from './errors';
import { failureKind } from './response';
import type { RetryWait } from './retry';
import { networkErrorCode, retryAfterAnswer, retryAfterNetworkError } from './retry';
import type { ApiContext, Session } from './session';
import type { MultipartSource } from './types';

/** What a failed attempt needs to know about its request. */
export interface FailedRequest {
	session: Session;
	base: string;
	replayable: boolean;
	attempt: number;
	multipart?: MultipartSource;
	itemIndex?: number;
}

/**
 * A request that got no answer: the retry to make, or the error to throw. A cancelled execution or a
 * missing credential is passed on as it is; a connection failure names only the Base URL and the
 * system code (n8n-core's own error may carry the request options, and so the Authorization header).
 */
export function retryOrThrowAfterNoAnswer(
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
	// A poll's budget (deadline.ts): no retry that cannot finish before it.
	if (wait !== undefined && retryFits(session, wait.ms)) return wait;
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
export function retryOrThrowAfterErrorAnswer(
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
	const wait = retryAfterAnswer(statusCode, headers, failed.attempt, failed.replayable, cancelled);
	if (wait !== undefined && retryFits(session, wait.ms)) return wait;
	throw serviceApiError(this.getNode(), readServiceError(statusCode, body, headers), itemIndex);
}
