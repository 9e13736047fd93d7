import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import type { Sent } from './concurrency';
import { attemptTimeout } from './deadline';
import { jsonBody } from './jsonBody';
import type { Hop } from './redirects';
import type { ApiContext, Session, SessionCredential } from './session';
import type { CoreRequest } from './types';

/** A request that has not answered after this long fails (and is retried when replayable). */
const REQUEST_TIMEOUT_MS = 60_000;

/** One attempt's result: the service's answer (any status), or the error of a request that got none. */
export type AttemptResult =
	| { sent: Sent; response: IN8nHttpFullResponse; error?: undefined }
	| { sent: Sent; response?: undefined; error: unknown };

/**
 * Sends the request once to `hop`, after any rate-limit pause: with the credential's header, the
 * Idempotency-Key, and a multipart body framed anew (a stream can be sent only once; a redirect turned
 * into a GET sends none). Status errors and redirects come back as answers, to be read by send.ts.
 */
export async function sendAttempt(
	this: ApiContext,
	session: Session,
	credential: SessionCredential,
	request: CoreRequest,
	hop: Hop,
	idempotencyKey: string | undefined,
): Promise<AttemptResult> {
	const { limit } = session;
	const { multipart } = request;
	await limit.whenOpen();
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
		// A poll's budget (deadline.ts) cuts it short.
		timeout: attemptTimeout(session, REQUEST_TIMEOUT_MS),
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// send.ts follows redirects itself; following them in axios would also keep a streamed file in memory.
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
