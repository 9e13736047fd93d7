import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { invalidField } from '../../helpers/itemErrors';
import { forEachItem } from '../itemLoop';
import { readBoolean } from '../../helpers/values';
import { FILE_TYPES, RESOURCE_TYPES } from '../../helpers/vocabulary';
import { apiRequest } from '../../transport';
import { uploadResource } from './binaryFile';
import {
	binaryPropertyField,
	ctaField,
	descriptionField,
	resourceLocator,
	tagsField,
	titleField,
	trackVisitorsField,
	typeField,
	uploadOptions,
} from './fields';
import { readOptionalMetadata, readResourceId, readTitle, readType } from './resourceBody';
import { byId, type OperationExample } from '../types';

const withFile = { show: { replaceFile: [true] } };

const properties: INodeProperties[] = [
	resourceLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Fields that are not added keep their current value',
		options: [
			{ ...ctaField, hint: 'Leave empty to detach the current CTA' },
			{
				...descriptionField,
				description: 'At most 5,000 characters. Leave empty to clear the description.',
			},
			{
				...tagsField,
				description: `${tagsField.description} Replaces the current tags; leave empty to remove them all.`,
			},
			{ ...titleField, required: false },
			{ ...trackVisitorsField },
			{
				...typeField,
				description:
					'A resource that carries a file must keep a file type (PDF, Video, E-Book, Whitepaper, Infographic)',
			},
		],
	},
	{
		displayName: 'Replace File',
		name: 'replaceFile',
		type: 'boolean',
		default: false,
		description: 'Whether to upload a new file for the resource from an input binary field',
	},
	{ ...binaryPropertyField, displayOptions: withFile },
	uploadOptions(withFile),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contentResource'], operation: ['update'] } },
	properties,
);

async function updateOne(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): Promise<IDataObject> {
	const id = readResourceId.call(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const replaceFile = readBoolean.call(
		this,
		this.getNodeParameter('replaceFile', itemIndex, false),
		'Replace File',
		itemIndex,
	);

	const body: IDataObject = {};
	if (fields.title !== undefined) body.title = readTitle.call(this, fields.title, itemIndex);
	if (fields.type !== undefined) {
		body.type = readType.call(
			this,
			fields.type,
			replaceFile ? FILE_TYPES : RESOURCE_TYPES,
			itemIndex,
		);
	}
	Object.assign(body, readOptionalMetadata.call(this, fields, itemIndex, true));

	if (!replaceFile) {
		if (Object.keys(body).length === 0) {
			throw invalidField.call(
				this,
				'Update Fields',
				'nothing to update: add at least one field, or turn on "Replace File"',
				itemIndex,
			);
		}
		return (await apiRequest.call(this, 'PUT', `/v1/resources/${id}`, {
			body,
			itemIndex,
		})) as IDataObject;
	}

	return await uploadResource.call(this, items, itemIndex, 'PUT', `/v1/resources/${id}`, body);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(
		this,
		items,
		async (itemIndex) => await updateOne.call(this, items, itemIndex),
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ resourceId: byId(ids.draftId), updateFields: { title: 'Draft 2' } }),
};
