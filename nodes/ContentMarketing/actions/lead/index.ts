import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as syncManyToCrm from './syncManyToCrm.operation';
import * as syncToCrm from './syncToCrm.operation';
import * as update from './update.operation';

export const operations: Record<string, Operation> = {
	create,
	get,
	getAll: getMany,
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
			{ name: 'Create', value: 'create', description: 'Create a lead', action: 'Create a lead' },
			{ name: 'Get', value: 'get', description: 'Get a lead', action: 'Get a lead' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many leads', action: 'Get many leads' },
			{
				name: 'Sync Many to CRM',
				value: 'syncManyToCrm',
				description: 'Push the leads of all input items to the CRM in batches of up to 100',
				action: 'Sync many leads to the CRM',
			},
			{
				name: 'Sync to CRM',
				value: 'syncToCrm',
				description: 'Push a lead to the CRM configured for the account',
				action: 'Sync a lead to the CRM',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update the status, assignee, notes or custom fields of a lead',
				action: 'Update a lead',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...update.description,
	...syncToCrm.description,
	...syncManyToCrm.description,
];
