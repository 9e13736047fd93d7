import type { IDataObject } from 'n8n-workflow';

/** The fields a lead keeps under "Simplify". */
export const SIMPLE_LEAD_FIELDS = [
	'id',
	'email',
	'name',
	'company',
	'job_title',
	'status',
	'score',
	'source_channel',
	'assigned_to',
	'created_at',
] as const;

export function pick(object: IDataObject, fields: readonly string[]): IDataObject {
	const result: IDataObject = {};
	for (const field of fields) {
		if (field in object) result[field] = object[field];
	}
	return result;
}

export function simplifyLead(lead: IDataObject): IDataObject {
	return pick(lead, SIMPLE_LEAD_FIELDS);
}
