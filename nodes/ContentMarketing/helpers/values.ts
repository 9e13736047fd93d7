import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import type { NodeContext } from './itemErrors';
import { describeValue, invalidField, unexpectedValue } from './itemErrors';

// Values as n8n hands them to the node. A parameter set in the editor has its declared type, but one given
// by an expression (or by an AI agent's $fromAI) can be anything: each reader here checks the type and
// refuses a wrong one with the field and the item named, so nothing is sent, dropped or stringified by
// accident ("[object Object]").

/** A plain object: not null, not a list. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The one trimming rule: text without surrounding white space; undefined for blank text or a non-text value. */
export function trimmedText(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	return text === '' ? undefined : text;
}

/** The value inside a resource locator (`{ mode, value }`), or the value itself. */
function innerValue(value: unknown): unknown {
	return isObject(value) && 'value' in value && 'mode' in value ? value.value : value;
}

/** Nothing given: undefined, null, blank text, or a resource locator without a value. */
export function isBlank(value: unknown): boolean {
	const inner = innerValue(value);
	return (
		inner === undefined || inner === null || (typeof inner === 'string' && inner.trim() === '')
	);
}

/**
 * Optional text, trimmed; undefined when nothing is given (blank, null). A finite number is read as text
 * (e.g. a postcode from a sheet); an object, a list or a boolean is refused.
 */
export function readOptionalText(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') throw unexpectedValue.call(this, field, 'text', value, itemIndex);
	return trimmedText(value);
}

/** Required text (see `readOptionalText`): nothing given is "is required". */
export function readText(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = readOptionalText.call(this, value, field, itemIndex);
	if (text === undefined) throw invalidField.call(this, field, 'is required', itemIndex);
	return text;
}

/** A whole number in a range (default at least 1); numeric text (e.g. from a CSV) is read as the number. */
export function readInteger(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	range: { min?: number; max?: number } = {},
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const { min = 1, max = Number.MAX_SAFE_INTEGER } = range;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		const bounds = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
		throw unexpectedValue.call(this, field, `a whole number ${bounds}`, value, itemIndex);
	}
	return number;
}

/** A boolean, or the text "true"/"false" an expression may give; anything else is refused, never read as false. */
export function readBoolean(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw unexpectedValue.call(this, field, 'true or false', value, itemIndex);
}

/**
 * A list of text entries, given as a list or as comma-separated text; entries are trimmed (blank ones kept
 * as '' for the caller to judge). A number entry is read as text; any other entry, or a value that is
 * neither a list nor text, is refused naming the entry.
 */
export function readList(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string[] {
	if (typeof value === 'string') return value.split(',').map((entry) => entry.trim());
	if (!Array.isArray(value)) {
		throw unexpectedValue.call(this, field, 'a list or comma-separated text', value, itemIndex);
	}
	return value.map((entry: unknown, position) => {
		if (typeof entry === 'number' && Number.isFinite(entry)) return String(entry);
		if (typeof entry !== 'string') {
			throw unexpectedValue.call(
				this,
				field,
				`text as entry ${position + 1} of the list`,
				entry,
				itemIndex,
			);
		}
		return entry.trim();
	});
}

/** An object, or JSON text of one (`example` shows its form); blank text is undefined. */
export function readObject(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	example: string,
): IDataObject | undefined {
	if (value === undefined || value === null) return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		try {
			parsed = jsonParse<unknown>(value);
		} catch {
			throw invalidField.call(this, field, 'is not valid JSON', itemIndex);
		}
	}
	if (!isObject(parsed)) {
		throw invalidField.call(
			this,
			field,
			`must be a JSON object like ${example}, got ${describeValue(parsed)}`,
			itemIndex,
		);
	}
	return parsed;
}

// Per execution, whether a collection parameter is left empty in the node (no field added, no expression).
const emptyCollections = new WeakMap<object, Map<string, boolean>>();

/**
 * A collection parameter (Additional Fields) of an item. One the node leaves empty is `{}` for every item,
 * so n8n is not asked to evaluate it item by item (its evaluation is most of a parameter read's cost).
 */
export function readCollection(
	this: IExecuteFunctions,
	name: string,
	itemIndex: number,
): IDataObject {
	let known = emptyCollections.get(this);
	if (known === undefined) {
		known = new Map();
		emptyCollections.set(this, known);
	}
	let empty = known.get(name);
	if (empty === undefined) {
		const raw = this.getNodeParameter(name, 0, {}, { rawExpressions: true }) as unknown;
		empty = isObject(raw) && Object.keys(raw).length === 0;
		known.set(name, empty);
	}
	return empty ? {} : (this.getNodeParameter(name, itemIndex, {}) as IDataObject);
}
