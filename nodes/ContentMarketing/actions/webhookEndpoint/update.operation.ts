import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { getLocatorId } from '../locator';
import { invalidField } from '../../helpers/itemErrors';
import { assertMaxLength, assertWebhookUrl } from '../../helpers/validation';
import { readBoolean, readOptionalText } from '../../helpers/values';
import { apiRequest } from '../../transport';
import {
	activeField,
	descriptionField,
	eventsField,
	readEvents,
	urlField,
	webhookLocator,
} from './fields';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [
	{ ...webhookLocator, description: 'The webhook endpoint to update' },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Add at least one field to change',
		options: [
			activeField,
			descriptionField,
			{ ...eventsField, required: false },
			{ ...urlField, required: false },
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['update'] } },
	properties,
);

function updateBody(this: IExecuteFunctions, fields: IDataObject, itemIndex: number): IDataObject {
	const body: IDataObject = {};
	if (fields.url !== undefined)
		body.url = assertWebhookUrl.call(this, fields.url, 'URL', itemIndex);
	if (fields.events !== undefined) body.events = readEvents.call(this, fields.events, itemIndex);
	if (fields.description !== undefined) {
		// Empty (or null by expression) clears the description.
		const description =
			readOptionalText.call(this, fields.description, 'Description', itemIndex) ?? '';
		body.description = assertMaxLength.call(this, description, 500, 'Description', itemIndex);
	}
	if (fields.active !== undefined)
		body.active = readBoolean.call(this, fields.active, 'Active', itemIndex);
	if (Object.keys(body).length === 0) {
		throw invalidField.call(
			this,
			'Update Fields',
			'add at least one field to update (URL, Events, Description or Active)',
			itemIndex,
		);
	}
	return body;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const id = getLocatorId.call(this, 'webhookId', itemIndex, 'wh', 'Webhook Endpoint');
		const body = updateBody.call(
			this,
			this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
			itemIndex,
		);
		return await apiRequest.call(this, 'PATCH', `/v1/webhooks/${id}`, { body, itemIndex });
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({
		webhookId: byId(ids.webhookId),
		updateFields: { description: 'renamed' },
	}),
};
