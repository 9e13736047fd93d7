// The credential's test request, run the way n8n's credential tester runs it: as the routing request of a
// throw-away declarative node with the credential attached (packages/cli credentials-tester.service.ts).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ICredentialTestRequest, IHttpRequestOptions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL, NodeTestBed } from './node-test-bed';

const TESTER_NODE = 'n8n-nodes-harness.credentialTest';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
let testRequest: ICredentialTestRequest;

beforeAll(() => {
	const credential = bed.harness.credentialTypes.getByName(CREDENTIAL);
	if (credential.test === undefined) throw new Error('the credential has no test request');
	testRequest = credential.test;
	const tester: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Runs a credential test request',
			defaults: { name: 'Credential Test' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: CREDENTIAL, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	};
	bed.harness.addNodeType(TESTER_NODE, tester);
});

/** lodash `get` for a dotted key, as the tester reads a rule's key. */
function get(value: unknown, key: string): unknown {
	return key
		.split('.')
		.reduce<unknown>(
			(at, part) =>
				at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined,
			value,
		);
}

/**
 * What n8n 2.8.4's tester would show (credentials-tester.service.ts): on a failed request the matching
 * `responseCode` rule, the status text or the error code; on an answer the first `responseSuccessBody` rule
 * whose key has its value in the answer; else "Connection successful!".
 */
async function testCredential(data: { apiKey: string; baseUrl: string }): Promise<string> {
	bed.harness.setCredentials(CREDENTIAL, data);
	const result = await bed.harness.runNode({ type: TESTER_NODE });
	if (result.error !== undefined) {
		const cause = (result.error as { cause?: { code?: string } }).cause;
		return cause?.code ?? result.error.message;
	}
	const answer = result.items[0]?.json;
	for (const rule of testRequest.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			get(answer, rule.properties.key) === rule.properties.value
		) {
			return rule.properties.message;
		}
	}
	return 'Connection successful!';
}

/** A server on localhost that is not the API: it answers every request with `answer`. */
async function otherServer(
	answer: (headers: IncomingHttpHeaders) => {
		status: number;
		headers?: Record<string, string>;
		body?: string;
	},
) {
	const server: Server = createServer((request, response) => {
		const { status, headers, body } = answer(request.headers);
		response.writeHead(status, headers).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

test('a valid key and Base URL pass with one GET /v1/leads?limit=1 (an endpoint of the spec)', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url })).toBe(
		'Connection successful!',
	);
	expect(await bed.requests()).toEqual([
		expect.objectContaining({ method: 'GET', path: '/v1/leads', status: 200 }),
	]);
	expect((await bed.requests())[0]).toMatchObject({ key_role: 'full' });
});

test('a Base URL with a trailing slash or /v1 passes too', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/` })).toBe(
		'Connection successful!',
	);
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/v1/` })).toBe(
		'Connection successful!',
	);
});

test('a read-only key passes (it may read)', async () => {
	expect(await testCredential({ apiKey: bed.keys.read_only, baseUrl: bed.url })).toBe(
		'Connection successful!',
	);
});

test('a wrong or expired key says the key is wrong (not n8n\'s generic "Authorization failed")', async () => {
	expect(await testCredential({ apiKey: 'cmk_wrong', baseUrl: bed.url })).toBe(
		'The API key was refused (HTTP 401 unauthorized: unknown or expired): check the API key. The Base URL answered, so it is right.',
	);
	// as a run says it: the service's own message
	expect(await testCredential({ apiKey: bed.keys.expired, baseUrl: bed.url })).toBe(
		'The API key has expired (HTTP 401 unauthorized: "API key expired"): issue a new key in the console. The Base URL answered, so it is right.',
	);
});

const NOT_THE_API =
	/^No Content Marketing API at this Base URL: GET \/v1\/leads did not answer with a list of leads/;

test("a Base URL that is not the API says the URL is wrong: the API's 404, a website, a redirect", async () => {
	expect(
		await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/somewhere/else` }),
	).toMatch(NOT_THE_API);
	const website = await otherServer(() => ({
		status: 200,
		headers: { 'content-type': 'text/html' },
		body: '<html>hello</html>',
	}));
	const missing = await otherServer(() => ({
		status: 404,
		headers: { 'content-type': 'text/html' },
		body: 'Not Found',
	}));
	try {
		expect(await testCredential({ apiKey: bed.keys.full, baseUrl: website.url })).toMatch(
			NOT_THE_API,
		);
		expect(await testCredential({ apiKey: bed.keys.full, baseUrl: missing.url })).toMatch(
			NOT_THE_API,
		);
	} finally {
		await Promise.all([website.close(), missing.close()]);
	}
});

test('a redirect to another origin is not followed: the key never leaves the Base URL', async () => {
	const seen: string[] = [];
	const elsewhere = await otherServer((headers) => {
		seen.push(String(headers.authorization));
		return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":[]}' };
	});
	const redirector = await otherServer(() => ({
		status: 307,
		headers: { location: `${elsewhere.url}/v1/leads?limit=1` },
	}));
	try {
		expect(await testCredential({ apiKey: bed.keys.full, baseUrl: redirector.url })).toMatch(
			NOT_THE_API,
		);
		expect(seen).toEqual([]);
	} finally {
		await Promise.all([elsewhere.close(), redirector.close()]);
	}
});

test('a rate-limited key and a failing service say so, not that the key is wrong', async () => {
	await bed.control.put('/_sandbox/faults', { rate_500: 1, path_prefix: '/v1/leads' });
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url })).toBe(
		'The service answered with an internal error (HTTP 500): test again later.',
	);
	await bed.control.put('/_sandbox/faults', { rate_429: 1, path_prefix: '/v1/leads' });
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url })).toMatch(
		/^The API key and Base URL are right, but the service is rate limiting this key \(HTTP 429\)/,
	);
});

test('an unreachable Base URL fails with the connection error, not a key message', async () => {
	const message = await testCredential({ apiKey: bed.keys.full, baseUrl: 'http://127.0.0.1:9' });
	expect(message).not.toMatch(/API key/);
	expect(message).toMatch(/refused the connection|ECONNREFUSED/);
});

describe('the key goes only to the Base URL origin (also through the HTTP Request node)', () => {
	const base = 'https://api.content-marketing.example';
	async function authenticate(baseUrl: string, request: IHttpRequestOptions & { uri?: string }) {
		const { authenticate: apply } = bed.harness.credentialTypes.getByName(CREDENTIAL);
		if (typeof apply !== 'function')
			throw new Error('the credential authenticates with a function');
		return await apply({ apiKey: 'cmk_secret', baseUrl }, request);
	}

	test.each([
		['an absolute url', { url: `${base}/v1/leads` }],
		['baseURL + path (credential test, routing)', { baseURL: `${base}/`, url: '/v1/leads' }],
		["the HTTP Request node's legacy uri", { url: '', uri: `${base}/v1/anything?x=1` }],
		['a Base URL given with /v1 and spaces', { url: `${base}/v1/leads`, baseUrl: ` ${base}/v1/ ` }],
	])('Bearer key for %s', async (_label, request) => {
		const { baseUrl = base, ...options } = request as IHttpRequestOptions & { baseUrl?: string };
		const result = await authenticate(baseUrl, options);
		expect(result.headers).toEqual(expect.objectContaining({ Authorization: 'Bearer cmk_secret' }));
		expect(result.sendCredentialsOnCrossOriginRedirect).toBe(false);
	});

	test.each([
		['another host', 'https://collector.example/v1/leads'],
		['a look-alike host', 'https://api.content-marketing.example.evil.test/v1/leads'],
		['another scheme', 'http://api.content-marketing.example/v1/leads'],
		['another port', 'https://api.content-marketing.example:8443/v1/leads'],
		['a relative url without base', '/v1/leads'],
	])('no key to %s, and none on a redirect', async (_label, url) => {
		const result = await authenticate(base, { url, headers: { Accept: 'application/json' } });
		expect(result.headers).toEqual({ Accept: 'application/json' });
		expect(JSON.stringify(result)).not.toContain('cmk_secret');
		expect(result.sendCredentialsOnCrossOriginRedirect).toBe(false);
	});

	test('no key when the Base URL is not an http(s) URL', async () => {
		const result = await authenticate('api.content-marketing.example', { url: `${base}/v1/leads` });
		expect(JSON.stringify(result)).not.toContain('cmk_secret');
	});
});
