import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { RESOURCE_TYPE_OPTIONS } from './constants';

export const RESOURCE_ID_REGEX = 'res_[A-Za-z0-9]{1,64}';
/** The public link `<content host>/c/res_...`, possibly with a preview token or a trailing path. */
export const RESOURCE_URL_REGEX = `^https?://\\S+/c/(${RESOURCE_ID_REGEX})(?:[/?#]\\S*)?$`;

/** The content resource an operation acts on: picked from a searchable list, or given by ID or by its public link. */
export const resourceLocator: INodeProperties = {
	displayName: 'Content Resource',
	name: 'resourceId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a content resource...',
			typeOptions: { searchListMethod: 'searchResources', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. res_4f7h9k2m4n6p8r0t',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^\\s*${RESOURCE_ID_REGEX}\\s*$`,
						errorMessage: 'Not a content resource ID (res_...)',
					},
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://content.example.com/c/res_4f7h9k2m4n6p8r0t',
			extractValue: { type: 'regex', regex: `/c/(${RESOURCE_ID_REGEX})` },
			validation: [
				{
					type: 'regex',
					properties: {
						regex: RESOURCE_URL_REGEX,
						errorMessage:
							'Not the public link of a content resource (https://<content host>/c/res_...)',
					},
				},
			],
		},
	],
};

export const titleField: INodeProperties = {
	displayName: 'Title',
	name: 'title',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. State of B2B Content 2026',
	description: 'Title of the resource (at most 200 characters)',
};

export const trackVisitorsField: INodeProperties = {
	displayName: 'Track Visitors',
	name: 'trackVisitors',
	type: 'boolean',
	default: true,
	description:
		'Whether page views, dwell time, scroll depth and CTA clicks are tracked once the resource is published',
};

export const binaryPropertyField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint: 'The name of the input binary field containing the file to be uploaded',
};

/** Fields that both Create (Additional Fields) and Update (Update Fields) offer. */
export const descriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	description: 'At most 5,000 characters',
};

export const tagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'string',
	default: '',
	placeholder: 'e.g. report, b2b',
	description:
		'Comma-separated tags (at most 20, each at most 50 characters). An expression may also give an array.',
};

export const ctaField: INodeProperties = {
	displayName: 'CTA Name or ID',
	name: 'ctaId',
	type: 'options',
	// Added empty until an option is picked; see the Assigned To filter of Lead › Get Many.
	allowArbitraryValues: true,
	typeOptions: { loadOptionsMethod: 'getCtas' },
	default: '',
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	hint: 'The call-to-action shown with the resource (an ID looks like cta_...)',
};

export const typeField: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: RESOURCE_TYPE_OPTIONS,
	default: 'article',
};

/** Client-side size check before an upload (limits in UPLOAD_LIMITS); the account's plan is not readable through the API. */
export const uploadLimitField: INodeProperties = {
	displayName: 'Upload Size Limit',
	name: 'uploadLimit',
	type: 'options',
	options: [
		{
			name: 'Free Plan (50 MB)',
			value: 'free',
			description: 'Refuse files over 50 MB before uploading them',
		},
		{
			name: 'Paid Plan (500 MB)',
			value: 'paid',
			description: 'Refuse files over 500 MB before uploading them',
		},
		{
			name: 'No Check',
			value: 'none',
			description:
				'Upload any file and let the service decide (it answers 413 File Too Large over the limit)',
		},
	],
	default: 'free',
	description:
		"The upload limit of your account's plan. Files over it are refused before any byte is sent, so that a large video is not streamed only to be rejected.",
};

/** The "Options" collection of an operation that uploads a file, shown when it does (`displayOptions`). */
export function uploadOptions(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options: [uploadLimitField],
	};
}
