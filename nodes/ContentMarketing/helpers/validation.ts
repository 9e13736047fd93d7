import type { NodeContext } from './itemErrors';
import { invalidField, unexpectedValue } from './itemErrors';
import { isBlank, readOptionalText, readText } from './values';

// The formats of the service's fields (IDs, e-mail, dates, URLs, enumerations, lengths), checked before
// any request; the type of a value is checked first by the readers in values.ts.

export type IdPrefix = 'lead' | 'res' | 'cta' | 'user' | 'wh';

const ID_EXAMPLE: Record<IdPrefix, string> = {
	lead: 'lead_8k2m4n6p8r0t2v4x',
	res: 'res_4f7h9k2m4n6p8r0t',
	cta: 'cta_2b4d6f8h0j2l4n6p',
	user: 'user_9a8b7c6d5e4f3g2h',
	wh: 'wh_1q2w3e4r5t6y7u8i',
};

/** docs/api-contract.md §1: `<prefix>_` followed by 1 to 64 letters or digits. */
export function idPattern(prefix: IdPrefix): RegExp {
	return new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);
}

export function idExample(prefix: IdPrefix): string {
	return ID_EXAMPLE[prefix];
}

export function assertId(
	this: NodeContext,
	value: unknown,
	prefix: IdPrefix,
	field: string,
	itemIndex: number,
): string {
	const id = typeof value === 'string' ? value.trim() : value;
	if (isBlank(id)) throw invalidField.call(this, field, 'is required', itemIndex);
	if (typeof id !== 'string' || !idPattern(prefix).test(id)) {
		throw unexpectedValue.call(this, field, `an ID like ${ID_EXAMPLE[prefix]}`, value, itemIndex);
	}
	return id;
}

const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:.]{2,}$/;

export function assertEmail(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const expected = 'an e-mail address like name@example.com';
	if (typeof value !== 'string' && !isBlank(value))
		throw unexpectedValue.call(this, field, expected, value, itemIndex);
	const email = readText.call(this, value, field, itemIndex);
	if (email.length > 254 || !EMAIL.test(email))
		throw unexpectedValue.call(this, field, expected, value, itemIndex);
	return email;
}

/** A real calendar date written YYYY-MM-DD. */
export function assertDate(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = typeof value === 'string' ? value.trim() : '';
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	const date = match
		? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
		: undefined;
	if (
		!match ||
		!date ||
		date.getUTCMonth() !== Number(match[2]) - 1 ||
		date.getUTCDate() !== Number(match[3])
	) {
		throw unexpectedValue.call(this, field, 'a date as YYYY-MM-DD', value, itemIndex);
	}
	return text;
}

/** One of `allowed`; text is trimmed first, anything else is refused with the allowed values listed. */
export function assertEnum<T extends string>(
	this: NodeContext,
	value: unknown,
	allowed: readonly T[],
	field: string,
	itemIndex: number,
): T {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !(allowed as readonly string[]).includes(text)) {
		throw unexpectedValue.call(this, field, `one of ${allowed.join(', ')}`, value, itemIndex);
	}
	return text as T;
}

export function assertMaxLength(
	this: NodeContext,
	value: string,
	max: number,
	field: string,
	itemIndex: number,
): string {
	if (value.length > max) {
		throw invalidField.call(
			this,
			field,
			`must be at most ${max} characters (got ${value.length})`,
			itemIndex,
		);
	}
	return value;
}

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/** An absolute http(s) URL with a host. */
export function assertUrl(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const expected = 'an http(s):// URL like https://hooks.example.com/cm';
	if (typeof value !== 'string' && !isBlank(value))
		throw unexpectedValue.call(this, field, expected, value, itemIndex);
	const text = readText.call(this, value, field, itemIndex);
	const url = parseUrl(text);
	if (!url || !['https:', 'http:'].includes(url.protocol) || url.hostname === '') {
		throw unexpectedValue.call(this, field, expected, value, itemIndex);
	}
	return text;
}

/** docs/api-contract.md §13: the loopback hosts the sandbox accepts plain http:// webhook URLs for. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A webhook URL the service can deliver to (docs/api-contract.md §10): https:// with a host, at most
 * 2,048 characters; plain http:// only for a loopback host, which the sandbox accepts (docs/api-contract.md §13).
 */
export function assertWebhookUrl(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const expected =
		'an http(s):// URL the service can deliver to (https://, or http:// for localhost, 127.0.0.1 or [::1] only) like https://hooks.example.com/cm';
	if (typeof value !== 'string' && !isBlank(value))
		throw unexpectedValue.call(this, field, expected, value, itemIndex);
	const text = readText.call(this, value, field, itemIndex);
	const url = parseUrl(text);
	const https = url?.protocol === 'https:' && url.hostname !== '';
	const loopbackHttp = url?.protocol === 'http:' && LOOPBACK.test(url.hostname);
	if (!https && !loopbackHttp) throw unexpectedValue.call(this, field, expected, value, itemIndex);
	return assertMaxLength.call(this, text, 2_048, field, itemIndex);
}

export type CollectionEntryKind = 'filter' | 'option';

/**
 * A filter or option that is applied must have a value: dropping one whose expression resolved to nothing
 * would silently widen the request, so it is refused instead. (Get Many's collections first leave out what
 * was left empty in the editor: collections.ts.)
 */
export function assertFilled(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): void {
	if (isBlank(value))
		throw invalidField.call(this, field, `is empty; remove the ${kind} or give a value`, itemIndex);
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

/** The text of a filter or option that was added: filled (see `assertFilled`) and text. */
export function assertText(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
	kind: CollectionEntryKind = 'filter',
): string {
	assertFilled.call(this, value, field, itemIndex, kind);
	return readOptionalText.call(this, value, field, itemIndex) as string;
}

/** docs/api-contract.md §4: the search `q` of the lead and resource lists is 1 to 200 characters. */
export const SEARCH_MAX_LENGTH = 200;

/** The Search filter of a Get Many: added, text, and no longer than the service accepts. */
export function assertSearchText(
	this: NodeContext,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const text = assertText.call(this, value, field, itemIndex);
	return assertMaxLength.call(this, text, SEARCH_MAX_LENGTH, field, itemIndex);
}
