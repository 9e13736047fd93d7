import { randomBytes } from 'node:crypto';
import { Prng } from './prng';

export type IdPrefix = 'lead' | 'res' | 'cta' | 'user' | 'req' | 'wh' | 'evt' | 'acct' | 'crm';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SUFFIX_LENGTH = 16;
const SEQUENCE_LENGTH = 7;

const patterns = new Map<IdPrefix, RegExp>();

/** The contract's id shape (docs/api-contract.md §1): `<prefix>_` and 1 to 64 letters or digits. */
export function idPattern(prefix: IdPrefix): RegExp {
	let pattern = patterns.get(prefix);
	if (!pattern) {
		pattern = new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);
		patterns.set(prefix, pattern);
	}
	return pattern;
}

export function isId(prefix: IdPrefix, value: unknown): value is string {
	return typeof value === 'string' && idPattern(prefix).test(value);
}

/**
 * Object ids come from a seeded generator that reset restarts, so that a reset followed by a seed
 * reproduces the same data, ids included. The suffix starts with a base-36 sequence number, so ids sort in
 * creation order: items created within the same second keep their creation order under `sort=created_at`.
 */
export class IdFactory {
	private prng: Prng;
	private sequence = 0;

	constructor(private readonly seed: number) {
		this.prng = new Prng(seed);
	}

	next(prefix: IdPrefix): string {
		this.sequence++;
		return `${prefix}_${this.sequence.toString(36).padStart(SEQUENCE_LENGTH, '0')}${this.token(SUFFIX_LENGTH - SEQUENCE_LENGTH)}`;
	}

	/** A token of `length` letters and digits from the same sequence (preview tokens). */
	token(length: number): string {
		let token = '';
		for (let i = 0; i < length; i++)
			token += ALPHABET[Math.floor(this.prng.next() * ALPHABET.length)];
		return token;
	}

	reset(): void {
		this.prng = new Prng(this.seed);
		this.sequence = 0;
	}
}

/** A non-deterministic id (request ids). */
export function randomId(prefix: IdPrefix): string {
	const bytes = randomBytes(SUFFIX_LENGTH);
	let suffix = '';
	for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
	return `${prefix}_${suffix}`;
}

/** URL-safe random token (secrets, preview tokens). */
export function randomToken(bytes: number): string {
	return randomBytes(bytes).toString('base64url');
}
