import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CUSTOM_FIELDS_JSON_LABEL, CUSTOM_FIELDS_UI_LABEL } from './customFields';
import { labelledOptions } from '../common.descriptions';
import { idExample, idPattern } from '../../helpers/validation';
import type { LeadStatus, SourceChannel } from '../../helpers/vocabulary';

const STATUS_LABELS: Record<LeadStatus, string> = {
	new: 'New',
	contacted: 'Contacted',
	qualified: 'Qualified',
	converted: 'Converted',
	lost: 'Lost',
};

const SOURCE_CHANNEL_LABELS: Record<SourceChannel, string> = {
	direct: 'Direct',
	organic_search: 'Organic Search',
	paid_search: 'Paid Search',
	social: 'Social',
	email: 'Email',
	referral: 'Referral',
	api: 'API',
	import: 'Import',
	other: 'Other',
};

export const statusOptions: INodePropertyOptions[] = labelledOptions(STATUS_LABELS);

export const sourceChannelOptions: INodePropertyOptions[] = labelledOptions(SOURCE_CHANNEL_LABELS);

/** The lead an operation works on: picked from a searchable list or given by ID. */
export const leadLocator: INodeProperties = {
	displayName: 'Lead',
	name: 'leadId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The lead to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a lead...',
			typeOptions: { searchListMethod: 'searchLeads', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: `e.g. ${idExample('lead')}`,
			validation: [
				{
					type: 'regex',
					properties: {
						regex: idPattern('lead').source,
						errorMessage: 'Not a lead ID: lead_ followed by letters and digits',
					},
				},
			],
		},
	],
};

/**
 * The lead locator of the operations that work on one lead (Get, Update, Sync to CRM): also By Email, an
 * exact e-mail match resolved before the request (leadLocatorByEmail.ts `resolveLeadId`).
 */
export const leadLocatorWithEmail: INodeProperties = {
	...leadLocator,
	modes: [
		...(leadLocator.modes ?? []),
		{
			displayName: 'By Email',
			name: 'email',
			type: 'string',
			placeholder: 'e.g. name@example.com',
		},
	],
};

/** Custom fields as key/value pairs and as JSON, for the Additional Fields and Update Fields collections. */
export const customFieldsOptions: INodeProperties[] = [
	{
		displayName: CUSTOM_FIELDS_UI_LABEL,
		name: 'customFieldsUi',
		type: 'fixedCollection',
		placeholder: 'Add Custom Field',
		default: {},
		typeOptions: { multipleValues: true },
		description: 'Free-form key/value pairs stored on the lead; values are sent as text',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Key',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: 'e.g. plan',
						description: 'Starts with a letter; letters, digits and _ only',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. enterprise',
						description: 'Sent as text. Leave empty to remove the field from the lead (on update).',
					},
				],
			},
		],
	},
	{
		displayName: CUSTOM_FIELDS_JSON_LABEL,
		name: 'customFieldsJson',
		type: 'json',
		default: '{}',
		placeholder: 'e.g. {"plan": "enterprise", "seats": 25}',
		description:
			'Custom fields as a JSON object; values may be text, numbers, booleans or null (null removes the field on update). Wins over a key/value pair with the same key.',
	},
];

/** Lead › Update and Create or Update: the user a lead is assigned to, or UNASSIGN. */
export const assignedToOption: INodeProperties = {
	displayName: 'Assigned To Name or ID',
	name: 'assigned_to',
	type: 'options',
	// An empty value until a user is picked: without this n8n's editor marks the just-added field
	// red ("The value "" is not supported!"); the ID is still checked before any request.
	allowArbitraryValues: true,
	typeOptions: { loadOptionsMethod: 'getAssignees' },
	default: '',
	description:
		'The user the lead is assigned to, or "Nobody" to remove the assignment. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Lead › Update and Create or Update: the lead's internal notes. */
export const notesOption: INodeProperties = {
	displayName: 'Notes',
	name: 'notes',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	placeholder: 'e.g. Asked for a demo next week',
	description: 'Internal notes on the lead; empty clears them',
};

/**
 * The fields only POST /v1/leads sets (docs/api-contract.md §5), as Lead › Create offers them; Create or
 * Update adds a description saying the service cannot change them later.
 */
export const createOnlyOptions = {
	company: {
		displayName: 'Company',
		name: 'company',
		type: 'string',
		default: '',
		placeholder: 'e.g. Analytical Engines',
	},
	jobTitle: {
		displayName: 'Job Title',
		name: 'job_title',
		type: 'string',
		default: '',
		placeholder: 'e.g. CTO',
	},
	name: {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ada Lovelace',
	},
} satisfies Record<string, INodeProperties>;
