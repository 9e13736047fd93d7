import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { multiOptionsSubtitle } from '../helpers/subtitle';

const STATUS_OPTIONS = [
	{ name: 'Contacted', value: 'contacted' },
	{ name: 'Converted', value: 'converted' },
	{ name: 'Lost', value: 'lost' },
	{ name: 'New', value: 'new' },
	{ name: 'Qualified', value: 'qualified' },
];

/** The parameters both triggers take, with the same names and meaning (read by leadEvents/params.ts). */
export const leadEventProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['lead.created'],
		description: 'The events to listen to',
		options: [
			{
				name: 'Lead Created',
				value: 'lead.created',
				description: 'A lead was created (form submission, import or API)',
			},
			{
				name: 'Lead Status Updated',
				value: 'lead.status_updated',
				description: "A lead's status changed",
			},
		],
	},
	{
		displayName: 'Simplify',
		name: 'simple',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Only Lead Statuses',
				name: 'statuses',
				type: 'multiOptions',
				default: [],
				description:
					'Only start the workflow for leads whose status (after the change) is one of these; leave empty for all',
				options: STATUS_OPTIONS,
			},
			{
				displayName: 'Only Previous Statuses',
				name: 'previousStatuses',
				type: 'multiOptions',
				default: [],
				description:
					'Only start the workflow for status changes away from one of these statuses; leave empty for all. A new lead has no previous status: while this is set, Lead Created events do not start the workflow.',
				options: STATUS_OPTIONS,
			},
			{
				displayName: 'Only Source Channels',
				name: 'sourceChannels',
				type: 'multiOptions',
				default: [],
				description:
					'Only start the workflow for leads that came from one of these channels; leave empty for all',
				options: [
					{ name: 'API', value: 'api' },
					{ name: 'Direct', value: 'direct' },
					{ name: 'Email', value: 'email' },
					{ name: 'Import', value: 'import' },
					{ name: 'Organic Search', value: 'organic_search' },
					{ name: 'Other', value: 'other' },
					{ name: 'Paid Search', value: 'paid_search' },
					{ name: 'Referral', value: 'referral' },
					{ name: 'Social', value: 'social' },
				],
			},
			{
				displayName: 'Only Source Resource',
				name: 'sourceResource',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				description: 'Only start the workflow for leads that originated on this content resource',
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'searchResources', searchable: true },
					},
					{
						displayName: 'By ID',
						name: 'id',
						type: 'string',
						placeholder: 'e.g. res_8k2m4n6p8r0t2v4x',
						validation: [
							{
								type: 'regex',
								properties: {
									regex: '^res_[A-Za-z0-9]{1,64}$',
									errorMessage: 'A resource ID looks like res_8k2m4n6p8r0t2v4x',
								},
							},
						],
					},
				],
			},
		],
	},
];

/**
 * The Poll Trigger's copy of the parameters. Its events carry their own action labels, since n8n's node panel
 * lists both triggers' events under the one Content Marketing app and would show each label twice.
 */
export function pollLeadEventProperties(): INodeProperties[] {
	return leadEventProperties.map((property) =>
		property.name === 'events'
			? {
					...property,
					options: (property.options as INodePropertyOptions[]).map((option) => ({
						...option,
						action: `On ${option.name.toLowerCase()} (polling)`,
					})),
				}
			: property,
	);
}

/** Both triggers' canvas subtitle: the chosen events as the panel names them ("Lead Created"). */
export const eventsSubtitle = multiOptionsSubtitle(
	leadEventProperties.find((property) => property.name === 'events')!,
);
