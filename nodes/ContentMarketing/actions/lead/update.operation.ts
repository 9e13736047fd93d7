import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readCustomFields } from './customFields';
import { forEachItem } from '../itemLoop';
import { invalidField } from '../../helpers/itemErrors';
import { assertEnum, assertId, assertMaxLength } from '../../helpers/validation';
import { readOptionalText } from '../../helpers/values';
import { LEAD_STATUSES, UNASSIGN } from '../../helpers/vocabulary';
import { apiRequest } from '../../transport';
import {
	assignedToOption,
	customFieldsOptions,
	leadLocatorWithEmail,
	notesOption,
	statusOptions,
} from './fields';
import { resolveLeadId, withLeadLookups } from './leadLocatorByEmail';
import { byId, type OperationExample } from '../types';

const properties: INodeProperties[] = [
	{ ...leadLocatorWithEmail, description: 'The lead to update' },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only these fields of a lead can be changed; add at least one',
		options: [
			assignedToOption,
			...customFieldsOptions,
			notesOption,
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: statusOptions,
				default: 'contacted',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['update'] } },
	properties,
);

function updateBody(this: IExecuteFunctions, fields: IDataObject, itemIndex: number): IDataObject {
	const body: IDataObject = {};
	if (fields.status !== undefined)
		body.status = assertEnum.call(this, fields.status, LEAD_STATUSES, 'Status', itemIndex);
	if (fields.assigned_to !== undefined) {
		body.assigned_to =
			fields.assigned_to === UNASSIGN
				? null
				: assertId.call(this, fields.assigned_to, 'user', 'Assigned To', itemIndex);
	}
	if (fields.notes !== undefined) {
		// Empty (or null by expression) clears the notes; anything but text (e.g. an object) is refused.
		const notes = readOptionalText.call(this, fields.notes, 'Notes', itemIndex);
		body.notes =
			notes === undefined ? null : assertMaxLength.call(this, notes, 10_000, 'Notes', itemIndex);
	}
	const customFields = readCustomFields.call(this, fields, itemIndex);
	if (customFields !== undefined && Object.keys(customFields).length > 0)
		body.custom_fields = customFields;
	if (Object.keys(body).length === 0) {
		throw invalidField.call(
			this,
			'Update Fields',
			'add at least one field to update (Status, Assigned To, Notes or Custom Fields)',
			itemIndex,
		);
	}
	return body;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await withLeadLookups(
		this,
		async () =>
			await forEachItem.call(this, items, async (itemIndex) => {
				const body = updateBody.call(
					this,
					this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
					itemIndex,
				);
				const leadId = await resolveLeadId.call(this, itemIndex);
				return await apiRequest.call(this, 'PATCH', `/v1/leads/${leadId}`, { body, itemIndex });
			}),
	);
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: (ids) => ({ leadId: byId(ids.leadId), updateFields: { status: 'contacted' } }),
};
