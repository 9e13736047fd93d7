import { randomUUID } from 'node:crypto';

import { asNodeError } from '../helpers/items';
import { sendAttempt } from './attempt';
import type { FailedRequest } from './failures';
import { retryOrThrowAfterErrorAnswer, retryOrThrowAfterNoAnswer } from './failures';
import type { Hop } from './redirects';
import { followRedirect } from './redirects';
import { answerBody, classifyAnswer } from './response';
import type { RetryWait } from './retry';
import { isReplayable } from './retry';
import { waitBeforeRetry } from './retryWait';
import type { ApiContext, Session, SessionCredential } from './session';
import { sessionOf } from './session';
import type { CoreRequest } from './types';

async function credentialOf(
	this: ApiContext,
	session: Session,
	itemIndex?: number,
): Promise<SessionCredential> {
	try {
		return await session.credential();
	} catch (error) {
		throw asNodeError(this.getNode(), error, itemIndex);
	}
}

/**
 * The one request path of the package (JSON, multipart, paging): attempts until one succeeds, following
 * redirects and retrying, each concern in its own file: one attempt with the credential's header and its
 * timeout (attempt.ts), what an answer means (response.ts), redirects kept within the Base URL's origin
 * (redirects.ts), retry or error after a failure (failures.ts, on the policy of retry.ts), and every wait
 * before a retry (retryWait.ts, called once below).
 */
export async function send<T>(this: ApiContext, request: CoreRequest): Promise<T> {
	const session = sessionOf(this);
	const { itemIndex, multipart, method } = request;
	const credential = await credentialOf.call(this, session, itemIndex);
	const idempotencyKey =
		request.idempotencyKey ??
		(method === 'POST' && multipart === undefined ? randomUUID() : undefined);
	const failed: FailedRequest = {
		session,
		base: credential.base,
		replayable: isReplayable(method, idempotencyKey !== undefined, multipart !== undefined),
		attempt: 0,
		multipart,
		itemIndex,
	};
	let hop: Hop = { url: `${credential.base}${request.path}`, method, qs: request.qs, redirects: 0 };
	/** Set once an attempt failed in a way that may have reached the service (5xx, broken connection). */
	let mayHaveBeenProcessed = false;
	for (;;) {
		const { sent, response, error } = await sendAttempt.call(
			this,
			session,
			credential,
			request,
			hop,
			idempotencyKey,
		);
		let wait: RetryWait;
		if (response === undefined) {
			wait = retryOrThrowAfterNoAnswer.call(this, failed, sent, error);
		} else {
			const body = answerBody(response, multipart === undefined);
			const verdict = classifyAnswer(response, body, method, mayHaveBeenProcessed);
			if (verdict.kind === 'success') {
				session.limit.answered(sent, 'ok');
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
		await waitBeforeRetry(session, wait);
		failed.attempt++;
	}
}
