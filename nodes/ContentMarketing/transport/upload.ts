import { randomBytes } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { sleepWithAbort } from 'n8n-workflow';

import { connectionApiError, readServiceError, serviceApiError } from './errors';
import { CREDENTIAL_TYPE, normaliseBaseUrl } from './index';
import { backoffDelay, MAX_RETRIES, networkErrorCode, retryAfterDelay } from './retry';

/** The Node.js Readable that `getBinaryStream` returns (typed without importing node:stream). */
export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** The file part of an upload: its bytes are read only when `open` is called, once per attempt. */
export interface MultipartFile {
	fileName: string;
	mimeType: string;
	/** Bytes, when known; sent as part of Content-Length. */
	size?: number;
	open: () => Promise<Buffer | BinaryStream>;
}

export interface MultipartBody {
	contentType: string;
	/** Undefined when the file's size is unknown (the body is then sent chunked). */
	contentLength?: number;
	body: Buffer | BinaryStream;
}

const CRLF = '\r\n';

/** A quoted-string parameter value as browsers write it (WHATWG): UTF-8, quotes and line breaks percent-encoded. */
function quoted(value: string): string {
	return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** Text parts first, then the file, so that a streaming server reads the metadata before the bytes. */
function framing(boundary: string, fields: Record<string, string>, file: MultipartFile | undefined): { head: Buffer; tail: Buffer } {
	let head = '';
	for (const [name, value] of Object.entries(fields)) {
		head += `--${boundary}${CRLF}Content-Disposition: form-data; name=${quoted(name)}${CRLF}${CRLF}${value}${CRLF}`;
	}
	if (file === undefined) return { head: Buffer.from(head), tail: Buffer.from(`--${boundary}--${CRLF}`) };
	head +=
		`--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename=${quoted(file.fileName)}${CRLF}` +
		`Content-Type: ${file.mimeType}${CRLF}${CRLF}`;
	return { head: Buffer.from(head), tail: Buffer.from(`${CRLF}--${boundary}--${CRLF}`) };
}

async function* concatenate(head: Buffer, content: BinaryStream, tail: Buffer): AsyncGenerator<Buffer> {
	yield head;
	for await (const chunk of content) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
	yield tail;
}

interface ReadableClass {
	from(iterable: AsyncIterable<Buffer>, options?: { objectMode: boolean }): BinaryStream;
}

/**
 * A stream of `head`, the file's stream and `tail`. Community nodes may not import node:stream, so the
 * Readable is made with the static `Readable.from` that the binary stream's own class inherits.
 */
function streamBody(head: Buffer, content: BinaryStream, tail: Buffer): BinaryStream {
	const { from } = content.constructor as unknown as Partial<ReadableClass>;
	if (typeof from !== 'function') {
		throw new TypeError('The binary data stream cannot be wrapped for a multipart upload');
	}
	return from.call(content.constructor, concatenate(head, content, tail), { objectMode: false });
}

/**
 * A `multipart/form-data` body with the given text fields and file. Binary data that is already in memory
 * is sent as one Buffer; a stream is passed through chunk by chunk and never held in memory as a whole.
 */
export async function buildMultipartBody(fields: Record<string, string>, file?: MultipartFile): Promise<MultipartBody> {
	const boundary = `----n8nContentMarketing${randomBytes(12).toString('hex')}`;
	const contentType = `multipart/form-data; boundary=${boundary}`;
	const { head, tail } = framing(boundary, fields, file);
	if (file === undefined) {
		const body = Buffer.concat([head, tail]);
		return { contentType, contentLength: body.length, body };
	}
	const content = await file.open();
	if (Buffer.isBuffer(content)) {
		const body = Buffer.concat([head, content, tail]);
		return { contentType, contentLength: body.length, body };
	}
	return {
		contentType,
		contentLength: file.size === undefined ? undefined : head.length + file.size + tail.length,
		body: streamBody(head, content, tail),
	};
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** §11: a single object may come wrapped as `{ "data": { ... } }`. */
function unwrap(body: unknown): IDataObject {
	if (isObject(body) && isObject(body.data) && body.id === undefined) return body.data;
	return isObject(body) ? body : {};
}

/**
 * A multipart request (§6 uploads), authenticated by the credential. Unlike `apiRequest`, the body is built
 * anew for each attempt, because a stream can be sent only once. Only 429 is retried (§9: a 429 had no
 * effect); a 5xx or a broken connection is not, since an upload is never replayed by Idempotency-Key (§8).
 */
export async function apiUpload(
	this: IExecuteFunctions,
	method: 'POST' | 'PUT',
	path: string,
	fields: Record<string, string>,
	file: MultipartFile | undefined,
	itemIndex: number,
): Promise<IDataObject> {
	const { baseUrl } = await this.getCredentials<{ baseUrl?: string }>(CREDENTIAL_TYPE);
	const base = normaliseBaseUrl(baseUrl);
	const signal = this.getExecutionCancelSignal();

	for (let attempt = 0; ; attempt++) {
		const { contentType, contentLength, body } = await buildMultipartBody(fields, file);
		const request: IHttpRequestOptions = {
			method,
			url: `${base}${path}`,
			headers: {
				Accept: 'application/json',
				'Content-Type': contentType,
				...(contentLength !== undefined ? { 'Content-Length': contentLength } : {}),
			},
			body,
			// Following redirects makes axios keep every sent chunk for a possible re-send: the whole file in memory.
			disableFollowRedirect: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request)) as IN8nHttpFullResponse;
		} catch (error) {
			if (!Buffer.isBuffer(body)) body.destroy();
			const apiError = connectionApiError(this.getNode(), base, networkErrorCode(error), itemIndex);
			if (file !== undefined) {
				apiError.description = `${apiError.description ?? ''} The connection may also have been closed by the service while the file "${file.fileName}" was being uploaded, e.g. because it is over the plan's size limit. The upload was not retried.`;
			}
			throw apiError;
		}

		const { statusCode, headers, body: answer } = response;
		if (statusCode >= 200 && statusCode < 300) return unwrap(parseJson(answer));
		if (!Buffer.isBuffer(body)) body.destroy();
		if (statusCode === 429 && attempt < MAX_RETRIES && !signal?.aborted) {
			await sleepWithAbort(retryAfterDelay(headers) ?? backoffDelay(attempt), signal);
			continue;
		}
		throw serviceApiError(this.getNode(), readServiceError(statusCode, parseJson(answer), headers), itemIndex);
	}
}

/** Without `json: true` the answer may arrive as text or a Buffer. */
function parseJson(body: unknown): unknown {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	if (typeof text !== 'string') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
