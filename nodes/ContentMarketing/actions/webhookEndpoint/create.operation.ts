import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEachItem } from '../itemLoop';
import { assertMaxLength, assertWebhookUrl } from '../../helpers/validation';
import { readBoolean, readOptionalText } from '../../helpers/values';
import { apiRequest } from '../../transport';
import { activeField, descriptionField, eventsField, readEvents, urlField } from './fields';
import type { OperationExample } from '../types';

export const SECRET_HINT =
	'Store the secret now: the service returns it only in this answer. Receivers use it to verify the CM-Signature header of each delivery.';

const properties: INodeProperties[] = [
	urlField,
	eventsField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [activeField, descriptionField],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = {
			url: assertWebhookUrl.call(this, this.getNodeParameter('url', itemIndex), 'URL', itemIndex),
			events: readEvents.call(this, this.getNodeParameter('events', itemIndex, []), itemIndex),
		};
		const description = readOptionalText.call(
			this,
			additional.description,
			'Description',
			itemIndex,
		);
		if (description !== undefined)
			body.description = assertMaxLength.call(this, description, 500, 'Description', itemIndex);
		if (additional.active !== undefined)
			body.active = readBoolean.call(this, additional.active, 'Active', itemIndex);
		const endpoint = await apiRequest.call(this, 'POST', '/v1/webhooks', { body, itemIndex });
		return typeof endpoint.secret === 'string'
			? { ...endpoint, secret_hint: SECRET_HINT }
			: endpoint;
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({
		url: `${ids.receiverUrl}/created`,
		events: ['lead.created', 'lead.status_updated'],
		additionalFields: { description: 'n8n: new leads' },
	}),
};
