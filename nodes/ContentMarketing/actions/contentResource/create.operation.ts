import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { assertEnum } from '../../helpers/validation';
import { FILE_TYPES, RESOURCE_TYPES } from '../../helpers/vocabulary';
import { apiRequest } from '../../transport';
import { uploadResource } from './binaryFile';
import { FILE_TYPE_OPTIONS } from './constants';
import {
	binaryPropertyField,
	ctaField,
	descriptionField,
	tagsField,
	titleField,
	trackVisitorsField,
	typeField,
	uploadOptions,
} from './fields';
import { readOptionalMetadata, readTitle, readType } from './resourceBody';
import type { OperationExample } from '../types';

const fromBinary = { show: { inputData: ['binary'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Input Data',
		name: 'inputData',
		type: 'options',
		options: [
			{
				name: 'From Fields',
				value: 'fields',
				description: 'Create the resource from metadata only (e.g. an article)',
			},
			{
				name: 'From Binary File',
				value: 'binary',
				description: 'Upload a file (PDF, video, ...) from an input binary field',
			},
		],
		default: 'fields',
	},
	{ ...binaryPropertyField, displayOptions: fromBinary },
	titleField,
	{ ...typeField, displayOptions: { show: { inputData: ['fields'] } } },
	{
		...typeField,
		options: FILE_TYPE_OPTIONS,
		default: 'pdf',
		description: 'Types that can carry a file',
		displayOptions: fromBinary,
	},
	trackVisitorsField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [ctaField, descriptionField, tagsField],
	},
	uploadOptions(fromBinary),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contentResource'], operation: ['create'] } },
	properties,
);

const INPUT_DATA = ['fields', 'binary'] as const;

async function createOne(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): Promise<IDataObject> {
	const inputData = assertEnum.call(
		this,
		this.getNodeParameter('inputData', itemIndex),
		INPUT_DATA,
		'Input Data',
		itemIndex,
	);
	const isFile = inputData === 'binary';
	const body: IDataObject = {
		title: readTitle.call(this, this.getNodeParameter('title', itemIndex), itemIndex),
		type: readType.call(
			this,
			this.getNodeParameter('type', itemIndex),
			isFile ? FILE_TYPES : RESOURCE_TYPES,
			itemIndex,
		),
		...readOptionalMetadata.call(
			this,
			{
				...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
				trackVisitors: this.getNodeParameter('trackVisitors', itemIndex, true),
			},
			itemIndex,
			false,
		),
	};

	if (!isFile)
		return (await apiRequest.call(this, 'POST', '/v1/resources', {
			body,
			itemIndex,
		})) as IDataObject;

	return await uploadResource.call(this, items, itemIndex, 'POST', '/v1/resources', body);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(
		this,
		items,
		async (itemIndex) => await createOne.call(this, items, itemIndex),
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({
		title: 'Schema guide',
		type: 'article',
		additionalFields: { description: 'How to map fields', tags: 'docs', ctaId: ids.ctaId },
	}),
};
