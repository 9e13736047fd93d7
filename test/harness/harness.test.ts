import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INodeExecutionData } from 'n8n-workflow';

import type { Harness } from '.';
import { binary, chain, createHarness, setItemsNode, startNode } from '.';
import { TestApiServer } from './test-api-server';
import {
	ECHO_NODE_TYPE,
	EchoApi,
	FUNCTION_AUTH_CREDENTIAL,
	HarnessFunctionAuthApi,
	HarnessSessionApi,
	HarnessTestApi,
	SESSION_CREDENTIAL,
	SIGNED_TRIGGER_TYPE,
	SignedTrigger,
	TEST_API_CREDENTIAL,
	sign,
} from './test-nodes';

let api: TestApiServer;
let harness: Harness;

beforeEach(async () => {
	api = await TestApiServer.start();
	harness = await createHarness({
		nodeTypes: { [ECHO_NODE_TYPE]: new EchoApi(), [SIGNED_TRIGGER_TYPE]: new SignedTrigger() },
		credentialTypes: [new HarnessTestApi(), new HarnessFunctionAuthApi(), new HarnessSessionApi()],
		credentials: {
			[TEST_API_CREDENTIAL]: { apiKey: 'secret-key', baseUrl: api.baseUrl },
			[FUNCTION_AUTH_CREDENTIAL]: { token: 'fn-token', baseUrl: api.baseUrl },
			[SESSION_CREDENTIAL]: { username: 'ana', baseUrl: api.baseUrl, sessionToken: '' },
		},
	});
});

afterEach(async () => {
	await harness.close();
	await api.close();
});

const items = (...names: string[]): INodeExecutionData[] =>
	names.map((name) => ({ json: { name } }));

describe('action nodes', () => {
	test('generic authenticate adds the Bearer header and query parameter; items keep pairedItem', async () => {
		const { items: output, error } = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { path: '/echo' },
			input: items('a', 'b', 'c'),
		});

		expect(error).toBeUndefined();
		expect(api.requests).toHaveLength(3);
		for (const request of api.requests) {
			expect(request.headers.authorization).toBe('Bearer secret-key');
			expect(request.query.get('api_version')).toBe('2024-01');
		}
		expect(output.map((item) => item.json.item)).toEqual([0, 1, 2]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	test('function-style authenticate is applied', async () => {
		const { items: output } = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { authentication: 'token' },
		});

		expect(output).toHaveLength(1);
		expect(api.requests[0].headers['x-token']).toBe('fn-token');
		expect(api.requests[0].headers.authorization).toBeUndefined();
	});

	test('preAuthentication fetches the expirable token and stores it in the credential', async () => {
		const { items: output, error } = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { authentication: 'session' },
		});

		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		expect(api.requests.map((request) => request.path)).toEqual(['/login', '/echo']);
		expect(api.requests[1].headers['x-session']).toBe('session-of-ana');
		expect(harness.credentials.get(SESSION_CREDENTIAL)?.data.sessionToken).toBe('session-of-ana');
	});

	test('a failing request fails the workflow with a NodeApiError', async () => {
		const {
			items: output,
			error,
			result,
		} = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { path: '/missing' },
		});

		expect(output).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'The resource you are requesting could not be found',
			description: 'No such thing',
		});
		expect(result.status).toBe('error');
	});

	test('continueOnFail turns the thrown error into an { error } item paired with its input', async () => {
		const { items: output, error } = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { path: '/missing' },
			input: items('a', 'b'),
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of output) {
			expect(item.json).toEqual({ error: 'The resource you are requesting could not be found' });
		}
	});

	test.each(['buffer', 'stream'])(
		'binary input is read via %s from the BinaryDataService',
		async (mode) => {
			const content = Buffer.from('%PDF-1.7 fake pdf bytes');
			const {
				items: output,
				error,
				result,
			} = await harness.runNode({
				type: ECHO_NODE_TYPE,
				parameters: { path: '/upload', binaryPropertyName: 'file', binaryReadMode: mode },
				input: [
					{
						json: { name: 'doc' },
						binary: { file: binary(content, { mimeType: 'application/pdf', fileName: 'doc.pdf' }) },
					},
				],
			});

			expect(error).toBeUndefined();
			const [upload] = api.requests;
			expect(upload.method).toBe('POST');
			expect(upload.body.equals(content)).toBe(true);
			expect(upload.headers['content-type']).toBe('application/pdf');
			expect(output[0].json).toMatchObject({
				bytes: content.length,
				stored: true,
				metadata: { fileName: 'doc.pdf', mimeType: 'application/pdf', fileSize: content.length },
			});

			const [startItem] = result.outputOf('Start');
			expect(startItem.binary?.file.id).toMatch(/^filesystem-v2:/);
			expect((await result.binaryOf(startItem, 'file')).equals(content)).toBe(true);
		},
	);

	test('a missing binary property is a node error', async () => {
		const { error } = await harness.runNode({
			type: ECHO_NODE_TYPE,
			parameters: { binaryPropertyName: 'file' },
			input: items('no-file'),
		});

		expect(error?.message).toMatch(/file/);
		expect(api.requests).toHaveLength(0);
	});

	test('run() executes a workflow JSON in connection order', async () => {
		const result = await harness.run({
			nodes: [
				startNode(items('x')),
				setItemsNode('Fixed', items('one', 'two')),
				{
					name: 'Call API',
					type: ECHO_NODE_TYPE,
					parameters: { path: '/from-workflow' },
					credentials: { [TEST_API_CREDENTIAL]: { id: '1', name: 'Test API account' } },
				},
			],
			connections: chain('Start', 'Fixed', 'Call API'),
		});

		expect(result.error).toBeUndefined();
		expect(result.executionOrder).toEqual(['Start', 'Fixed', 'Call API']);
		expect(result.outputOf('Call API').map((item) => item.json.path)).toEqual([
			'/from-workflow',
			'/from-workflow',
		]);
		expect(result.outputOf('Call API').map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
		]);
		expect(result.node('Call API').parameters.binaryReadMode).toBe('buffer');
	});

	test('a node without its required credential fails with n8n-core’s message', async () => {
		const { error } = await harness.runNode({ type: ECHO_NODE_TYPE, credentials: {} });

		expect(error?.message).toBe('Node does not have any credentials set');
	});

	test('a credential id the harness does not hold fails the node', async () => {
		const result = await harness.run({
			nodes: [
				startNode(),
				{
					name: 'Call API',
					type: ECHO_NODE_TYPE,
					credentials: { [TEST_API_CREDENTIAL]: { id: '99', name: 'gone' } },
				},
			],
			connections: chain('Start', 'Call API'),
		});

		expect(result.error?.message).toBe(
			`Credential with ID "99" does not exist for type "${TEST_API_CREDENTIAL}".`,
		);
		expect(api.requests).toHaveLength(0);
	});
});

describe('package loading', () => {
	test('loads nodes (versioned) and credentials listed in package.json with n8n-core’s loader', async () => {
		const packaged = await createHarness({
			packageRoot: path.join(__dirname, 'fixture-package'),
			credentials: { fixtureApi: { apiKey: 'fixture-key', baseUrl: api.baseUrl } },
		});
		try {
			expect(packaged.loadedPackage).toEqual({
				packageName: 'n8n-nodes-harness-fixture',
				nodeTypes: ['n8n-nodes-harness-fixture.fixture'],
				credentialTypes: ['fixtureApi'],
			});
			expect(packaged.credentialTypes.getSupportedNodes('fixtureApi')).toEqual([
				'n8n-nodes-harness-fixture.fixture',
			]);

			const latest = await packaged.runNode({ type: packaged.typeName('fixture') });
			const v1 = await packaged.runNode({ type: packaged.typeName('fixture'), typeVersion: 1 });

			expect(latest.items[0].json.version).toBe(2);
			expect(v1.items[0].json.version).toBe(1);
			expect(api.requests.map((request) => request.headers['x-api-key'])).toEqual([
				'fixture-key',
				'fixture-key',
			]);
		} finally {
			await packaged.close();
		}
	});

	test('an unbuilt package is reported with the build command', async () => {
		const root = await mkdtemp(path.join(tmpdir(), 'harness-unbuilt-'));
		try {
			await writeFile(
				path.join(root, 'package.json'),
				JSON.stringify({
					name: 'n8n-nodes-unbuilt',
					version: '1.0.0',
					n8n: { nodes: ['dist/nodes/X/X.node.js'] },
				}),
			);
			await expect(createHarness({ packageRoot: root })).rejects.toThrow(
				'n8n-nodes-unbuilt is not built (missing dist/nodes/X/X.node.js); run `node scripts/build.mjs` first',
			);
		} finally {
			await rm(root, { recursive: true, force: true });
		}
	});
});

describe('trigger nodes', () => {
	test('webhook lifecycle registers the real production URL and keeps static data between calls', async () => {
		const trigger = harness.trigger({
			type: SIGNED_TRIGGER_TYPE,
			parameters: { event: 'lead.created' },
		});
		const productionUrl = trigger.webhookUrl('trigger');
		expect(productionUrl).toBe(`http://localhost:5678/webhook/${trigger.node.webhookId}/events`);
		expect(trigger.webhookUrl('manual')).toBe(
			`http://localhost:5678/webhook-test/${trigger.node.webhookId}/events`,
		);

		expect(await trigger.checkExists('trigger')).toBe(false);
		expect(await trigger.create('trigger')).toBe(true);
		const [hook] = api.hooks.values();
		expect(hook).toMatchObject({ url: productionUrl, event: 'lead.created' });
		expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer secret-key');
		expect(trigger.nodeStaticData).toEqual({ hookId: hook.id, secret: hook.secret });
		expect(await trigger.checkExists('trigger')).toBe(true);

		expect(await trigger.delete('trigger')).toBe(true);
		expect(api.hooks.size).toBe(0);
		expect(trigger.nodeStaticData).toEqual({});
	});

	test('manual mode registers the test URL and receives on it', async () => {
		const trigger = harness.trigger({ type: SIGNED_TRIGGER_TYPE });
		await trigger.activate('manual');

		const [hook] = api.hooks.values();
		expect(hook.url).toBe(trigger.webhookUrl('manual'));
		expect(hook.url).toContain('/webhook-test/');

		const body = JSON.stringify({ test: true });
		const delivery = await trigger.deliver({
			mode: 'manual',
			body,
			headers: { 'content-type': 'application/json', 'x-signature': sign(hook.secret, body) },
		});
		expect(delivery).toMatchObject({
			mode: 'manual',
			status: 200,
			items: [{ json: { test: true } }],
		});
	});

	test('deliver() sends a real request into webhook(); rawBody and static data are available', async () => {
		const trigger = harness.trigger({ type: SIGNED_TRIGGER_TYPE });
		await trigger.activate('trigger');
		const { secret } = trigger.nodeStaticData as { secret: string };
		const body = JSON.stringify({ lead: { email: 'a@example.com' } });

		const accepted = await trigger.deliver({
			body,
			headers: { 'content-type': 'application/json', 'x-signature': sign(secret, body) },
		});
		expect(accepted.error).toBeUndefined();
		expect(accepted.status).toBe(200);
		// n8n's answer when the webhook sets no responseData (its default, 'firstEntryJson', sent as text).
		expect(accepted.responseBody).toBe('firstEntryJson');
		expect(accepted.items).toEqual([{ json: { lead: { email: 'a@example.com' } } }]);
		expect(accepted.rawBody?.toString()).toBe(body);

		const rejected = await trigger.deliver({
			body: { lead: {} },
			headers: { 'x-signature': 'forged' },
		});
		expect(rejected.status).toBe(401);
		expect(rejected.items).toEqual([]);
		expect(rejected.response).toEqual({ noWebhookResponse: true });

		const malformed = await trigger.deliver({
			body: '{"lead":',
			headers: { 'content-type': 'application/json' },
		});
		expect(malformed.status).toBe(422);
		expect(malformed.response).toBeUndefined();
		expect(trigger.deliveries).toHaveLength(3);
	});

	test('serveWebhooks() makes registered URLs reachable for the external service', async () => {
		const server = await harness.serveWebhooks();
		const trigger = harness.trigger({ type: SIGNED_TRIGGER_TYPE });
		await trigger.activate('trigger');
		const [hook] = api.hooks.values();
		expect(hook.url.startsWith(`${server.origin}/webhook/`)).toBe(true);

		const next = trigger.nextDelivery();
		expect(await api.deliverEvent({ event: 'lead.created', id: 7 })).toEqual([200]);
		const delivery = await next;
		expect(delivery.mode).toBe('trigger');
		expect(delivery.items).toEqual([{ json: { event: 'lead.created', id: 7 } }]);
	});
});
