// The Content-Marketing sandbox in this process (through tsx), plus a small client for its API and
// control surface. In-process means nothing can outlive the script: close() or the process exit ends it.
import { createRequire } from 'node:module';
import path from 'node:path';

import { register } from 'tsx/cjs/api';

import { PROJECT_ROOT } from './install-n8n.mjs';

/** Starts the sandbox on 127.0.0.1 (port 0: any free one) with the demo data. */
export async function startSandboxInProcess({ port = 0, seedDemo = true } = {}) {
	register();
	const require = createRequire(import.meta.url);
	const { startSandbox } = require(path.join(PROJECT_ROOT, 'sandbox', 'src', 'server.ts'));
	const sandbox = await startSandbox({ port, host: '127.0.0.1', seedDemo });
	const client = sandboxClient(sandbox.url);
	const keys = await client.control('GET', '/_sandbox/keys');
	return {
		url: sandbox.url,
		keys,
		client: sandboxClient(sandbox.url, keys.full),
		close: () => sandbox.close(),
	};
}

/** `api()` for /v1 (Bearer key), `control()` for /_sandbox; both throw on a non-2xx answer. */
export function sandboxClient(baseUrl, apiKey) {
	async function call(method, urlPath, body, headers = {}) {
		const res = await fetch(`${baseUrl}${urlPath}`, {
			method,
			headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	}
	return {
		baseUrl,
		api: (method, urlPath, body) =>
			call(method, urlPath, body, { authorization: `Bearer ${apiKey}` }),
		control: (method, urlPath, body) => call(method, urlPath, body),
	};
}
