import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CUSTOM_FIELDS_JSON_LABEL, CUSTOM_FIELDS_UI_LABEL } from '../../helpers/customFields';
import { idExample, idPattern } from '../../helpers/validation';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export const SOURCE_CHANNELS = [
	'direct',
	'organic_search',
	'paid_search',
	'social',
	'email',
	'referral',
	'api',
	'import',
	'other',
] as const;
/** The value of the "Assigned To" option that removes the assignment. */
export const UNASSIGN = '__unassign__';

export const LEAD_SORT_FIELDS = ['created_at', 'updated_at', 'score', 'email', 'name'] as const;

export const statusOptions: INodePropertyOptions[] = [
	{ name: 'Contacted', value: 'contacted' },
	{ name: 'Converted', value: 'converted' },
	{ name: 'Lost', value: 'lost' },
	{ name: 'New', value: 'new' },
	{ name: 'Qualified', value: 'qualified' },
];

export const sourceChannelOptions: INodePropertyOptions[] = [
	{ name: 'API', value: 'api' },
	{ name: 'Direct', value: 'direct' },
	{ name: 'Email', value: 'email' },
	{ name: 'Import', value: 'import' },
	{ name: 'Organic Search', value: 'organic_search' },
	{ name: 'Other', value: 'other' },
	{ name: 'Paid Search', value: 'paid_search' },
	{ name: 'Referral', value: 'referral' },
	{ name: 'Social', value: 'social' },
];

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
