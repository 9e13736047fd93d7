import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchResources } from '../methods/listSearch';
import { eventsSubtitle, pollLeadEventProperties } from '../leadEvents/description';
import { pollLeadEvents } from '../pollTrigger/poll';

export class ContentTriggerMarketing implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Content Marketing Poll Trigger',
		// n8n's node panel shows a trigger inside its app when the trigger's name without "Trigger" is the app's
		// name (editor-ui useActionsGeneration, n8n 2.8.4 and 2.41.3); docs/n8n-cli.md "One app in the node panel".
		name: 'contentTriggerMarketing',
		icon: { light: 'file:../contentMarketing.svg', dark: 'file:../contentMarketing.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle,
		description:
			'Starts the workflow when leads are created or change status, by asking Content Marketing at set times (no public URL needed)',
		defaults: {
			name: 'Content Marketing Poll Trigger',
		},
		// The Docs link in n8n's node panel: a URL here opens as written, while the codex's primaryDocumentation
		// gets n8n's ?utm_… appended after its #section (editor-ui useNodeDocsUrl, n8n 2.8.4 and 2.41.3).
		documentationUrl:
			'https://github.com/content-marketing/n8n-nodes-content-marketing#content-marketing-poll-trigger',
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'contentMarketingApi',
				required: true,
			},
		],
		// The webhook trigger's fields, so that a workflow can switch triggers without other changes. A copy:
		// n8n's loader prepends Poll Times to a polling node's array, which must not reach the other node.
		properties: pollLeadEventProperties(),
	};

	methods = {
		listSearch: { searchResources },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollLeadEvents.call(this);
	}
}
