import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { NodeContext } from '../../helpers/itemErrors';
import { invalidField, unexpectedValue } from '../../helpers/itemErrors';
import { isObject, readObject, trimmedText } from '../../helpers/values';

/** docs/api-contract.md §5: at most 50 keys; a key starts with a letter; values are strings up to 1,000 characters, numbers, booleans or null. */
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_KEYS = 50;
const MAX_VALUE_LENGTH = 1_000;

export type CustomFieldValue = string | number | boolean | null;

export const CUSTOM_FIELDS_UI_LABEL = 'Custom Fields';
export const CUSTOM_FIELDS_JSON_LABEL = 'Custom Fields (JSON)';

function checkEntry(
	this: NodeContext,
	key: string,
	value: unknown,
	field: string,
	itemIndex: number,
): CustomFieldValue {
	if (!KEY.test(key)) {
		throw invalidField.call(
			this,
			field,
			`the key "${key}" must start with a letter and hold only letters, digits and _ (at most 64 characters)`,
			itemIndex,
		);
	}
	if (value === null || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string') {
		if (value.length > MAX_VALUE_LENGTH) {
			throw invalidField.call(
				this,
				field,
				`the value of "${key}" is longer than ${MAX_VALUE_LENGTH} characters`,
				itemIndex,
			);
		}
		return value;
	}
	throw invalidField.call(
		this,
		field,
		`the value of "${key}" must be a string, number, boolean or null`,
		itemIndex,
	);
}

/** Key/value pairs of the fixedCollection `{ field: [{ key, value }] }`; an empty value is null (removes the key on update). */
export function customFieldsFromPairs(
	this: NodeContext,
	ui: unknown,
	itemIndex: number,
): IDataObject {
	const label = CUSTOM_FIELDS_UI_LABEL;
	if (ui === undefined) return {};
	const pairs = isObject(ui) ? (ui.field ?? []) : ui;
	if (!Array.isArray(pairs))
		throw unexpectedValue.call(this, label, 'a list of key/value pairs', ui, itemIndex);
	const fields: IDataObject = {};
	pairs.forEach((pair: unknown, position) => {
		if (!isObject(pair))
			throw unexpectedValue.call(
				this,
				label,
				`a key/value pair as entry ${position + 1}`,
				pair,
				itemIndex,
			);
		if (typeof pair.key !== 'string' && pair.key !== undefined && pair.key !== null) {
			throw unexpectedValue.call(
				this,
				label,
				`text as the key of entry ${position + 1}`,
				pair.key,
				itemIndex,
			);
		}
		const key = trimmedText(pair.key) ?? '';
		if (key === '') throw invalidField.call(this, label, 'every entry needs a key', itemIndex);
		if (Object.prototype.hasOwnProperty.call(fields, key))
			throw invalidField.call(this, label, `the key "${key}" is given twice`, itemIndex);
		if (typeof pair.value === 'object' && pair.value !== null) {
			throw unexpectedValue.call(
				this,
				label,
				`text as the value of "${key}"`,
				pair.value,
				itemIndex,
			);
		}
		const value = pair.value === undefined || pair.value === '' ? null : pair.value;
		fields[key] = checkEntry.call(this, key, value, label, itemIndex);
	});
	return fields;
}

/** A JSON object (text or already parsed); `null` values remove a key on update. */
export function customFieldsFromJson(
	this: NodeContext,
	json: unknown,
	itemIndex: number,
): IDataObject {
	const parsed =
		readObject.call(this, json, CUSTOM_FIELDS_JSON_LABEL, itemIndex, '{"plan": "pro"}') ?? {};
	const fields: IDataObject = {};
	for (const [key, value] of Object.entries(parsed)) {
		fields[key] = checkEntry.call(this, key, value, CUSTOM_FIELDS_JSON_LABEL, itemIndex);
	}
	return fields;
}

/**
 * The custom fields of an item from both inputs of a collection (`customFieldsUi` pairs and `customFieldsJson`);
 * the JSON wins for a key given in both. Undefined when neither is set.
 */
export function readCustomFields(
	this: IExecuteFunctions,
	collection: IDataObject,
	itemIndex: number,
): IDataObject | undefined {
	if (collection.customFieldsUi === undefined && collection.customFieldsJson === undefined)
		return undefined;
	const fields = {
		...customFieldsFromPairs.call(this, collection.customFieldsUi, itemIndex),
		...customFieldsFromJson.call(this, collection.customFieldsJson, itemIndex),
	};
	if (Object.keys(fields).length > MAX_KEYS) {
		throw invalidField.call(
			this,
			CUSTOM_FIELDS_UI_LABEL,
			`at most ${MAX_KEYS} custom fields are allowed`,
			itemIndex,
		);
	}
	return fields;
}
