import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpResponse {
	status: number;
	headers: IncomingHttpHeaders;
	body: string;
}

/** A plain node:http request on a fresh connection: only the headers given (plus host, connection, length). */
export async function sendHttpRequest(
	url: URL | string,
	method: string,
	headers: Record<string, string>,
	body?: Buffer | string,
): Promise<HttpResponse> {
	return await new Promise((resolve, reject) => {
		const req = httpRequest(url, { method, headers, agent: false }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => {
				resolve({
					status: res.statusCode ?? 0,
					headers: res.headers,
					body: Buffer.concat(chunks).toString(),
				});
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}
