// The Content Marketing API credential in n8n's HTTP Request node (Authentication › Predefined
// Credential Type): n8n offers it there, a request to the Base URL's origin carries the Bearer key,
// and the key never leaves that origin: not to another URL typed into the node, not on a redirect to
// another origin. Two loopback listeners stand in for "another origin" and record what arrives. The
// credential's own Test still tells a good key from a refused one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';

import { CREDENTIALS } from './examples.mjs';
import { nodeOutput, ownerCookie } from './n8n.mjs';

export const HTTP_WORKFLOW_ID = 'cmE2eHttpRequestCred';
const LOOPBACK_CREDENTIAL = {
	id: 'cmE2eLoopbackCred01',
	name: 'Content Marketing (loopback origin)',
	type: 'contentMarketingApi',
};
const LOOPBACK_KEY = `cm_e2e_loopback_${randomBytes(12).toString('hex')}`;
/** The two loopback listeners of this run (set by prepare). */
let listeners;

/** A loopback HTTP listener that records every request; `/redirect` answers 307 to `redirectTo`. */
function startListener() {
	const requests = [];
	const listener = { requests, redirectTo: undefined, url: '' };
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method, path: req.url, headers: req.headers });
		req.resume();
		if (req.url.startsWith('/redirect') && listener.redirectTo) {
			res.writeHead(307, { location: listener.redirectTo }).end();
			return;
		}
		res
			.writeHead(200, { 'content-type': 'application/json' })
			.end(JSON.stringify({ ok: true, path: req.url }));
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			listener.url = `http://127.0.0.1:${server.address().port}`;
			listener.close = () => new Promise((r) => server.close(() => r()));
			resolve(listener);
		});
	});
}

function httpRequestNode(name, url, credential, x) {
	return {
		id: `e2e-http-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [x, 0],
		executeOnce: true,
		parameters: {
			method: 'GET',
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'contentMarketingApi',
			options: {},
		},
		credentials: { contentMarketingApi: { id: credential.id, name: credential.name } },
	};
}

function httpWorkflow({ sandboxUrl, otherUrl, baseListenerUrl }) {
	const nodes = [
		{
			id: 'e2e-http-manual',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		httpRequestNode('Sandbox', `${sandboxUrl}/v1/leads?limit=1`, CREDENTIALS.contentMarketing, 200),
		httpRequestNode(
			'Other Origin',
			`${otherUrl}/other?from=sandbox-credential`,
			CREDENTIALS.contentMarketing,
			400,
		),
		httpRequestNode('Redirect', `${baseListenerUrl}/redirect`, LOOPBACK_CREDENTIAL, 600),
	];
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++)
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id: HTTP_WORKFLOW_ID,
		name: 'e2e: Content Marketing credential in the HTTP Request node',
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

const authorizationOf = (request) => request.headers.authorization;
const holdsKey = (request, key) => JSON.stringify(request.headers).includes(key);

/** Starts the two listeners; the loopback credential and the workflow to import with the examples'. */
async function prepare(stack) {
	const other = await startListener(); // "another origin"
	const base = await startListener(); // Base URL of the loopback credential; redirects to `other`
	stack.onClose(() => other.close());
	stack.onClose(() => base.close());
	base.redirectTo = `${other.url}/landing?from=redirect`;
	listeners = { other, base };
	return {
		credentials: [{ ...LOOPBACK_CREDENTIAL, data: { apiKey: LOOPBACK_KEY, baseUrl: base.url } }],
		workflows: [
			httpWorkflow({
				sandboxUrl: stack.sandbox.url,
				otherUrl: other.url,
				baseListenerUrl: base.url,
			}),
		],
	};
}

async function requestsThroughCredential(stack, runWorkflow) {
	const { other, base } = listeners;

	const { client } = stack.sandbox;
	const mark = (await client.control('GET', '/_sandbox/requests')).length;
	const { run } = await runWorkflow(HTTP_WORKFLOW_ID);
	assert.equal(
		run.status,
		'success',
		`the workflow ran: ${JSON.stringify(run.data?.resultData?.error ?? {})}`,
	);

	// the sandbox answers 200 only with the key: the request to the Base URL's origin carried it
	const [page] = nodeOutput(run, 'Sandbox').map((i) => i.json);
	assert.ok(
		Array.isArray(page?.data) && page.data.length === 1,
		`Sandbox: one lead listed: ${JSON.stringify(page).slice(0, 200)}`,
	);
	const sent = (await client.control('GET', '/_sandbox/requests'))
		.slice(mark)
		.filter((r) => r.path === '/v1/leads');
	assert.deepEqual(
		sent.map((r) => `${r.method} ${r.query} ${r.status}`),
		['GET limit=1 200'],
		'one authenticated GET /v1/leads',
	);

	const otherDirect = other.requests.filter((r) => r.path.startsWith('/other'));
	assert.equal(otherDirect.length, 1, 'the HTTP Request node reached the other origin once');
	assert.equal(
		authorizationOf(otherDirect[0]),
		undefined,
		'no Authorization header to another origin',
	);
	for (const key of Object.values(stack.sandbox.keys))
		assert.ok(!holdsKey(otherDirect[0], key), 'no API key in any header to another origin');

	const redirected = base.requests.filter((r) => r.path.startsWith('/redirect'));
	assert.equal(redirected.length, 1, 'one request to the Base URL that redirects');
	assert.equal(
		authorizationOf(redirected[0]),
		`Bearer ${LOOPBACK_KEY}`,
		'the Base URL origin got the Bearer key',
	);
	const landed = other.requests.filter((r) => r.path.startsWith('/landing'));
	assert.equal(landed.length, 1, 'the redirect was followed to the other origin');
	assert.equal(
		authorizationOf(landed[0]),
		undefined,
		'the key is not handed on across origins on a redirect',
	);
	assert.ok(!holdsKey(landed[0], LOOPBACK_KEY), 'no API key in any header after the redirect');
	return {
		detail: `Bearer to ${stack.sandbox.url} and ${base.url}; none to ${other.url} (direct or after a 307)`,
	};
}

async function restJson(n8n, cookie, method, urlPath, body) {
	const res = await fetch(`${n8n.baseUrl}${urlPath}`, {
		method,
		headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

/**
 * What the editor does for the HTTP Request node's *Credential Type* list (CredentialsSelect.vue):
 * a credential type is offered when it matches one of the parameter's `credentialTypes` sets
 * (`has:<property>` or `extends:<type>`), is not hidden and not restricted to other nodes.
 */
function offeredInHttpRequestNode(credentialType, credentialTypes, nodeType) {
	if (!credentialType || credentialType.hidden) return false;
	if (credentialType.restrictToSupportedNodes && !credentialType.supportedNodes?.includes(nodeType))
		return false;
	for (const set of credentialTypes) {
		const [kind, value] = set.split(':');
		if (
			kind === 'has' &&
			credentialType[value] !== undefined &&
			!(value === 'authenticate' && credentialType.genericAuth === true)
		)
			return true;
		if (kind === 'extends' && credentialType.extends?.includes(value)) return true;
	}
	return false;
}

async function offeredInEditor(stack, n8n) {
	const cookie = await ownerCookie(n8n.baseUrl);
	const credentialTypes = await restJson(n8n, cookie, 'GET', '/types/credentials.json');
	const ours = credentialTypes.find((c) => c.name === CREDENTIALS.contentMarketing.type);
	assert.ok(ours, 'n8n serves our credential type to the editor');
	const nodes = await restJson(n8n, cookie, 'GET', '/types/nodes.json');
	const httpNodes = nodes.filter((n) => n.name === 'n8n-nodes-base.httpRequest');
	const newest = httpNodes.sort(
		(a, b) => Math.max(...[b.version].flat()) - Math.max(...[a.version].flat()),
	)[0];
	const select = newest.properties.find((p) => p.name === 'nodeCredentialType');
	assert.ok(
		select?.credentialTypes?.length,
		'the HTTP Request node has a Predefined Credential Type list',
	);
	assert.ok(
		offeredInHttpRequestNode(ours, select.credentialTypes, newest.name),
		`"${ours.displayName}" is offered under Predefined Credential Type (${select.credentialTypes.join(', ')})`,
	);
	assert.equal(ours.displayName, 'Content Marketing API');
	// n8n adds its own per-credential domain allow-list to every credential it offers there
	const fields = ours.properties.map((p) => p.name);
	assert.ok(
		fields.includes('allowedHttpRequestDomains'),
		`n8n adds "Allowed HTTP Request Domains": ${fields.join(', ')}`,
	);

	// the credential's Test (the editor's button, on the saved credential with the key or URL edited): n8n's
	// own tester matches the credential's rules and shows their messages (test/node/credential.test.ts
	// checks the answers the rules read, here n8n's matching of them)
	const { id, name } = CREDENTIALS.contentMarketing;
	const test = async (apiKey, baseUrl = stack.sandbox.url) =>
		(
			await restJson(n8n, cookie, 'POST', '/rest/credentials/test', {
				credentials: { id, name, type: ours.name, data: { apiKey, baseUrl } },
			})
		).data;
	const good = await test(stack.sandbox.keys.full);
	assert.equal(good.status, 'OK', `Test with the full key: ${JSON.stringify(good)}`);
	const slash = await test(stack.sandbox.keys.full, `${stack.sandbox.url}/v1/`);
	assert.equal(
		slash.status,
		'OK',
		`Test with the Base URL ending in /v1/: ${JSON.stringify(slash)}`,
	);
	const bad = await test('cm_not_a_key');
	assert.equal(bad.status, 'Error', `Test with a wrong key: ${JSON.stringify(bad)}`);
	assert.match(
		bad.message,
		/^The API key was refused \(HTTP 401 unauthorized: unknown or expired\): check the API key\./,
	);
	const elsewhere = await test(stack.sandbox.keys.full, `${stack.sandbox.url}/somewhere/else`);
	assert.equal(
		elsewhere.status,
		'Error',
		`Test with a wrong Base URL: ${JSON.stringify(elsewhere)}`,
	);
	assert.match(elsewhere.message, /^No Content Marketing API at this Base URL: /);
	return {
		detail: `HTTP Request v${Math.max(...[newest.version].flat())} offers "${ours.displayName}"; Test: OK / "${bad.message}"`,
	};
}

/** The check as scripts/e2e/check.mjs runs it. */
export default {
	prepare: ({ stack }) => prepare(stack),
	async manually({ stack, step, runWorkflow }) {
		await step('HTTP Request node + the credential: Bearer to the Base URL origin only', () =>
			requestsThroughCredential(stack, runWorkflow),
		);
	},
	async whileRunning({ stack, step, n8n }) {
		await step('the editor offers the credential in the HTTP Request node; its Test works', () =>
			offeredInEditor(stack, n8n),
		);
	},
};
