import http from 'node:http';
import https from 'node:https';

export interface PostOutcome {
	statusCode: number | null;
	error: string | null;
	/** The answer's first bytes (UTF-8), null without an answer. */
	excerpt: string | null;
}

/** How much of an answer the delivery log keeps: enough to tell who answered. */
export const EXCERPT_BYTES = 120;

/**
 * One POST with a deadline for the whole answer (its first bytes are kept). Never rejects: connection errors and timeouts
 * come back as `statusCode: null` with the reason. No connection pooling (each attempt closes its socket).
 */
export function postJson(
	url: string,
	headers: Record<string, string>,
	body: string,
	timeoutMs: number,
	signal: AbortSignal,
): Promise<PostOutcome> {
	return new Promise((resolve) => {
		let settled = false;
		const finish = (outcome: PostOutcome): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(outcome);
		};
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			resolve({ statusCode: null, error: 'invalid URL', excerpt: null });
			return;
		}
		const transport = target.protocol === 'https:' ? https : http;
		const request = transport.request(
			target,
			{
				method: 'POST',
				headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
				agent: false,
				signal,
			},
			(response) => {
				const chunks: Buffer[] = [];
				let size = 0;
				const answered = () =>
					finish({
						statusCode: response.statusCode ?? null,
						error: null,
						excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
					});
				response.on('data', (chunk: Buffer) => {
					if (size >= EXCERPT_BYTES) return;
					chunks.push(chunk);
					size += chunk.length;
				});
				response.on('end', answered);
				response.on('aborted', answered);
				response.on('error', answered);
			},
		);
		const timer = setTimeout(() => {
			finish({ statusCode: null, error: `no answer within ${timeoutMs} ms`, excerpt: null });
			request.destroy();
		}, timeoutMs);
		request.on('error', (error) =>
			finish({ statusCode: null, error: error.message, excerpt: null }),
		);
		request.end(body);
	});
}
