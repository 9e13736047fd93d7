import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { invalidField } from '../../helpers/itemErrors';
import { getLocatorId } from '../locator';
import { assertEnum, assertId, assertMaxLength } from '../../helpers/validation';
import { isBlank, readBoolean, readList, readOptionalText, readText } from '../../helpers/values';
import type { ResourceType } from '../../helpers/vocabulary';
import { LIMITS } from './constants';

/** The URL mode of the "Content Resource" locator: its `extractValue` takes the ID from the public link. */
const PUBLIC_LINK = {
	expected: 'the public link of a resource like https://<content host>/c/res_4f7h9k2m4n6p8r0t',
};

/** The resource ID from the "Content Resource" locator, whichever mode it is in. */
export function readResourceId(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'resourceId',
	field = 'Content Resource',
): string {
	return getLocatorId.call(this, name, itemIndex, 'res', field, PUBLIC_LINK);
}

/** Tags from a comma-separated string or a list (given by an expression); blank entries of a list are refused. */
export function readTags(this: IExecuteFunctions, value: unknown, itemIndex: number): string[] {
	// null (by expression) is no tags, like empty text.
	const result = readList.call(this, value === null ? '' : value, 'Tags', itemIndex);
	const nonEmpty = result.filter((tag) => tag !== '');
	if (Array.isArray(value) && nonEmpty.length !== result.length) {
		throw invalidField.call(this, 'Tags', 'tags must not be empty', itemIndex);
	}
	if (nonEmpty.length > LIMITS.tags) {
		throw invalidField.call(
			this,
			'Tags',
			`at most ${LIMITS.tags} tags are allowed (got ${nonEmpty.length})`,
			itemIndex,
		);
	}
	const long = nonEmpty.find((tag) => tag.length > LIMITS.tag);
	if (long !== undefined) {
		throw invalidField.call(
			this,
			'Tags',
			`each tag must be at most ${LIMITS.tag} characters ("${long.slice(0, 20)}..." has ${long.length})`,
			itemIndex,
		);
	}
	return [...new Set(nonEmpty)];
}

export function readTitle(this: IExecuteFunctions, value: unknown, itemIndex: number): string {
	return assertMaxLength.call(
		this,
		readText.call(this, value, 'Title', itemIndex),
		LIMITS.title,
		'Title',
		itemIndex,
	);
}

export function readType(
	this: IExecuteFunctions,
	value: unknown,
	allowed: readonly ResourceType[],
	itemIndex: number,
): ResourceType {
	return assertEnum.call(this, value, allowed, 'Type', itemIndex) as ResourceType;
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
		const description = readOptionalText.call(this, values.description, 'Description', itemIndex);
		if (description !== undefined) {
			body.description = assertMaxLength.call(
				this,
				description,
				LIMITS.description,
				'Description',
				itemIndex,
			);
		} else if (clearEmpty) body.description = null;
	}
	if (values.tags !== undefined) {
		body.tags = readTags.call(this, values.tags, itemIndex);
	}
	if (values.ctaId !== undefined) {
		if (!isBlank(values.ctaId))
			body.cta_id = assertId.call(this, values.ctaId, 'cta', 'CTA', itemIndex);
		else if (clearEmpty) body.cta_id = null;
	}
	if (values.trackVisitors !== undefined) {
		body.track_visitors = readBoolean.call(this, values.trackVisitors, 'Track Visitors', itemIndex);
	}
	return body;
}

/** docs/api-contract.md §6: the same fields as multipart text parts (tags as a JSON array, booleans as true/false). */
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
