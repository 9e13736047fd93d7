import type { IDataObject, IHttpRequestMethods, IN8nHttpFullResponse } from 'n8n-workflow';

import { readServiceError, redirectApiError, serviceApiError } from './errors';
import type { ApiContext } from './session';

/** Redirects within the Base URL's origin that are followed (by the core itself, see send.ts). */
const MAX_REDIRECTS = 5;

/** Where the next attempt goes: the request's URL until a redirect moves it. */
export interface Hop {
	url: string;
	method: IHttpRequestMethods;
	qs?: IDataObject;
	/** Redirects followed so far. */
	redirects: number;
}

function originOf(base: string): string {
	try {
		return new URL(base).origin;
	} catch {
		return base;
	}
}

/**
 * The hop a redirect leads to. Followed only within the Base URL's origin: n8n would send the API key
 * along to another origin, so that is an error (as is the sixth redirect in a row). 303 (and 301/302
 * after a POST, as browsers do) continue as a GET; 307/308 repeat the request.
 */
export function followRedirect(
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
	if (target.origin !== originOf(base))
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
