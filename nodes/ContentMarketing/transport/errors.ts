import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { withItem } from '../helpers/itemErrors';
import { isObject, trimmedText } from '../helpers/values';

/** The service's error, read from the body shapes of docs/api-contract.md §3 and §11. */
export interface ServiceError {
	status: number;
	code: string;
	message: string;
	requestId?: string;
	param?: string;
}

const CODE_BY_STATUS: Record<number, string> = {
	400: 'invalid_params',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	409: 'conflict',
	413: 'file_too_large',
	429: 'rate_limited',
};

const HINT_BY_STATUS: Record<number, string> = {
	401: 'The API key was refused (unknown or expired): check the API key in the Content Marketing API credential.',
	403: 'The API key has no permission for this (a read-only key, or an object of another account).',
	429: "The API key's rate limit stayed exceeded for 15 minutes of waiting; spread the work or use another key.",
};

export function readServiceError(
	status: number,
	body: unknown,
	headers?: IDataObject,
): ServiceError {
	const envelope = isObject(body) && isObject(body.error) ? body.error : isObject(body) ? body : {};
	const plain =
		typeof body === 'string'
			? body
					.replace(/<[^>]*>/g, ' ')
					.replace(/\s+/g, ' ')
					.trim()
					.slice(0, 300)
			: undefined;
	const code =
		trimmedText(envelope.code) ??
		(isObject(body) ? trimmedText(body.error) : undefined) ??
		CODE_BY_STATUS[status] ??
		(status >= 500 ? 'server_error' : `http_${status}`);
	const message =
		trimmedText(envelope.message) ??
		(isObject(body) ? trimmedText(body.message) : undefined) ??
		trimmedText(plain) ??
		`The service answered HTTP ${status}`;
	return {
		status,
		code,
		message,
		requestId: trimmedText(envelope.request_id) ?? trimmedText(headers?.['x-request-id']),
		param: trimmedText(envelope.param),
	};
}

/** A NodeApiError made only from the service's answer: no request options, so no credential, can leak into it. */
export function serviceApiError(
	node: INode,
	error: ServiceError,
	itemIndex?: number,
): NodeApiError {
	const details = [
		`HTTP ${error.status} ${error.code}`,
		error.param ? `parameter: ${error.param}` : undefined,
		error.requestId ? `request ID: ${error.requestId}` : undefined,
		HINT_BY_STATUS[error.status],
	].filter((part): part is string => part !== undefined);
	const response: JsonObject = {
		code: error.code,
		message: error.message,
		request_id: error.requestId ?? null,
		param: error.param ?? null,
		status: error.status,
	};
	return new NodeApiError(node, response, {
		message: withItem(`${error.message} (${error.code})`, itemIndex),
		description: details.join(' · '),
		httpCode: String(error.status),
		itemIndex,
	});
}

/**
 * The request waited for a turn of the API key (keyPace.ts) until its time ran out: the poll's deadline,
 * or 15 minutes of waiting for the key in all.
 */
export function keyWaitApiError(node: INode, waitedMs: number, itemIndex?: number): NodeApiError {
	const response: JsonObject = { code: 'rate_limited', message: 'no turn of the API key in time' };
	return new NodeApiError(node, response, {
		message: withItem("The API key's rate limit left this request no turn in time", itemIndex),
		description: `The request waited ${Math.round(waitedMs / 1000)} s for its turn of the API key (its rate limit is shared by every execution using it) and ran out of time. Spread the work or use another key.`,
		httpCode: '429',
		itemIndex,
	});
}

/** The service could not be reached at all (refused, unknown host, reset after the retries). */
export function connectionApiError(
	node: INode,
	baseUrl: string,
	code: string | undefined,
	itemIndex?: number,
): NodeApiError {
	// The message must not contain the system code itself: n8n would replace it with a generic text.
	const response: JsonObject = { message: 'connection failed', network_error: code ?? null };
	return new NodeApiError(node, response, {
		message: withItem('Could not connect to the Content Marketing API', itemIndex),
		description: `${code ?? 'Network error'} while calling ${baseUrl}. Check the Base URL in the credential and that the service is reachable.`,
		itemIndex,
	});
}

/**
 * The Base URL answered with a redirect to another origin. It is not followed: n8n would send the API key
 * (and the request's data) along to that origin.
 */
export function redirectApiError(
	node: INode,
	baseUrl: string,
	targetOrigin: string,
	itemIndex?: number,
): NodeApiError {
	const response: JsonObject = {
		message: 'redirect to another origin',
		location_origin: targetOrigin,
	};
	return new NodeApiError(node, response, {
		message: withItem(
			`The Content Marketing API redirected the request to ${targetOrigin}`,
			itemIndex,
		),
		description: `${baseUrl} answered with a redirect to another origin (${targetOrigin}). The request was not sent there, so the API key did not leave ${baseUrl}. Check the Base URL in the credential: use the API's address exactly as shown in your console (e.g. with https://).`,
		itemIndex,
	});
}

/**
 * A list the service ended early (apiScanItems' `cut short`): a cursor it sent before, an empty page that
 * still has a cursor, or a page without a list. What the rest of the list holds is unknown.
 */
export function listCutShortApiError(node: INode, path: string, itemIndex?: number): NodeApiError {
	const response: JsonObject = { message: 'list cut short', path };
	return new NodeApiError(node, response, {
		message: withItem(`The Content Marketing API ended the list ${path} early`, itemIndex),
		description:
			'A page repeated an earlier cursor, was empty but had a next cursor, or held no list. Whether a lead with this e-mail exists is unknown, so none was created. Run the node again; if it keeps happening, contact the service.',
		itemIndex,
	});
}
