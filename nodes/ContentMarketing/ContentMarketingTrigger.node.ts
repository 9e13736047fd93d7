import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchResources } from './methods/listSearch';
import { receiveDelivery } from './trigger/receiveDelivery';
import { eventsSubtitle, leadEventProperties } from './leadEvents/description';
import { passUnclaimedItems } from './trigger/eventLedger';
import { checkExists, create, remove } from './trigger/lifecycle';

/** Only the webhook trigger needs a public URL; the poll trigger is the way around it. */
const reachabilityNotice: INodeProperties = {
	// The service accepts only https:// webhook URLs and delivers from the internet (docs/api-contract.md §10).
	displayName:
		"The service delivers events only to a public HTTPS URL: set n8n's WEBHOOK_URL to your instance's public address. If the internet cannot reach this n8n, use the Content Marketing Poll Trigger instead.",
	name: 'reachabilityNotice',
	type: 'notice',
	default: '',
};

export class ContentMarketingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Marketing Trigger',
		name: 'contentMarketingTrigger',
		icon: { light: 'file:contentMarketing.svg', dark: 'file:contentMarketing.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle,
		// n8n's node panel shows this sentence for the action node and the trigger together.
		description:
			'Manage leads, content resources, analytics and webhooks, and start workflows when leads are created or change status',
		defaults: {
			name: 'Content Marketing Trigger',
		},
		// The Docs link in n8n's node panel: a URL here opens as written, while the codex's primaryDocumentation
		// gets n8n's ?utm_… appended after its #section (editor-ui useNodeDocsUrl, n8n 2.8.4 and 2.41.3).
		documentationUrl:
			'https://github.com/content-marketing/n8n-nodes-content-marketing#content-marketing-trigger',
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'contentMarketingApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Unset, n8n answers an accepted call with the literal text "firstEntryJson"; empty, it
				// answers with the `webhookResponse` that webhook() returns (webhook-helpers, 2.8.4).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [reachabilityNotice, ...leadEventProperties],
	};

	methods = {
		listSearch: { searchResources },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}

	/** n8n runs this in every execution the trigger started; its items pass through (eventLedger). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [await passUnclaimedItems.call(this)];
	}
}
