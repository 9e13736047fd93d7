import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as archive from './archive.operation';
import * as create from './create.operation';
import * as deleteResource from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as publish from './publish.operation';
import * as update from './update.operation';

export const operations: Record<string, Operation> = {
	archive,
	create,
	delete: deleteResource,
	get,
	getAll: getMany,
	publish,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contentResource'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				description: 'Archive a published resource',
				action: 'Archive a content resource',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a resource from fields or upload a file',
				action: 'Create a content resource',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a resource irreversibly',
				action: 'Delete a content resource',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a resource',
				action: 'Get a content resource',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many content resources',
				action: 'Get many content resources',
			},
			{
				name: 'Publish',
				value: 'publish',
				description: 'Publish a draft',
				action: 'Publish a content resource',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update the metadata or the file of a resource',
				action: 'Update a content resource',
			},
		],
		default: 'get',
	},
	...create.description,
	...get.description,
	...getMany.description,
	...update.description,
	...deleteResource.description,
	...publish.description,
	...archive.description,
];
