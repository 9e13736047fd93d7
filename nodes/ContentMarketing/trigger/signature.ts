import { createHmac, timingSafeEqual } from 'node:crypto';

/** docs/api-contract.md §10: receivers refuse a `t` more than 300 seconds from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** docs/api-contract.md §10 header, plus the `X-` form tolerated per docs/api-contract.md §11 (lower case, as node's http parser stores them). */
export const SIGNATURE_HEADERS = ['cm-signature', 'x-cm-signature'] as const;

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

export interface ParsedSignature {
	/** `t` exactly as sent: the signed message starts with these characters. */
	timestamp: string;
	signatures: Buffer[];
}

export type SignatureFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';

export type SignatureVerdict =
	| {
			ok: true;
			secretIndex: number;
			/** `t`: when the service signed this attempt (unix seconds). */
			signedAt: number;
	  }
	| { ok: false; reason: SignatureFailure };

export interface VerifyInput {
	header: string | undefined;
	rawBody: Buffer | undefined;
	/** Candidate secrets; the verdict names the one that matched. */
	secrets: string[];
	nowSeconds: number;
	toleranceSeconds?: number;
}

/**
 * Parses `t=<unix>,v1=<hex>[,v1=<hex>...]`. Entries may be separated by `,` or `;` with spaces;
 * unknown keys (e.g. a future `v2`) are ignored. More than one distinct `t` is malformed.
 */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
	let timestamp: string | undefined;
	const signatures: Buffer[] = [];
	for (const entry of header.split(/[,;]/)) {
		const separator = entry.indexOf('=');
		if (separator < 0) continue;
		const key = entry.slice(0, separator).trim().toLowerCase();
		const value = entry.slice(separator + 1).trim();
		if (key === 't') {
			if (!UNIX_SECONDS.test(value) || (timestamp !== undefined && timestamp !== value))
				return undefined;
			timestamp = value;
		} else if (key === 'v1' && HEX_SHA256.test(value)) {
			signatures.push(Buffer.from(value, 'hex'));
		}
	}
	if (timestamp === undefined || signatures.length === 0) return undefined;
	return { timestamp, signatures };
}

/** One header value from node's header map: repeated headers arrive as an array and are joined. */
export function readSignatureHeader(
	headers: Record<string, string | string[] | undefined>,
): string | undefined {
	for (const name of SIGNATURE_HEADERS) {
		const value = headers[name];
		if (typeof value === 'string' && value.trim() !== '') return value;
		if (Array.isArray(value) && value.length > 0) return value.join(',');
	}
	return undefined;
}

export function expectedSignature(secret: string, timestamp: string, rawBody: Buffer): Buffer {
	return createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(`${timestamp}.`)
		.update(rawBody)
		.digest();
}

/** HMAC-SHA256(secret, t + '.' + rawBody), compared in constant time, within the timestamp window. */
export function verifySignature(input: VerifyInput): SignatureVerdict {
	const { header, rawBody, secrets, nowSeconds } = input;
	const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
	if (header === undefined || rawBody === undefined) return { ok: false, reason: 'missing' };
	const parsed = parseSignatureHeader(header);
	if (parsed === undefined) return { ok: false, reason: 'malformed' };
	if (Math.abs(nowSeconds - Number(parsed.timestamp)) > tolerance)
		return { ok: false, reason: 'stale' };

	for (const [secretIndex, secret] of secrets.entries()) {
		const expected = expectedSignature(secret, parsed.timestamp, rawBody);
		// Every candidate is compared (no early exit inside one secret), each in constant time.
		let matched = false;
		for (const candidate of parsed.signatures) {
			if (candidate.length === expected.length && timingSafeEqual(candidate, expected))
				matched = true;
		}
		if (matched) return { ok: true, secretIndex, signedAt: Number(parsed.timestamp) };
	}
	return { ok: false, reason: 'mismatch' };
}
