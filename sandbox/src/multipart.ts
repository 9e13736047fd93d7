// Multipart uploads (docs/api-contract.md §6): the file is counted and hashed while it streams, never kept; past the
// plan's limit the request is refused at once with 413 and the rest of the body is drained so that the
// client, still sending, reads the answer instead of a reset connection.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors';
import { toApiError } from './http';
import type { FileInfo } from './model';

export interface MultipartForm {
	fields: Map<string, unknown>;
	file: FileInfo | null;
}

const FIELD_SIZE_LIMIT = 64 * 1024;

async function consumeFile(part: MultipartFile, maxBytes: number): Promise<FileInfo> {
	const hash = createHash('sha256');
	let size = 0;
	for await (const chunk of part.file) {
		const bytes = chunk as Buffer;
		size += bytes.length;
		if (size > maxBytes) {
			throw new ApiError(
				'file_too_large',
				`file: larger than the plan's upload limit of ${maxBytes} bytes`,
				'file',
			);
		}
		hash.update(bytes);
	}
	if (size === 0) throw ApiError.invalid('file', 'is empty');
	return {
		name: part.filename || 'upload',
		size,
		mime_type: part.mimetype || 'application/octet-stream',
		sha256: hash.digest('hex'),
	};
}

/** Discards the rest of a refused request body (at most `maxBytes` more, then the socket is closed). */
function drain(raw: IncomingMessage, maxBytes: number): void {
	raw.unpipe();
	if (raw.readableEnded || raw.destroyed) return;
	let drained = 0;
	raw.on('data', (chunk: Buffer) => {
		drained += chunk.length;
		if (drained > maxBytes) raw.socket.destroy();
	});
	raw.resume();
}

/** Reads all parts: `file` (one, streamed) and the named text fields; any other part is 400 naming it. */
export async function readMultipart(
	request: FastifyRequest,
	allowedFields: readonly string[],
	maxFileBytes: number,
): Promise<MultipartForm> {
	const fields = new Map<string, unknown>();
	let file: FileInfo | null = null;
	try {
		const parts = request.parts({
			limits: {
				fileSize: maxFileBytes + 1,
				files: 1,
				fields: 20,
				parts: 21,
				fieldSize: FIELD_SIZE_LIMIT,
			},
		});
		for await (const part of parts) {
			if (part.type === 'file') {
				if (part.fieldname !== 'file') throw ApiError.invalid(part.fieldname, 'unknown part');
				file = await consumeFile(part, maxFileBytes);
				continue;
			}
			if (part.fieldname === 'file')
				throw ApiError.invalid('file', 'must be a file part (with a filename)');
			if (!allowedFields.includes(part.fieldname))
				throw ApiError.invalid(part.fieldname, 'unknown part');
			if (fields.has(part.fieldname))
				throw ApiError.invalid(part.fieldname, 'is given more than once');
			if (part.valueTruncated)
				throw ApiError.invalid(part.fieldname, `is longer than ${FIELD_SIZE_LIMIT} bytes`);
			fields.set(part.fieldname, part.value);
		}
	} catch (error) {
		drain(request.raw, maxFileBytes);
		throw toApiError(error);
	}
	return { fields, file };
}
