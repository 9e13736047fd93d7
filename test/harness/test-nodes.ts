import { createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/** Test-only node and credential types the harness' own tests run through n8n-core. */

export const TEST_API_CREDENTIAL = 'harnessTestApi';
export const FUNCTION_AUTH_CREDENTIAL = 'harnessFunctionAuthApi';
export const SESSION_CREDENTIAL = 'harnessSessionApi';
export const ECHO_NODE_TYPE = 'n8n-nodes-harness-test.echoApi';
export const SIGNED_TRIGGER_TYPE = 'n8n-nodes-harness-test.signedTrigger';

export class HarnessTestApi implements ICredentialType {
	name = TEST_API_CREDENTIAL;

	displayName = 'Harness Test API';

	properties: ICredentialType['properties'] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://127.0.0.1' },
		{ displayName: 'API Version', name: 'apiVersion', type: 'string', default: '2024-01' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.apiKey}}' },
			qs: { api_version: '={{$credentials.apiVersion}}' },
		},
	};
}

export class HarnessFunctionAuthApi implements ICredentialType {
	name = FUNCTION_AUTH_CREDENTIAL;

	displayName = 'Harness Function Auth API';

	properties: ICredentialType['properties'] = [
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, 'X-Token': String(credentials.token) },
		};
	}
}

/** Logs in through `preAuthentication` when the expirable session token is empty. */
export class HarnessSessionApi implements ICredentialType {
	name = SESSION_CREDENTIAL;

	displayName = 'Harness Session API';

	properties: ICredentialType['properties'] = [
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
		{ displayName: 'Username', name: 'username', type: 'string', default: '' },
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const { token } = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${String(credentials.baseUrl)}/login`,
			body: { username: credentials.username },
			json: true,
		})) as { token: string };
		return { sessionToken: token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-Session': '={{$credentials.sessionToken}}' } },
	};
}

/** Calls `<baseUrl><path>` once per item; with a binary property set, POSTs that file. */
export class EchoApi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Echo API',
		name: 'echoApi',
		group: ['transform'],
		version: [1, 2],
		description: 'Test node calling a local server',
		defaults: { name: 'Echo API' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: TEST_API_CREDENTIAL,
				required: true,
				displayOptions: { show: { authentication: ['bearer'] } },
			},
			{
				name: FUNCTION_AUTH_CREDENTIAL,
				required: true,
				displayOptions: { show: { authentication: ['token'] } },
			},
			{
				name: SESSION_CREDENTIAL,
				required: true,
				displayOptions: { show: { authentication: ['session'] } },
			},
		],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'Bearer', value: 'bearer' },
					{ name: 'Token', value: 'token' },
					{ name: 'Session', value: 'session' },
				],
				default: 'bearer',
			},
			{ displayName: 'Path', name: 'path', type: 'string', default: '/echo' },
			{ displayName: 'Binary Property', name: 'binaryPropertyName', type: 'string', default: '' },
			{
				displayName: 'Read Binary As',
				name: 'binaryReadMode',
				type: 'options',
				options: [
					{ name: 'Buffer', value: 'buffer' },
					{ name: 'Stream', value: 'stream' },
				],
				default: 'buffer',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const credentialType = {
			bearer: TEST_API_CREDENTIAL,
			token: FUNCTION_AUTH_CREDENTIAL,
			session: SESSION_CREDENTIAL,
		}[this.getNodeParameter('authentication', 0) as 'bearer' | 'token' | 'session'];
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>(credentialType);
		const returnData: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const request: IHttpRequestOptions = {
					method: 'GET',
					url: `${baseUrl}${this.getNodeParameter('path', i) as string}`,
					qs: { item: i },
					json: true,
				};
				const binaryPropertyName = this.getNodeParameter('binaryPropertyName', i) as string;
				const upload: IDataObject = {};
				if (binaryPropertyName !== '') {
					const binaryData = this.helpers.assertBinaryData(i, binaryPropertyName);
					const stream = this.getNodeParameter('binaryReadMode', i) === 'stream';
					if (stream && binaryData.id === undefined) {
						throw new NodeOperationError(this.getNode(), 'Binary data is not stored by id', {
							itemIndex: i,
						});
					}
					const body: Buffer | Readable =
						stream && binaryData.id !== undefined
							? await this.helpers.getBinaryStream(binaryData.id)
							: await this.helpers.getBinaryDataBuffer(i, binaryPropertyName);
					if (binaryData.id !== undefined) {
						upload.metadata = { ...(await this.helpers.getBinaryMetadata(binaryData.id)) };
					}
					upload.stored = binaryData.id !== undefined;
					Object.assign(request, {
						method: 'POST',
						body,
						json: false,
						headers: { 'content-type': binaryData.mimeType },
					});
				}
				const response: unknown = await this.helpers.httpRequestWithAuthentication.call(
					this,
					credentialType,
					request,
				);
				const json =
					typeof response === 'string'
						? (JSON.parse(response) as IDataObject)
						: (response as IDataObject);
				returnData.push({ json: { ...json, ...upload }, pairedItem: { item: i } });
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [returnData];
	}
}

export function sign(secret: string, payload: Buffer | string): string {
	return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Registers its webhook URL with the API on activation and verifies signed deliveries. */
export class SignedTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Signed Trigger',
		name: 'signedTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Test trigger with a signed webhook',
		defaults: { name: 'Signed Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: TEST_API_CREDENTIAL, required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'events' }],
		properties: [{ displayName: 'Event', name: 'event', type: 'string', default: 'lead.created' }],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const url = this.getNodeWebhookUrl('default');
				const hooks = (await apiRequest(this, 'GET', '/hooks')) as Array<{
					id: string;
					url: string;
				}>;
				const existing = hooks.find((hook) => hook.url === url);
				if (existing === undefined) return false;
				this.getWorkflowStaticData('node').hookId = existing.id;
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const hook = (await apiRequest(this, 'POST', '/hooks', {
					url: this.getNodeWebhookUrl('default'),
					event: this.getNodeParameter('event') as string,
				})) as { id: string; secret: string };
				const staticData = this.getWorkflowStaticData('node');
				staticData.hookId = hook.id;
				staticData.secret = hook.secret;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				if (typeof staticData.hookId !== 'string') return false;
				await apiRequest(this, 'DELETE', `/hooks/${staticData.hookId}`);
				delete staticData.hookId;
				delete staticData.secret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const secret = this.getWorkflowStaticData('node').secret;
		const signature = this.getHeaderData()['x-signature'];
		if (typeof secret !== 'string' || signature !== sign(secret, req.rawBody)) {
			this.getResponseObject().status(401).json({ message: 'Invalid signature' });
			return { noWebhookResponse: true };
		}
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData())] };
	}
}

async function apiRequest(
	context: IHookFunctions,
	method: IHttpRequestOptions['method'],
	path: string,
	body?: IDataObject,
): Promise<unknown> {
	const { baseUrl } = await context.getCredentials<{ baseUrl: string }>(TEST_API_CREDENTIAL);
	return await context.helpers.httpRequestWithAuthentication.call(context, TEST_API_CREDENTIAL, {
		method,
		url: `${baseUrl}${path}`,
		body,
		json: true,
	});
}
