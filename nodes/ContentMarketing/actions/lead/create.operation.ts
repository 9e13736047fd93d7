import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readCustomFields } from './customFields';
import { forEachItem } from '../itemLoop';
import { assertEmail, assertEnum, assertMaxLength } from '../../helpers/validation';
import { readCollection, readOptionalText } from '../../helpers/values';
import { SOURCE_CHANNELS } from '../../helpers/vocabulary';
import { apiRequest } from '../../transport';
import { createOnlyOptions, customFieldsOptions, sourceChannelOptions } from './fields';
import type { OperationExample } from '../types';

const properties: INodeProperties[] = [
	{
		// the service keeps leads with the same e-mail apart (an import may hold them): docs/api-contract.md §5
		displayName:
			'Every run creates a new lead, also for an e-mail the service already has (it keeps duplicates). To update a known lead instead, look it up first with Lead › Get Many › Filters › Search.',
		name: 'duplicateEmailNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'E-mail address of the lead',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			createOnlyOptions.company,
			...customFieldsOptions,
			createOnlyOptions.jobTitle,
			createOnlyOptions.name,
			{
				displayName: 'Source Channel',
				name: 'source_channel',
				type: 'options',
				options: sourceChannelOptions,
				default: 'api',
				description: 'Where the lead came from',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['create'] } },
	properties,
);

const TEXT_FIELDS: Array<[key: string, label: string]> = [
	['name', 'Name'],
	['company', 'Company'],
	['job_title', 'Job Title'],
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const body: IDataObject = {
			email: assertEmail.call(this, this.getNodeParameter('email', itemIndex), 'Email', itemIndex),
		};
		const additional = readCollection.call(this, 'additionalFields', itemIndex);
		for (const [key, label] of TEXT_FIELDS) {
			// Left empty, the field is not sent; anything but text (e.g. an object by expression) is refused.
			const text = readOptionalText.call(this, additional[key], label, itemIndex);
			if (text !== undefined) body[key] = assertMaxLength.call(this, text, 200, label, itemIndex);
		}
		if (additional.source_channel !== undefined) {
			body.source_channel = assertEnum.call(
				this,
				additional.source_channel,
				SOURCE_CHANNELS,
				'Source Channel',
				itemIndex,
			);
		}
		const customFields = readCustomFields.call(this, additional, itemIndex);
		if (customFields !== undefined) body.custom_fields = customFields;
		// The transport sends a fresh Idempotency-Key with this POST, so a retry after a 5xx cannot create twice (docs/api-contract.md §8).
		return await apiRequest.call(this, 'POST', '/v1/leads', { body, itemIndex });
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({
		email: 'schema.create@example.com',
		additionalFields: {
			name: 'Grace',
			company: 'Example',
			job_title: 'CTO',
			source_channel: 'api',
		},
	}),
};
