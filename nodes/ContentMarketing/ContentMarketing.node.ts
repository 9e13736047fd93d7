import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { properties } from './actions/versionDescription';
import { credentialTest, listSearch, loadOptions } from './methods';

export class ContentMarketing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Marketing',
		name: 'contentMarketing',
		icon: { light: 'file:contentMarketing.svg', dark: 'file:contentMarketing.dark.svg' },
		group: ['transform'],
		// 1.1: analytics Time Zone as one fixed collection (Custom shows its input in place).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Manage leads, content resources, analytics and webhook endpoints of the Content Marketing service',
		defaults: { name: 'Content Marketing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Tested by the node, not by the credential's own test request: n8n 2.8.4 shows only its generic
		// message for a failed test request, while the method says which of key and URL is wrong.
		credentials: [{ name: 'contentMarketingApi', required: true, testedBy: 'contentMarketingApiTest' }],
		properties,
	};

	methods = { listSearch, loadOptions, credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
