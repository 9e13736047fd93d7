// The credential's test request, run the way n8n's credential tester runs it: as the routing request of a
// throw-away declarative node with the credential attached (packages/cli credentials-tester.service.ts),
// and what it answers in each case, which the tester's rules read. The messages the tester then shows
// come from n8n's own rule matching: checked in a real n8n by scripts/e2e/check-http-request-credential.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
	ICredentialTestRequest,
	IDataObject,
	IHttpRequestOptions,
	INodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL, NodeTestBed, PACKAGE_ROOT } from './node-test-bed';

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

/**
 * The credential's test request as n8n's tester sends it: the routing request of a throw-away node with the
 * credential attached, run by n8n-core's routing. Returns the answer the tester's rules are matched against
 * (`responseSuccessBody`: a key's value in the answer), or the error. Which message n8n then shows is n8n's
 * own matching, checked against a real n8n by the e2e (scripts/e2e/check-http-request-credential.mjs).
 */
async function runTestRequest(data: {
	apiKey: string;
	baseUrl: string;
}): Promise<{ answer?: IDataObject; error?: Error }> {
	bed.harness.setCredentials(CREDENTIAL, data);
	const result = await bed.harness.runNode({ type: TESTER_NODE });
	if (result.error !== undefined) return { error: result.error };
	expect(result.items).toHaveLength(1);
	return { answer: result.items[0].json };
}

/** The `responseSuccessBody` rule whose key holds `value` in an answer, by its key and value. */
function ruleFor(key: string, value: unknown) {
	const rule = (testRequest.rules ?? []).find(
		(candidate) =>
			candidate.type === 'responseSuccessBody' &&
			candidate.properties.key === key &&
			candidate.properties.value === value,
	);
	if (rule === undefined) throw new Error(`no rule for ${key} = ${String(value)}`);
	return rule;
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

test('a valid key and Base URL: one GET /v1/leads?limit=1 (an endpoint of the spec), answered with a list', async () => {
	const { answer } = await runTestRequest({ apiKey: bed.keys.full, baseUrl: bed.url });
	expect(Array.isArray(answer?.data)).toBe(true);
	expect(answer?.error).toBeUndefined();
	const requests = await bed.requests();
	expect(requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
		{ method: 'GET', path: '/v1/leads', status: 200 },
	]);
	expect(requests[0]).toMatchObject({ key_role: 'full' });
});

test('a Base URL with a trailing slash or /v1 reaches the same endpoint', async () => {
	for (const baseUrl of [`${bed.url}/`, `${bed.url}/v1/`]) {
		const { answer } = await runTestRequest({ apiKey: bed.keys.full, baseUrl });
		expect(Array.isArray(answer?.data)).toBe(true);
	}
	expect((await bed.requests()).map(({ path, status }) => `${path} ${status}`)).toEqual([
		'/v1/leads 200',
		'/v1/leads 200',
	]);
});

test('a read-only key is answered with the list too (it may read)', async () => {
	const { answer } = await runTestRequest({ apiKey: bed.keys.read_only, baseUrl: bed.url });
	expect(Array.isArray(answer?.data)).toBe(true);
});

test('a wrong key is answered with the code the "key refused" rule reads; an expired key with the message of the "key expired" rule, which n8n tries first', async () => {
	const refused = ruleFor('error.code', 'unauthorized');
	const expired = ruleFor('error.message', 'API key expired');
	expect(refused.properties.message).toMatch(/^The API key was refused .*The Base URL answered/);
	expect(expired.properties.message).toMatch(/^The API key has expired .*The Base URL answered/);
	const rules: unknown[] = testRequest.rules ?? [];
	expect(rules.indexOf(expired)).toBeLessThan(rules.indexOf(refused));
	const wrong = (await runTestRequest({ apiKey: 'cmk_wrong', baseUrl: bed.url })).answer?.error;
	expect(wrong).toMatchObject({ code: 'unauthorized' });
	expect((wrong as IDataObject).message).not.toBe('API key expired');
	const old = (await runTestRequest({ apiKey: bed.keys.expired, baseUrl: bed.url })).answer?.error;
	expect(old).toMatchObject({ code: 'unauthorized', message: 'API key expired' });
});

test("a Base URL that is not the API (the API's 404, a website, a missing page) answers without `data`", async () => {
	expect(ruleFor('data', undefined).properties.message).toMatch(
		/^No Content Marketing API at this Base URL/,
	);
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
		for (const baseUrl of [`${bed.url}/somewhere/else`, website.url, missing.url]) {
			const { answer, error } = await runTestRequest({ apiKey: bed.keys.full, baseUrl });
			expect(error).toBeUndefined();
			expect(answer?.data).toBeUndefined();
			expect((answer?.error as IDataObject | undefined)?.code).not.toBe('unauthorized');
		}
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
		const { answer, error } = await runTestRequest({
			apiKey: bed.keys.full,
			baseUrl: redirector.url,
		});
		expect(error).toBeUndefined();
		expect(answer?.data).toBeUndefined();
		expect(seen).toEqual([]);
	} finally {
		await Promise.all([elsewhere.close(), redirector.close()]);
	}
});

test('a failing service and a rate-limited key are answered with the codes their rules read, not "unauthorized"', async () => {
	for (const [fault, code] of [
		['rate_500', 'server_error'],
		['rate_429', 'rate_limited'],
	] as const) {
		expect(ruleFor('error.code', code).properties.message).not.toMatch(/refused/);
		await bed.control.put('/_sandbox/faults', { [fault]: 1, path_prefix: '/v1/leads' });
		const { answer } = await runTestRequest({ apiKey: bed.keys.full, baseUrl: bed.url });
		expect((answer?.error as IDataObject | undefined)?.code).toBe(code);
	}
});

test('every rule message names the field to change (API key or Base URL) or says neither is at fault', () => {
	const rules = testRequest.rules ?? [];
	expect(rules.length).toBeGreaterThan(0);
	for (const rule of rules) expect(String(rule.properties.message)).toMatch(/API key|Base URL/);
});

/** A local HTTPS server with a self-signed certificate (made by openssl for this run) that answers `{}`. */
async function selfSignedServer() {
	const dir = mkdtempSync(path.join(tmpdir(), 'cm-self-signed-'));
	const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-keyout',
			key,
			'-out',
			cert,
			'-days',
			'1',
			'-subj',
			'/CN=127.0.0.1',
		],
		{ stdio: 'ignore' },
	);
	const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_, r) =>
		r.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			await new Promise((resolve) => server.close(resolve));
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

// A test request that gets no answer reaches none of the rules (n8n's tester reads them only from an
// answer): n8n shows the error's code (2.41.3) or its own message (2.8.4). The Base URL's hint says what
// to check and points to README's Troubleshooting, which says what each means; scripts/e2e/check-editor.mjs
// checks the words a real n8n shows.
describe("a Base URL where nothing answers fails without an answer; the Base URL's hint and README's Troubleshooting explain what n8n shows", () => {
	const baseUrlHelp = () =>
		bed.harness.credentialTypes
			.getByName(CREDENTIAL)
			.properties.find((property) => property.name === 'baseUrl')?.hint ?? '';
	/** README's Troubleshooting section. */
	const troubleshooting = () => {
		const readme = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
		const section = readme.slice(
			readme.indexOf('## Troubleshooting'),
			readme.indexOf('## Resources'),
		);
		return section.replace(/\s+/g, ' ');
	};

	test("the hint says what to check in one sentence and points to README's Troubleshooting, which names every code or text n8n shows", () => {
		const help = baseUrlHelp();
		expect(help).toMatch(/check this address's https or http, host and port, not the API key/);
		expect(help).toMatch(/README, Troubleshooting/);
		expect(help.split(/[.?!](?:\s|$)/).filter((sentence) => sentence.trim() !== '')).toHaveLength(
			1,
		);
		const section = troubleshooting();
		for (const shown of [
			'ECONNREFUSED',
			'ENOTFOUND',
			'EAI_AGAIN',
			'ETIMEDOUT',
			'ECONNABORTED',
			'EPROTO',
			'certificate error',
			'The service refused the connection',
			'The connection cannot be established',
		])
			expect(section).toContain(shown);
	});

	test.each([
		['nothing listens there (refused)', 'refused', /refused the connection|ECONNREFUSED/],
		['https:// to a plain http port (TLS)', 'plain', /EPROTO/],
		['a self-signed certificate (TLS)', 'selfSigned', /certificate/],
	] as const)('%s', async (_label, target, shown) => {
		const plain = await otherServer(() => ({ status: 200, body: '{"data":[]}' }));
		const tls = await selfSignedServer();
		try {
			const baseUrl = {
				refused: 'http://127.0.0.1:9',
				plain: plain.url.replace(/^http:/, 'https:'),
				selfSigned: tls.url,
			}[target];
			const { answer, error } = await runTestRequest({ apiKey: bed.keys.full, baseUrl });
			expect(answer).toBeUndefined();
			const cause = (error as { cause?: { code?: string; response?: unknown } } | undefined)?.cause;
			expect(cause?.response).toBeUndefined();
			expect(`${cause?.code ?? ''} ${error?.message ?? ''}`).toMatch(shown);
			expect(troubleshooting()).toMatch(shown);
		} finally {
			await Promise.all([plain.close(), tls.close()]);
		}
	});
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
