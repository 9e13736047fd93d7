import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

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
