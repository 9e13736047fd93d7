import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as create from './create.operation';
import * as deleteEndpoint from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as sendTest from './sendTest.operation';
import * as update from './update.operation';

export const operations: Record<string, Operation> = {
	create,
	delete: deleteEndpoint,
	get,
	getAll,
	sendTest,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookEndpoint'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Register an endpoint; the answer holds its signing secret, shown only once',
				action: 'Create a webhook endpoint',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a webhook endpoint: the service stops sending events to its URL',
				action: 'Delete a webhook endpoint',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one webhook endpoint by ID with its events and delivery status',
				action: 'Get a webhook endpoint',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many webhook endpoints, filtered by URL, event or active flag',
				action: 'Get many webhook endpoints',
			},
			{
				name: 'Send Test Event',
				value: 'sendTest',
				description: 'Send a webhook.test event to an endpoint and report its answer',
				action: 'Send a test event to a webhook endpoint',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update the URL, events, description or active flag of a webhook endpoint',
				action: 'Update a webhook endpoint',
			},
		],
		default: 'getAll',
	},
	// Each operation's fields, in the order of `operations`.
	...Object.values(operations).flatMap((operation) => operation.description),
];
