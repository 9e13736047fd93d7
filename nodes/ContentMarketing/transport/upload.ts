import { randomBytes } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isObject } from '../helpers/values';
import type { CoreRequest } from './request';
import { send, sessionOf } from './request';

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
function framing(
	boundary: string,
	fields: Record<string, string>,
	file: MultipartFile | undefined,
): { head: Buffer; tail: Buffer } {
	let head = '';
	for (const [name, value] of Object.entries(fields)) {
		head += `--${boundary}${CRLF}Content-Disposition: form-data; name=${quoted(name)}${CRLF}${CRLF}${value}${CRLF}`;
	}
	if (file === undefined)
		return { head: Buffer.from(head), tail: Buffer.from(`--${boundary}--${CRLF}`) };
	head +=
		`--${boundary}${CRLF}Content-Disposition: form-data; name="file"; filename=${quoted(file.fileName)}${CRLF}` +
		`Content-Type: ${file.mimeType}${CRLF}${CRLF}`;
	return { head: Buffer.from(head), tail: Buffer.from(`${CRLF}--${boundary}--${CRLF}`) };
}

async function* concatenate(
	head: Buffer,
	content: BinaryStream,
	tail: Buffer,
): AsyncGenerator<Buffer> {
	yield head;
	for await (const chunk of content)
		yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
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
export async function buildMultipartBody(
	fields: Record<string, string>,
	file?: MultipartFile,
): Promise<MultipartBody> {
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

/**
 * A multipart request (docs/api-contract.md §6 uploads) through the one request path; the body is framed
 * anew for each attempt, because a stream can be sent only once, and it is never replayed after a 5xx or a
 * broken connection (docs/api-contract.md §8). An upload holds its file's bytes while they are sent: at
 * most MAX_PARALLEL_UPLOADS (concurrency.ts) at once.
 */
export async function apiUpload(
	this: IExecuteFunctions,
	method: 'POST' | 'PUT',
	path: string,
	fields: Record<string, string>,
	file: MultipartFile | undefined,
	itemIndex: number,
): Promise<IDataObject> {
	const { uploads } = sessionOf(this);
	await uploads.acquire();
	try {
		const answer = await send.call<IExecuteFunctions, [CoreRequest], Promise<unknown>>(this, {
			method,
			path,
			itemIndex,
			multipart: {
				build: async () => await buildMultipartBody(fields, file),
				connectionHint:
					file === undefined
						? undefined
						: `The connection may also have been closed by the service while the file "${file.fileName}" was being uploaded, e.g. because it is over the plan's size limit. The upload was not retried.`,
			},
		});
		return isObject(answer) ? answer : {};
	} finally {
		uploads.release();
	}
}
