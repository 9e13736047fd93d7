import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { assertEnum, assertId, assertMaxLength, assertRequired, invalidField, readBoolean } from '../../helpers/validation';
import type { ResourceType } from './constants';
import { LIMITS } from './constants';
import { RESOURCE_URL_REGEX } from './fields';

/** The resource ID from the "Content Resource" locator, whichever mode it is in. */
export function readResourceId(this: IExecuteFunctions, itemIndex: number, name = 'resourceId', field = 'Content Resource'): string {
	const raw = this.getNodeParameter(name, itemIndex) as unknown;
	const locator = typeof raw === 'object' && raw !== null ? (raw as IDataObject) : { mode: 'id', value: raw };
	let value = typeof locator.value === 'string' ? locator.value.trim() : locator.value;
	if (locator.mode === 'url' && typeof value === 'string') {
		const match = new RegExp(RESOURCE_URL_REGEX).exec(value);
		if (!match) {
			throw invalidField.call(this, field, `expected the public link of a resource like https://<content host>/c/res_4f7h9k2m4n6p8r0t, got "${value}"`, itemIndex);
		}
		value = match[1];
	}
	return assertId.call(this, value, 'res', field, itemIndex);
}

/** Tags from a comma-separated string or an array (given by an expression). */
export function readTags(this: IExecuteFunctions, value: unknown, itemIndex: number): string[] {
	let tags: unknown[];
	if (Array.isArray(value)) tags = value;
	else if (typeof value === 'string') tags = value.split(',');
	else throw invalidField.call(this, 'Tags', 'expected comma-separated text or an array of text', itemIndex);

	const result = tags.map((tag, position) => {
		if (typeof tag !== 'string' && typeof tag !== 'number') {
			throw invalidField.call(this, 'Tags', `tag ${position + 1} is not text`, itemIndex);
		}
		return String(tag).trim();
	});
	const nonEmpty = result.filter((tag) => tag !== '');
	if (Array.isArray(value) && nonEmpty.length !== result.length) {
		throw invalidField.call(this, 'Tags', 'tags must not be empty', itemIndex);
	}
	if (nonEmpty.length > LIMITS.tags) {
		throw invalidField.call(this, 'Tags', `at most ${LIMITS.tags} tags are allowed (got ${nonEmpty.length})`, itemIndex);
	}
	const long = nonEmpty.find((tag) => tag.length > LIMITS.tag);
	if (long !== undefined) {
		throw invalidField.call(this, 'Tags', `each tag must be at most ${LIMITS.tag} characters ("${long.slice(0, 20)}..." has ${long.length})`, itemIndex);
	}
	return [...new Set(nonEmpty)];
}

export function readTitle(this: IExecuteFunctions, value: unknown, itemIndex: number): string {
	const title = assertRequired.call(this, value, 'Title', itemIndex);
	return assertMaxLength.call(this, title, LIMITS.title, 'Title', itemIndex);
}

export function readType(this: IExecuteFunctions, value: unknown, allowed: readonly ResourceType[], itemIndex: number): ResourceType {
	return assertEnum.call(this, typeof value === 'string' ? value.trim() : value, allowed, 'Type', itemIndex) as ResourceType;
}

/**
 * The optional metadata of a create or update as API fields, validated. On update an empty Description
 * or CTA clears it (sent as null); on create empty values are simply left out.
 */
export function readOptionalMetadata(
	this: IExecuteFunctions,
	values: IDataObject,
	itemIndex: number,
	clearEmpty: boolean,
): IDataObject {
	const body: IDataObject = {};
	if (values.description !== undefined) {
		const description = String(values.description);
		if (description.trim() !== '') {
			body.description = assertMaxLength.call(this, description, LIMITS.description, 'Description', itemIndex);
		} else if (clearEmpty) body.description = null;
	}
	if (values.tags !== undefined) {
		body.tags = readTags.call(this, values.tags, itemIndex);
	}
	if (values.ctaId !== undefined) {
		const ctaId = typeof values.ctaId === 'string' ? values.ctaId.trim() : values.ctaId;
		if (ctaId !== '' && ctaId !== null) body.cta_id = assertId.call(this, ctaId, 'cta', 'CTA', itemIndex);
		else if (clearEmpty) body.cta_id = null;
	}
	if (values.trackVisitors !== undefined) {
		body.track_visitors = readBoolean.call(this, values.trackVisitors, 'Track Visitors', itemIndex);
	}
	return body;
}

/** §6: the same fields as multipart text parts (tags as a JSON array, booleans as true/false). */
export function toMultipartFields(body: IDataObject): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const [key, value] of Object.entries(body)) {
		if (value === undefined) continue;
		if (value === null) fields[key] = '';
		else if (Array.isArray(value)) fields[key] = JSON.stringify(value);
		else fields[key] = String(value);
	}
	return fields;
}
