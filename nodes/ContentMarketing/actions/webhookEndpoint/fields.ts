import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidField } from '../../helpers/itemErrors';
import { assertEnum, idExample, idPattern } from '../../helpers/validation';
import { readList } from '../../helpers/values';
import type { WebhookEventType } from '../../helpers/vocabulary';
import { WEBHOOK_EVENT_TYPES } from '../../helpers/vocabulary';

export const webhookLocator: INodeProperties = {
	displayName: 'Webhook Endpoint',
	name: 'webhookId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The webhook endpoint to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select an endpoint...',
			typeOptions: { searchListMethod: 'searchWebhookEndpoints', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: `e.g. ${idExample('wh')}`,
			validation: [
				{
					type: 'regex',
					properties: {
						regex: idPattern('wh').source,
						errorMessage: 'Not a webhook endpoint ID: wh_ followed by letters and digits',
					},
				},
			],
		},
	],
};

export const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://hooks.example.com/content-marketing',
	description: 'Public HTTPS address that receives the events as POST requests',
};

export const eventsField: INodeProperties = {
	displayName: 'Event Names or IDs',
	name: 'events',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getEventTypes' },
	default: [],
	required: true,
	description:
		'Event types the endpoint receives (1 to 10). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	placeholder: 'e.g. n8n: new leads',
	description: 'A note shown in the console, at most 500 characters',
};

export const activeField: INodeProperties = {
	displayName: 'Active',
	name: 'active',
	type: 'boolean',
	default: true,
	description: 'Whether the endpoint receives events',
};

/**
 * `events` as a list of distinct known event types (docs/api-contract.md §10), checked here so that an
 * unknown type is refused in the node's words; an expression may give a comma-separated string.
 */
export function readEvents(
	this: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): WebhookEventType[] {
	const list = readList.call(this, value, 'Events', itemIndex).filter((event) => event !== '');
	const events = [...new Set(list)].map(
		(event) =>
			assertEnum.call(this, event, WEBHOOK_EVENT_TYPES, 'Events', itemIndex) as WebhookEventType,
	);
	if (events.length === 0)
		throw invalidField.call(this, 'Events', 'choose at least one event type', itemIndex);
	if (events.length > 10)
		throw invalidField.call(this, 'Events', 'at most 10 event types can be chosen', itemIndex);
	return events;
}
