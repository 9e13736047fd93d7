// The credential's test request, run the way n8n's credential tester runs it: as the routing request of a
// throw-away declarative node with the credential attached (packages/cli credentials-tester.service.ts).
import type { ICredentialTestRequest, IHttpRequestOptions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL, NodeTestBed } from './contentMarketingRun';

const TESTER_NODE = 'n8n-nodes-harness.credentialTest';

const bed = NodeTestBed.forFile();
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
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request: testRequest.request } }],
		},
	};
	bed.harness.addNodeType(TESTER_NODE, tester);
});

/** What n8n's tester would show: "Connection successful!", a matching rule's message, or the error. */
async function testCredential(data: { apiKey: string; baseUrl: string }): Promise<string> {
	bed.harness.setCredentials(CREDENTIAL, data);
	const result = await bed.harness.runNode({ type: TESTER_NODE });
	if (result.error === undefined) return 'Connection successful!';
	const status = Number((result.error as unknown as { httpCode?: string }).httpCode);
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseCode' && rule.properties.value === status) return rule.properties.message;
	}
	return result.error.message;
}

test('a valid key and Base URL pass with one GET /v1/leads?limit=1 (an endpoint of the spec)', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url })).toBe('Connection successful!');
	expect(await bed.requests()).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/leads', status: 200 })]);
	expect((await bed.requests())[0]).toMatchObject({ key_role: 'full' });
});

test('a Base URL with a trailing slash or /v1 passes too', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/` })).toBe('Connection successful!');
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/v1/` })).toBe('Connection successful!');
});

test('a read-only key passes (it may read)', async () => {
	expect(await testCredential({ apiKey: bed.keys.read_only, baseUrl: bed.url })).toBe('Connection successful!');
});

test('a wrong or expired key says the key is wrong', async () => {
	for (const apiKey of ['cmk_wrong', bed.keys.expired]) {
		expect(await testCredential({ apiKey, baseUrl: bed.url })).toMatch(/^The API key was refused \(HTTP 401\): check the API key/);
	}
});

test('a Base URL that is not the API says the URL is wrong', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/somewhere/else` })).toMatch(
		/^No Content Marketing API at this Base URL \(HTTP 404\)/,
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
		if (typeof apply !== 'function') throw new Error('the credential authenticates with a function');
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
