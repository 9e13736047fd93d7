import type {
	IAuthenticateGeneric,
	Icon,
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
}
