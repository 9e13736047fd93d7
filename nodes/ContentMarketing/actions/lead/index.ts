import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as create from './create.operation';
import * as createOrUpdate from './createOrUpdate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as syncManyToCrm from './syncManyToCrm.operation';
import * as syncToCrm from './syncToCrm.operation';
import * as update from './update.operation';

export const operations: Record<string, Operation> = {
	create,
	createOrUpdate,
	get,
	getAll,
	syncManyToCrm,
	syncToCrm,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['lead'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a lead from an e-mail address with optional name, company, job title, source and custom fields; returns the new lead with its ID, status and score. The service accepts a second lead with the same e-mail.',
				action: 'Create a lead',
			},
			{
				name: 'Create or Update',
				value: 'createOrUpdate',
				description:
					'Create a lead, or update the one with its e-mail (capital letters aside); returns the lead and whether it was created, updated or left unchanged',
				action: 'Create or update a lead',
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one lead by ID: e-mail, name, company, status, score, assignee, notes and custom fields',
				action: 'Get a lead',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many leads, filtered by e-mail, status, source, assignee, creation or update time or search text, and sorted by score or date',
				action: 'Get many leads',
			},
			{
				name: 'Sync Many to CRM',
				value: 'syncManyToCrm',
				description:
					'Push the leads of all input items to the CRM in batches of up to 100; returns one result per lead',
				action: 'Sync many leads to the CRM',
			},
			{
				name: 'Sync to CRM',
				value: 'syncToCrm',
				description: 'Push a lead to the CRM configured for the account; returns the CRM record ID',
				action: 'Sync a lead to the CRM',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Update the status, assignee, notes or custom fields of a lead; returns the updated lead',
				action: 'Update a lead',
			},
		],
		default: 'getAll',
	},
	// Each operation's fields, in the order of `operations`.
	...Object.values(operations).flatMap((operation) => operation.description),
];
