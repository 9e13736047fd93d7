// The trigger's signature check (docs/api-contract.md §10) on its own: header forms, the
// timestamp window and the comparison, with signatures computed here independently of the node.
import { createHmac } from 'node:crypto';

import {
	SIGNATURE_TOLERANCE_SECONDS,
	expectedSignature,
	parseSignatureHeader,
	readSignatureHeader,
	verifySignature,
} from '../../dist/nodes/ContentMarketing/trigger/signature';

const SECRET = 'whsec_unit_test_secret';
const NOW = 1_750_000_000;
const BODY = Buffer.from('{"id":"evt_1","type":"lead.created"}');

const hmac = (secret: string, timestamp: string | number, body: Buffer = BODY) =>
	createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
const header = (timestamp: string | number, ...signatures: string[]) =>
	[`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
const verify = (
	signatureHeader: string | undefined,
	extra: { now?: number; secrets?: string[]; body?: Buffer } = {},
) =>
	verifySignature({
		header: signatureHeader,
		rawBody: extra.body ?? BODY,
		secrets: extra.secrets ?? [SECRET],
		nowSeconds: extra.now ?? NOW,
	});

describe('parseSignatureHeader', () => {
	const hex = hmac(SECRET, NOW);

	test('reads t and one v1', () => {
		expect(parseSignatureHeader(header(NOW, hex))).toEqual({
			timestamp: String(NOW),
			signatures: [Buffer.from(hex, 'hex')],
		});
	});

	test('accepts ";" as separator, spaces around entries and values, and keys in any case', () => {
		const parsed = parseSignatureHeader(` T = ${NOW} ;  V1 = ${hex.toUpperCase()} `);
		expect(parsed).toEqual({ timestamp: String(NOW), signatures: [Buffer.from(hex, 'hex')] });
	});

	test('keeps every v1 in order and ignores unknown keys, entries without "=" and v1 values that are not SHA-256 hex', () => {
		const other = hmac('whsec_other', NOW);
		const parsed = parseSignatureHeader(
			`t=${NOW},v0=abc,v1=${other},garbage,v2=${hex},v1=${hex.slice(2)},v1=${hex}`,
		);
		expect(parsed?.signatures).toEqual([Buffer.from(other, 'hex'), Buffer.from(hex, 'hex')]);
	});

	test('keeps t exactly as sent (the signed message starts with it)', () => {
		expect(parseSignatureHeader(header(`00${NOW}`, hex))?.timestamp).toBe(`00${NOW}`);
	});

	test('a repeated t is fine when equal and malformed when not', () => {
		expect(parseSignatureHeader(`t=${NOW},v1=${hex},t=${NOW}`)?.timestamp).toBe(String(NOW));
		expect(parseSignatureHeader(`t=${NOW},v1=${hex},t=${NOW + 1}`)).toBeUndefined();
	});

	test.each([
		['empty', ''],
		['no t', `v1=${hex}`],
		['no v1', `t=${NOW}`],
		['only a v1 of the wrong length', `t=${NOW},v1=${hex}00`],
		['a t that is not whole seconds', `t=${NOW}.5,v1=${hex}`],
		['a negative t', `t=-${NOW},v1=${hex}`],
		['a t of more than 12 digits', `t=1${'0'.repeat(12)},v1=${hex}`],
		['an empty t', `t=,v1=${hex}`],
	])('is undefined for %s', (_case, value) => {
		expect(parseSignatureHeader(value)).toBeUndefined();
	});
});

describe('readSignatureHeader', () => {
	test('prefers CM-Signature and falls back to the X- form (node stores header names in lower case)', () => {
		expect(readSignatureHeader({ 'cm-signature': 'a', 'x-cm-signature': 'b' })).toBe('a');
		expect(readSignatureHeader({ 'x-cm-signature': 'b' })).toBe('b');
		expect(readSignatureHeader({ 'cm-signature': '   ', 'x-cm-signature': 'b' })).toBe('b');
	});

	test('joins a repeated header with ","', () => {
		expect(readSignatureHeader({ 'cm-signature': ['t=1', 'v1=ab'] })).toBe('t=1,v1=ab');
	});

	test('is undefined without a usable header', () => {
		expect(readSignatureHeader({})).toBeUndefined();
		expect(readSignatureHeader({ 'cm-signature': '' })).toBeUndefined();
		expect(readSignatureHeader({ 'cm-signature': [] })).toBeUndefined();
		expect(readSignatureHeader({ 'CM-Signature': 'not lower case' })).toBeUndefined();
	});
});

describe('expectedSignature', () => {
	test('is HMAC-SHA256(secret, t + "." + raw body bytes), also for bytes that are not UTF-8', () => {
		const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
		expect(expectedSignature(SECRET, String(NOW), raw).toString('hex')).toBe(
			hmac(SECRET, NOW, raw),
		);
	});
});

describe('verifySignature', () => {
	test('accepts the signature of the exact body, names the secret that matched and when it was signed', () => {
		expect(verify(header(NOW, hmac(SECRET, NOW)))).toEqual({
			ok: true,
			secretIndex: 0,
			signedAt: NOW,
		});
		const rotated = verify(header(NOW, hmac(SECRET, NOW)), { secrets: ['whsec_new', SECRET] });
		expect(rotated).toEqual({ ok: true, secretIndex: 1, signedAt: NOW });
	});

	test('accepts when any one of several v1 matches', () => {
		expect(verify(header(NOW, hmac('whsec_other', NOW), hmac(SECRET, NOW)))).toEqual({
			ok: true,
			secretIndex: 0,
			signedAt: NOW,
		});
	});

	test('missing header or body is "missing"; an unreadable header is "malformed"', () => {
		expect(verify(undefined)).toEqual({ ok: false, reason: 'missing' });
		expect(
			verifySignature({
				header: header(NOW, hmac(SECRET, NOW)),
				rawBody: undefined,
				secrets: [SECRET],
				nowSeconds: NOW,
			}),
		).toEqual({
			ok: false,
			reason: 'missing',
		});
		expect(verify('sha256=abc')).toEqual({ ok: false, reason: 'malformed' });
	});

	test(`the window is ${SIGNATURE_TOLERANCE_SECONDS} s either side of the receiver's clock, edges included`, () => {
		const at = (timestamp: number) => verify(header(timestamp, hmac(SECRET, timestamp)));
		expect(at(NOW - SIGNATURE_TOLERANCE_SECONDS)).toMatchObject({ ok: true, secretIndex: 0 });
		expect(at(NOW + SIGNATURE_TOLERANCE_SECONDS)).toMatchObject({ ok: true, secretIndex: 0 });
		expect(at(NOW - SIGNATURE_TOLERANCE_SECONDS - 1)).toEqual({ ok: false, reason: 'stale' });
		expect(at(NOW + SIGNATURE_TOLERANCE_SECONDS + 1)).toEqual({ ok: false, reason: 'stale' });
	});

	test('a custom tolerance narrows the window (stale wins over a wrong signature)', () => {
		const old = NOW - 10;
		expect(verify(header(old, 'f'.repeat(64)))).toEqual({ ok: false, reason: 'mismatch' });
		const strict = (timestamp: number) =>
			verifySignature({
				header: header(timestamp, 'f'.repeat(64)),
				rawBody: BODY,
				secrets: [SECRET],
				nowSeconds: NOW,
				toleranceSeconds: 5,
			});
		expect(strict(old)).toEqual({ ok: false, reason: 'stale' });
	});

	test('a different body, secret or timestamp is "mismatch"', () => {
		const signature = hmac(SECRET, NOW);
		expect(verify(header(NOW, signature), { body: Buffer.from(`${BODY.toString()} `) })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
		expect(verify(header(NOW, signature), { secrets: ['whsec_other'] })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
		expect(verify(header(NOW - 1, signature))).toEqual({ ok: false, reason: 'mismatch' });
		expect(verify(header(NOW, signature), { secrets: [] })).toEqual({
			ok: false,
			reason: 'mismatch',
		});
	});

	test('t is signed as sent: leading zeros are part of the signed message', () => {
		expect(verify(header(`0${NOW}`, hmac(SECRET, `0${NOW}`)))).toEqual({
			ok: true,
			secretIndex: 0,
			signedAt: NOW,
		});
		expect(verify(header(`0${NOW}`, hmac(SECRET, NOW)))).toEqual({ ok: false, reason: 'mismatch' });
	});

	test('signatures of another length never reach the constant-time compare (which would throw): ignored, not an error', () => {
		const signature = hmac(SECRET, NOW);
		// A truncated and an overlong (SHA-512 sized) value next to a wrong one of the right length.
		const value = `t=${NOW},v1=${signature.slice(0, 62)},v1=${signature}${signature},v1=${'0'.repeat(64)}`;
		expect(() => verify(value)).not.toThrow();
		expect(verify(value)).toEqual({ ok: false, reason: 'mismatch' });
		expect(verify(`t=${NOW},v1=${signature.slice(0, 62)}`)).toEqual({
			ok: false,
			reason: 'malformed',
		});
	});
});
