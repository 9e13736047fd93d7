import type {
	IAuthenticate,
	Icon,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Origin of a URL, or undefined when it is not an absolute http(s) URL. */
function originOf(url: unknown, base?: unknown): string | undefined {
	const href = typeof url === 'object' && url !== null && 'href' in url ? url.href : url;
	if (typeof href !== 'string') return undefined;
	try {
		const parsed = typeof base === 'string' && base !== '' ? new URL(href, base) : new URL(href);
		return /^https?:$/.test(parsed.protocol) ? parsed.origin : undefined;
	} catch {
		return undefined;
	}
}

/** Where a request goes: n8n passes `url` (+ `baseURL`), the HTTP Request node's legacy options `uri`. */
function targetOrigin(request: IHttpRequestOptions): string | undefined {
	const legacy = request as IHttpRequestOptions & { uri?: unknown; baseUrl?: unknown };
	return originOf(request.url || legacy.uri, request.baseURL || legacy.baseUrl);
}

/**
 * The key goes only to the Base URL's origin (docs/api-contract.md §2): n8n applies this to every
 * request made with the credential, including the HTTP Request node's *Predefined Credential Type*,
 * where the user types any URL. A request elsewhere is sent without the key, and no request hands it
 * on across origins on a redirect (n8n-core re-adds `Authorization` on cross-origin redirects unless
 * `sendCredentialsOnCrossOriginRedirect` is false).
 */
async function bearerForBaseUrlOriginOnly(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const request: IHttpRequestOptions = { ...requestOptions, sendCredentialsOnCrossOriginRedirect: false };
	const allowed = originOf(credentials.baseUrl);
	if (allowed === undefined || targetOrigin(request) !== allowed) return request;
	request.headers = { ...request.headers, Authorization: `Bearer ${String(credentials.apiKey)}` };
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
		},
	];

	/**
	 * An own property, not a method: n8n serves credential types to the editor from copies of their
	 * own properties, and the HTTP Request node offers a type under *Predefined Credential Type* only
	 * when `authenticate` is among them.
	 */
	authenticate: IAuthenticate = bearerForBaseUrlOriginOnly;

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/v1$/i, "") }}',
			url: '/v1/leads',
			qs: { limit: 1 },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key was refused (HTTP 401): check the API key. The Base URL answered, so it is right.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The API key is valid but may not read this account (HTTP 403): use a key with access to the account.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'No Content Marketing API at this Base URL (HTTP 404): check the Base URL (without /v1).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 405,
					message: 'No Content Marketing API at this Base URL (HTTP 405): check the Base URL (without /v1).',
				},
			},
		],
	};
}
