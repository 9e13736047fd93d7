import type {
	IAuthenticate,
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizationHeader, httpOrigin, keyMayGoTo } from './apiKeyRule';

/** Where a request goes: n8n passes `url` (+ `baseURL`), the HTTP Request node's legacy options `uri`. */
function targetOrigin(request: IHttpRequestOptions): string | undefined {
	const legacy = request as IHttpRequestOptions & { uri?: unknown; baseUrl?: unknown };
	return httpOrigin(request.url || legacy.uri, request.baseURL || legacy.baseUrl);
}

/**
 * The key goes only to the Base URL's origin (apiKeyRule.ts): n8n applies this to every
 * request made with the credential, including the HTTP Request node's *Predefined Credential Type*,
 * where the user types any URL. A request elsewhere is sent without the key, and no request hands it
 * on across origins on a redirect (n8n-core re-adds `Authorization` on cross-origin redirects unless
 * `sendCredentialsOnCrossOriginRedirect` is false).
 */
async function bearerForBaseUrlOriginOnly(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const request: IHttpRequestOptions = {
		...requestOptions,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	if (!keyMayGoTo(targetOrigin(request), credentials.baseUrl)) return request;
	request.headers = { ...request.headers, Authorization: authorizationHeader(credentials.apiKey) };
	return request;
}

export class ContentMarketingApi implements ICredentialType {
	name = 'contentMarketingApi';

	displayName = 'Content Marketing API';

	icon: Icon = { light: 'file:contentMarketing.svg', dark: 'file:contentMarketing.dark.svg' };

	documentationUrl = 'https://github.com/content-marketing/n8n-nodes-content-marketing#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'An API key of your Content Marketing account, as issued in its console',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'https://api.content-marketing.example',
			placeholder: 'e.g. https://api.content-marketing.example',
			description: 'Address of the API as shown in your console, without /v1',
			// n8n's credential tester shows its own text for a request that gets no answer (see `test`); the
			// hint says what to check, README's Troubleshooting lists those texts.
			hint: "If Test shows only a network or certificate error, check this address's https or http, host and port, not the API key (README, Troubleshooting, lists n8n's codes).",
		},
	];

	/**
	 * An own property, not a method: n8n serves credential types to the editor from copies of their
	 * own properties, and the HTTP Request node offers a type under *Predefined Credential Type* only
	 * when `authenticate` is among them.
	 */
	authenticate: IAuthenticate = bearerForBaseUrlOriginOnly;

	// n8n 2.8.4's tester shows its generic "Authorization failed" for a test request that fails, whatever
	// rules match the status (it finds no response on the error). So the request never fails on an HTTP
	// status and rules on the answer's body (docs/api-contract.md §3 error codes) tell a wrong key from a
	// wrong Base URL; the first rule that matches is shown. A request that gets no answer (refused, unknown
	// host, timed out, TLS) reaches no rule: n8n shows the error's code (2.41.3) or its own message (2.8.4),
	// so the Base URL's hint says what to check and README's Troubleshooting what those mean. A credential test method in the nodes could word
	// them, but its only HTTP helper (`request`) is refused by n8n's community-package scanner.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/v1$/i, "") }}',
			url: '/v1/leads',
			qs: { limit: 1 },
			ignoreHttpStatusErrors: true,
			// A redirect is not followed: the key stays with the Base URL's origin.
			disableFollowRedirect: true,
		},
		rules: [
			{
				// The service says why in the message (docs/api-contract.md §2: an unknown or an expired key are
				// both 401 unauthorized); a run shows that message, so Test says the same for an expired key.
				type: 'responseSuccessBody',
				properties: {
					key: 'error.message',
					value: 'API key expired',
					message:
						'The API key has expired (HTTP 401 unauthorized: "API key expired"): issue a new key in the console. The Base URL answered, so it is right.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'unauthorized',
					message:
						'The API key was refused (HTTP 401 unauthorized: unknown or expired): check the API key. The Base URL answered, so it is right.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'forbidden',
					message:
						'The API key is valid but may not read this account (HTTP 403 forbidden): use a key with access to the account. The Base URL answered, so it is right.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'rate_limited',
					message:
						'The API key and Base URL are right, but the service is rate limiting this key (HTTP 429): test again in a minute.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'server_error',
					message:
						'The service at this Base URL answered with an internal error (HTTP 500): nothing to change in the API key or Base URL yet; test again later.',
				},
			},
			{
				// The API's 404/405 (not_found, method_not_allowed), a website, a redirect or an empty answer:
				// anything but the list of leads.
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'No Content Marketing API at this Base URL: GET /v1/leads did not answer with a list of leads (a wrong path, another site or a redirect). Check the Base URL (the API address your console shows, without /v1).',
				},
			},
		],
	};
}
