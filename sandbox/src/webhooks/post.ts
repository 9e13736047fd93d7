import http from 'node:http';
import https from 'node:https';

export interface PostOutcome {
	statusCode: number | null;
	error: string | null;
}

/**
 * One POST with a deadline for the answer's status line. Never rejects: connection errors and timeouts
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
			resolve({ statusCode: null, error: 'invalid URL' });
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
				response.resume();
				finish({ statusCode: response.statusCode ?? null, error: null });
			},
		);
		const timer = setTimeout(() => {
			finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` });
			request.destroy();
		}, timeoutMs);
		request.on('error', (error) => finish({ statusCode: null, error: error.message }));
		request.end(body);
	});
}
