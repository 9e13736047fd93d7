import type { INodeProperties } from 'n8n-workflow';

import * as analytics from './analytics';
import * as contentResource from './contentResource';
import * as lead from './lead';
import { withMaxParallelRequests } from './maxParallel';
import * as webhookEndpoint from './webhookEndpoint';

/**
 * The node's parameters: the resource selector and each resource's operations. The rest of the node type
 * description stays in ContentMarketing.node.ts, where n8n's scanner checks it.
 */
export const properties: INodeProperties[] = withMaxParallelRequests([
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Analytics', value: 'analytics' },
			{ name: 'Content Resource', value: 'contentResource' },
			{ name: 'Lead', value: 'lead' },
			{ name: 'Webhook Endpoint', value: 'webhookEndpoint' },
		],
		default: 'lead',
	},
	...lead.description,
	...contentResource.description,
	...analytics.description,
	...webhookEndpoint.description,
]);
