import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import * as core from 'n8n-core';
import { jsonParse } from 'n8n-workflow';

/**
 * n8n's `parseIncomingMessage` (content type, encoding, disposition from the headers): n8n-core exports
 * it up to n8n 2.8; n8n 2.41 moved it to @n8n/backend-network, where its body parser takes it from.
 */
const parseIncomingMessage: (message: IncomingMessage) => void =
	(core as Partial<typeof core>).parseIncomingMessage ??
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- only n8n 2.41 ships this package
	(require('@n8n/backend-network') as { parseIncomingMessage: (message: IncomingMessage) => void })
		.parseIncomingMessage;

/**
 * The request a trigger's `webhook()` sees: a real `IncomingMessage` after n8n's `rawBodyReader`
 * middleware, with the express extras nodes use.
 */
export interface WebhookRequest extends IncomingMessage {
	body?: unknown;
	query: Record<string, string | string[] | undefined>;
	params: Record<string, string>;
	path: string;
	originalUrl: string;
	get(name: string): string | undefined;
	header(name: string): string | undefined;
}

/** A real `ServerResponse` with the express methods nodes call on `getResponseObject()`. */
export interface WebhookResponse extends ServerResponse {
	status(code: number): WebhookResponse;
	set(name: string, value: string | number | readonly string[]): WebhookResponse;
	header(name: string, value: string | number | readonly string[]): WebhookResponse;
	json(body: unknown): WebhookResponse;
	send(body?: unknown): WebhookResponse;
}

export function toWebhookRequest(req: IncomingMessage, url: URL): WebhookRequest {
	parseIncomingMessage(req);
	const headerValue = (name: string): string | undefined => {
		const value = req.headers[name.toLowerCase()];
		return Array.isArray(value) ? value.join(', ') : value;
	};
	return Object.assign(req, {
		query: parseQueryString(url.search.slice(1)),
		params: {},
		path: url.pathname,
		originalUrl: req.url ?? url.pathname,
		get: headerValue,
		header: headerValue,
		readRawBody: async () => {
			if (!req._body) {
				req.rawBody = await readStream(decodedStream(req));
				req._body = true;
			}
		},
	});
}

export function toWebhookResponse(res: ServerResponse): WebhookResponse {
	const response: WebhookResponse = Object.assign(res, {
		status(code: number) {
			res.statusCode = code;
			return response;
		},
		set(name: string, value: string | number | readonly string[]) {
			res.setHeader(name, value);
			return response;
		},
		header(name: string, value: string | number | readonly string[]) {
			res.setHeader(name, value);
			return response;
		},
		json(body: unknown) {
			if (!res.hasHeader('content-type'))
				res.setHeader('content-type', 'application/json; charset=utf-8');
			res.end(JSON.stringify(body));
			return response;
		},
		send(body?: unknown) {
			if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
				if (typeof body === 'string' && !res.hasHeader('content-type')) {
					res.setHeader('content-type', 'text/html; charset=utf-8');
				}
				res.end(body);
				return response;
			}
			return response.json(body);
		},
	});
	return response;
}

/** n8n's `parseBody` (packages/cli/src/middlewares/body-parser.ts), without XML support. */
export async function parseBody(req: WebhookRequest): Promise<void> {
	if (req.contentType?.startsWith('multipart/')) return;
	await req.readRawBody();
	const { rawBody, contentType, encoding } = req;
	if (!rawBody?.length) return;
	if (contentType === 'application/json') {
		req.body = jsonParse(rawBody.toString(encoding));
	} else if (contentType === 'application/x-www-form-urlencoded') {
		req.body = parseQueryString(rawBody.toString(encoding), undefined, undefined, {
			maxKeys: 1000,
		});
	} else if (contentType === 'text/plain') {
		req.body = rawBody.toString(encoding);
	}
}

/** Which requests n8n pre-parses for nodes newer than version 1 (webhook-helpers' isParsableContentType). */
export function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

function decodedStream(req: IncomingMessage): Readable {
	switch (req.headers['content-encoding']) {
		case 'gzip':
			return req.pipe(createGunzip());
		case 'deflate':
			return req.pipe(createInflate());
		default:
			return req;
	}
}

async function readStream(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) {
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	}
	return Buffer.concat(chunks);
}
