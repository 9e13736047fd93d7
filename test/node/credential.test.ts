// The credential's Test as n8n's credential tester runs it (packages/cli credentials-tester.service.ts):
// the credential type has no test request of its own, so the tester takes the `testedBy` method of a node
// that uses the credential and calls it with n8n-core's CredentialTestContext.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialTestFunctions, INodeCredentialTestResult, INodeType } from 'n8n-workflow';

import { CREDENTIAL, NodeTestBed } from './contentMarketingRun';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });

type TestMethod = (this: ICredentialTestFunctions, credential: object) => Promise<INodeCredentialTestResult>;

/** What the tester would call: the credential's nodes in the package, each naming the same method. */
function testMethod(): TestMethod {
	expect(bed.harness.credentialTypes.getByName(CREDENTIAL).test).toBeUndefined();
	const methods = new Set<TestMethod>();
	for (const typeName of bed.harness.nodeTypes.typeNames().filter((name) => name.startsWith('n8n-nodes-content-marketing.'))) {
		const type = bed.harness.nodeTypes.getByNameAndVersion(typeName) as INodeType;
		const usage = type.description.credentials?.find((credential) => credential.name === CREDENTIAL);
		if (usage === undefined) continue;
		expect(typeof usage.testedBy).toBe('string');
		const method = type.methods?.credentialTest?.[usage.testedBy as string] as TestMethod | undefined;
		expect(method).toBeDefined();
		methods.add(method as TestMethod);
	}
	expect(methods.size).toBe(1);
	return [...methods][0];
}

async function testCredential(data: { apiKey: string; baseUrl: string }): Promise<INodeCredentialTestResult> {
	const credential = { id: '1', name: 'Content Marketing account', type: CREDENTIAL, data };
	return await testMethod().call(new CredentialTestContext() as ICredentialTestFunctions, credential);
}

/** A server on localhost that is not the API: it answers every request with `answer`. */
async function otherServer(answer: (headers: IncomingHttpHeaders) => { status: number; headers?: Record<string, string>; body?: string }) {
	const server: Server = createServer((request, response) => {
		const { status, headers, body } = answer(request.headers);
		response.writeHead(status, headers).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('a valid key and Base URL pass with one GET /v1/leads?limit=1 (an endpoint of the spec)', async () => {
	expect(await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url })).toEqual({ status: 'OK', message: 'Connection successful' });
	const requests = await bed.requests();
	expect(requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/leads', status: 200, query: 'limit=1' })]);
	expect(requests[0]).toMatchObject({ key_role: 'full' });
});

test('a Base URL with a trailing slash or /v1 passes too, and a read-only key passes (it may read)', async () => {
	expect((await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/` })).status).toBe('OK');
	expect((await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/v1/` })).status).toBe('OK');
	expect((await testCredential({ apiKey: bed.keys.read_only, baseUrl: ` ${bed.url} ` })).status).toBe('OK');
});

test("a wrong or expired key says the key is wrong, in the service's words, without the key", async () => {
	for (const apiKey of ['cmk_wrong_key_0123456789', bed.keys.expired]) {
		const result = await testCredential({ apiKey, baseUrl: bed.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The API key was refused \(HTTP 401, unauthorized: .+\): check the API key\. The Base URL answered, so it is right\.$/);
		expect(result.message).not.toContain(apiKey);
	}
});

test('a Base URL that is not the API says the URL is wrong (404 and 405 of the service)', async () => {
	const missing = await testCredential({ apiKey: bed.keys.full, baseUrl: `${bed.url}/somewhere/else` });
	expect(missing).toEqual({
		status: 'Error',
		message: expect.stringMatching(/^No Content Marketing API at this Base URL \(HTTP 404, not_found: .+\): check the Base URL/),
	});
	expect(missing.message).not.toMatch(/API key/);
});

test('a server that answers 200 without the API, or 500, is not taken for the API', async () => {
	const website = await otherServer(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>hello</html>' }));
	try {
		const result = await testCredential({ apiKey: bed.keys.full, baseUrl: website.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^No Content Marketing API at this Base URL: .*\/v1\/leads answered HTTP 200 but not with the API's list of leads/);
	} finally {
		await website.close();
	}
	await bed.control('PUT', '/_sandbox/faults', { rate_500: 1, path_prefix: '/v1/leads' });
	const failing = await testCredential({ apiKey: bed.keys.full, baseUrl: bed.url });
	expect(failing).toEqual({ status: 'Error', message: expect.stringMatching(/^The service answered HTTP 500, server_error/) });
});

test('a redirect to another origin is reported with that origin and not followed: the key stays home', async () => {
	const seen: string[] = [];
	const elsewhere = await otherServer((headers) => {
		seen.push(String(headers.authorization));
		return { status: 200, body: '{"data":[]}' };
	});
	const redirector = await otherServer(() => ({ status: 307, headers: { location: `${elsewhere.url}/v1/leads?limit=1` } }));
	try {
		const result = await testCredential({ apiKey: bed.keys.full, baseUrl: redirector.url });
		expect(result).toEqual({
			status: 'Error',
			message: `The Base URL redirects (HTTP 307) to ${elsewhere.url}; the key was not sent there. Enter the API's own address as the Base URL.`,
		});
		expect(seen).toEqual([]);
	} finally {
		await Promise.all([elsewhere.close(), redirector.close()]);
	}
});

test('an unreachable or malformed Base URL fails with the connection problem, not a key message', async () => {
	const refused = await testCredential({ apiKey: bed.keys.full, baseUrl: 'http://127.0.0.1:9' });
	expect(refused).toEqual({
		status: 'Error',
		message: 'http://127.0.0.1:9 refused the connection (ECONNREFUSED): check the Base URL (the API address your console shows, without /v1).',
	});
	const malformed = await testCredential({ apiKey: bed.keys.full, baseUrl: 'api.content-marketing.example' });
	expect(malformed.message).toMatch(/^The Base URL must be an address starting with https:\/\//);
	expect((await testCredential({ apiKey: '  ', baseUrl: bed.url })).message).toBe('Enter the API key.');
});
