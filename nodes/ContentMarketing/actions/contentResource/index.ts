import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../types';
import * as archive from './archive.operation';
import * as create from './create.operation';
import * as deleteResource from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as publish from './publish.operation';
import * as update from './update.operation';

export const operations: Record<string, Operation> = {
	archive,
	create,
	delete: deleteResource,
	get,
	getAll,
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
				description:
					'Archive a published resource: its public link then answers 404, its data is kept',
				action: 'Archive a content resource',
			},
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a draft resource from fields or from an uploaded file; returns it with its ID',
				action: 'Create a content resource',
			},
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a content resource irreversibly: its ID and its public link then answer 404 (leads keep their source)',
				action: 'Delete a content resource',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one resource by ID or public URL',
				action: 'Get a content resource',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'Get many content resources, filtered by status, type, tag or search text and sorted',
				action: 'Get many content resources',
			},
			{
				name: 'Publish',
				value: 'publish',
				description: 'Publish a draft; returns the resource with its public URL',
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
	// Each operation's fields, in the order of `operations`.
	...Object.values(operations).flatMap((operation) => operation.description),
];
