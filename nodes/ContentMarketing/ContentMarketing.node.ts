import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { properties } from './actions/versionDescription';
import { listSearch, loadOptions } from './methods';
import { operationSubtitle } from './helpers/subtitle';

export class ContentMarketing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Marketing',
		name: 'contentMarketing',
		icon: { light: 'file:contentMarketing.svg', dark: 'file:contentMarketing.dark.svg' },
		group: ['transform'],
		// 1.1: analytics Time Zone as one fixed collection (Custom shows its input in place).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: operationSubtitle(properties),
		description:
			'Manage leads, content resources, analytics and webhook endpoints of the Content Marketing service',
		defaults: { name: 'Content Marketing' },
		// The Docs link in n8n's node panel: a URL here opens as written, while the codex's primaryDocumentation
		// gets n8n's ?utm_… appended after its #section (editor-ui useNodeDocsUrl, n8n 2.8.4 and 2.41.3).
		documentationUrl:
			'https://github.com/content-marketing/n8n-nodes-content-marketing#content-marketing-node',
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contentMarketingApi', required: true }],
		properties,
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
