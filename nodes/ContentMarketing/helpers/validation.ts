import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Anything with `getNode()`: execute, load-options and hook contexts. */
export type NodeContext = Pick<IExecuteFunctions, 'getNode'>;

export type IdPrefix = 'lead' | 'res' | 'cta' | 'user' | 'wh';

const ID_EXAMPLE: Record<IdPrefix, string> = {
	lead: 'lead_8k2m4n6p8r0t2v4x',
	res: 'res_4f7h9k2m4n6p8r0t',
	cta: 'cta_2b4d6f8h0j2l4n6p',
	user: 'user_9a8b7c6d5e4f3g2h',
	wh: 'wh_1q2w3e4r5t6y7u8i',
};

/** §1: `<prefix>_` followed by 1 to 64 letters or digits. */
export function idPattern(prefix: IdPrefix): RegExp {
	return new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);
}

export function idExample(prefix: IdPrefix): string {
	return ID_EXAMPLE[prefix];
}

function show(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	const shortened = text.length > 80 ? `${text.slice(0, 77)}...` : text;
	return typeof value === 'string' ? `"${shortened}"` : shortened;
}

/** A NodeOperationError naming the field and the item, as all input validation reports it. */
export function invalidField(this: NodeContext, field: string, problem: string, itemIndex: number): NodeOperationError {
	return new NodeOperationError(this.getNode(), `${field}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: `Fix the "${field}" parameter of item ${itemIndex}; nothing was sent to the service for this item.`,
	});
}

export function assertRequired(this: NodeContext, value: unknown, field: string, itemIndex: number): string {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') throw invalidField.call(this, field, 'is required', itemIndex);
	return text;
}

export function assertId(this: NodeContext, value: unknown, prefix: IdPrefix, field: string, itemIndex: number): string {
	const id = typeof value === 'string' ? value.trim() : '';
	if (id === '') throw invalidField.call(this, field, 'is required', itemIndex);
	if (!idPattern(prefix).test(id)) {
		throw invalidField.call(this, field, `expected an ID like ${ID_EXAMPLE[prefix]}, got ${show(value)}`, itemIndex);
	}
	return id;
}

const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:.]{2,}$/;

export function assertEmail(this: NodeContext, value: unknown, field: string, itemIndex: number): string {
	const email = assertRequired.call(this, value, field, itemIndex);
	if (email.length > 254 || !EMAIL.test(email)) {
		throw invalidField.call(this, field, `expected an e-mail address like name@example.com, got ${show(value)}`, itemIndex);
	}
	return email;
}

/** A real calendar date written YYYY-MM-DD. */
export function assertDate(this: NodeContext, value: unknown, field: string, itemIndex: number): string {
	const text = typeof value === 'string' ? value.trim() : '';
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
	if (!match || !date || date.getUTCMonth() !== Number(match[2]) - 1 || date.getUTCDate() !== Number(match[3])) {
		throw invalidField.call(this, field, `expected a date as YYYY-MM-DD, got ${show(value)}`, itemIndex);
	}
	return text;
}

export function assertEnum<T extends string>(
	this: NodeContext,
	value: unknown,
	allowed: readonly T[],
	field: string,
	itemIndex: number,
): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw invalidField.call(this, field, `expected one of ${allowed.join(', ')}, got ${show(value)}`, itemIndex);
	}
	return value as T;
}

export function assertInteger(
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
		throw invalidField.call(this, field, `expected a whole number ${bounds}, got ${show(value)}`, itemIndex);
	}
	return number;
}

export function assertMaxLength(this: NodeContext, value: string, max: number, field: string, itemIndex: number): string {
	if (value.length > max) {
		throw invalidField.call(this, field, `must be at most ${max} characters (got ${value.length})`, itemIndex);
	}
	return value;
}

/** An absolute http(s) URL with a host; `httpsOnly` rejects plain http. */
export function assertUrl(this: NodeContext, value: unknown, field: string, itemIndex: number, httpsOnly = false): string {
	const text = assertRequired.call(this, value, field, itemIndex);
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	const protocols = httpsOnly ? ['https:'] : ['https:', 'http:'];
	if (!url || !protocols.includes(url.protocol) || url.hostname === '') {
		const expected = httpsOnly ? 'an https:// URL' : 'an http(s):// URL';
		throw invalidField.call(this, field, `expected ${expected} like https://hooks.example.com/cm, got ${show(value)}`, itemIndex);
	}
	return text;
}

/** The value inside a resource locator (`{ mode, value }`), or the value itself. */
function innerValue(value: unknown): unknown {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && 'value' in value
		? (value as { value: unknown }).value
		: value;
}

/** Nothing given: undefined, null, blank text, or a resource locator without a value. */
export function isBlank(value: unknown): boolean {
	const inner = innerValue(value);
	return inner === undefined || inner === null || (typeof inner === 'string' && inner.trim() === '');
}

export type CollectionEntryKind = 'filter' | 'option';

/**
 * A filter or option the user added must have a value. Dropping an added-but-empty one (a field left at
 * its default '', an expression that resolved to nothing, a locator without a value) would silently widen
 * the request, so it is refused instead.
 */
export function assertFilled(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): void {
	if (isBlank(value)) throw invalidField.call(this, field, `is empty; remove the ${kind} or give a value`, itemIndex);
}

/** `assertFilled` for every key present in a Filters/Options collection; `names` are the display names by key. */
export function assertCollectionFilled(
	this: NodeContext,
	collection: Record<string, unknown>,
	names: Record<string, string>,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): void {
	for (const [key, value] of Object.entries(collection)) {
		assertFilled.call(this, value, names[key] ?? key, itemIndex, kind);
	}
}

/** Non-empty text (a number is read as text), trimmed; anything else is refused. */
export function assertText(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): string {
	assertFilled.call(this, value, field, itemIndex, kind);
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') throw invalidField.call(this, field, `expected text, got ${show(value)}`, itemIndex);
	return value.trim();
}

/** A boolean, or the text "true"/"false" an expression may give; anything else is refused, never read as false. */
export function readBoolean(this: NodeContext, value: unknown, field: string, itemIndex: number): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw invalidField.call(this, field, `expected true or false, got ${show(value)}`, itemIndex);
}
