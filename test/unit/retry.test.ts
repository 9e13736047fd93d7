// The transport's retry policy (docs/api-contract.md §9, §11) on its own: Retry-After forms,
// backoff bounds, which requests may be re-sent and which network failures are transient.
import {
	MAX_KEY_WAIT_MS,
	MAX_RETRIES,
	backoffDelay,
	isReplayable,
	isTransientNetworkError,
	networkErrorCode,
	retryAfterAnswer,
	retryAfterDelay,
	retryAfterNetworkError,
} from '../../dist/nodes/ContentMarketing/transport/retry';

const NOW = Date.parse('2026-01-15T12:00:00Z');
const after = (value: unknown) => retryAfterDelay({ 'retry-after': value as string }, NOW);

describe('retryAfterDelay', () => {
	test('reads seconds, as text or number, with spaces, under either header name', () => {
		expect(after('5')).toBe(5000);
		expect(after(5)).toBe(5000);
		expect(after(' 3 ')).toBe(3000);
		expect(after('1.5')).toBe(1500);
		expect(retryAfterDelay({ 'Retry-After': '2' }, NOW)).toBe(2000);
	});

	test('0 means now', () => {
		expect(after('0')).toBe(0);
		expect(after(0)).toBe(0);
	});

	test('reads an HTTP date relative to now; a past date means now', () => {
		expect(after(new Date(NOW + 10_000).toUTCString())).toBe(10_000);
		expect(after('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0);
	});

	test('caps a long wait at 60 s, in seconds and as a date', () => {
		expect(after('61')).toBe(60_000);
		expect(after('86400')).toBe(60_000);
		expect(after(new Date(NOW + 3_600_000).toUTCString())).toBe(60_000);
	});

	test('a negative value never gives a negative wait', () => {
		for (const value of ['-1', '-30', -5]) expect([undefined, 0]).toContain(after(value));
	});

	test('is undefined when absent or unreadable (the caller then backs off)', () => {
		expect(retryAfterDelay(undefined, NOW)).toBeUndefined();
		expect(retryAfterDelay({}, NOW)).toBeUndefined();
		for (const value of ['', '   ', 'soon', 'Infinity', 'NaN', null, true, ['5'], { seconds: 5 }]) {
			expect(after(value)).toBeUndefined();
		}
	});
});

describe('backoffDelay', () => {
	const withRandom = (value: number, attempt: number) => {
		const random = jest.spyOn(Math, 'random').mockReturnValue(value);
		try {
			return backoffDelay(attempt);
		} finally {
			random.mockRestore();
		}
	};

	test('doubles from 1 s: 1, 2, 4, 8, 16 s, then stays at 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 10, 50].map((attempt) => withRandom(0, attempt))).toEqual([
			1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
		]);
	});

	test('adds less than 10 % jitter, never more', () => {
		expect(withRandom(0.999999, 0)).toBe(1100);
		expect(withRandom(0.999999, 5)).toBe(33_000);
		for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
			const base = Math.min(30_000, 1000 * 2 ** attempt);
			for (let sample = 0; sample < 50; sample++) {
				const delay = backoffDelay(attempt);
				expect(delay).toBeGreaterThanOrEqual(base);
				expect(delay).toBeLessThanOrEqual(base * 1.1);
			}
		}
	});

	test('the whole budget of retries without Retry-After stays bounded', () => {
		expect(MAX_RETRIES).toBe(6);
		const total = Array.from({ length: MAX_RETRIES }, (_, attempt) =>
			withRandom(0.999999, attempt),
		).reduce((a, b) => a + b, 0);
		expect(total).toBe(Math.round((1000 + 2000 + 4000 + 8000 + 16_000 + 30_000) * 1.1));
	});
});

describe('isReplayable', () => {
	test('idempotent methods may be re-sent, POST only with an Idempotency-Key (§8), multipart never', () => {
		for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'] as const) {
			expect(isReplayable(method, false, false)).toBe(true);
			expect(isReplayable(method, false, true)).toBe(false);
		}
		expect(isReplayable('POST', false, false)).toBe(false);
		expect(isReplayable('POST', true, false)).toBe(true);
		expect(isReplayable('POST', true, true)).toBe(false);
	});
});

describe('transient network errors', () => {
	test('recognised by code, by the httpCode n8n-core puts them in, and by message, along the cause chain', () => {
		expect(isTransientNetworkError({ code: 'ECONNRESET' })).toBe(true);
		expect(isTransientNetworkError({ httpCode: 'etimedout' })).toBe(true);
		expect(isTransientNetworkError(new Error('socket hang up'))).toBe(true);
		expect(isTransientNetworkError({ message: 'failed', messages: ['read ECONNRESET'] })).toBe(
			true,
		);
		expect(
			isTransientNetworkError(
				new Error('outer', { cause: new Error('inner', { cause: { code: 'EPIPE' } }) }),
			),
		).toBe(true);
	});

	test('a refused connection, an unknown host, an HTTP status or a non-error is not transient', () => {
		for (const error of [
			{ code: 'ECONNREFUSED' },
			{ code: 'ENOTFOUND' },
			{ httpCode: '500' },
			'ECONNRESET',
			null,
			undefined,
		]) {
			expect(isTransientNetworkError(error)).toBe(false);
		}
	});

	test('the cause chain is followed five levels deep, no further', () => {
		const chain = (depth: number): unknown =>
			depth === 0 ? { code: 'ECONNRESET' } : { message: 'wrapped', cause: chain(depth - 1) };
		expect(isTransientNetworkError(chain(4))).toBe(true);
		expect(isTransientNetworkError(chain(5))).toBe(false);
	});

	test('networkErrorCode names the first system code found, also inside a message', () => {
		expect(networkErrorCode({ code: 'ECONNREFUSED' })).toBe('ECONNREFUSED');
		expect(networkErrorCode(new Error('getaddrinfo ENOTFOUND cm.example'))).toBe('ENOTFOUND');
		expect(networkErrorCode({ httpCode: '404', cause: { code: 'EAI_AGAIN' } })).toBe('EAI_AGAIN');
		expect(networkErrorCode(new Error('Bad request'))).toBeUndefined();
	});
});

describe('the retry decision', () => {
	const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
	const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

	test('a 429 is retried for every request, after its Retry-After, by every sender', () => {
		for (const replayable of [true, false]) {
			expect(retryAfterAnswer(429, { 'retry-after': '3' }, 0, replayable, false)).toEqual({
				ms: 3000,
				everySender: true,
				mayHaveBeenProcessed: false,
			});
		}
	});

	test('a 429 without Retry-After backs off as the attempt number says', () => {
		const wait = retryAfterAnswer(429, {}, 2, false, false);
		expect(wait?.everySender).toBe(true);
		expect(wait?.ms).toBeGreaterThanOrEqual(4000);
		expect(wait?.ms).toBeLessThanOrEqual(4400);
	});

	test('a 5xx is retried alone, replayable requests only, and marks the request as maybe processed', () => {
		const wait = retryAfterAnswer(503, {}, 0, true, false);
		expect(wait).toEqual({
			ms: expect.any(Number),
			everySender: false,
			mayHaveBeenProcessed: true,
		});
		expect(wait?.ms).toBeGreaterThanOrEqual(1000);
		expect(wait?.ms).toBeLessThanOrEqual(1100);
		expect(retryAfterAnswer(503, {}, 0, false, false)).toBeUndefined();
	});

	test('a 4xx other than 429 is never retried', () => {
		for (const status of [400, 401, 403, 404, 409, 413, 422]) {
			expect(retryAfterAnswer(status, {}, 0, true, false)).toBeUndefined();
		}
	});

	test('a 5xx gets no retry after MAX_RETRIES retries, a 429 has no count (time bounds it); none once cancelled', () => {
		expect(retryAfterAnswer(500, {}, MAX_RETRIES - 1, true, false)).toBeDefined();
		expect(retryAfterAnswer(500, {}, MAX_RETRIES, true, false)).toBeUndefined();
		expect(retryAfterAnswer(429, { 'retry-after': '1' }, 100, true, false)?.ms).toBe(1000);
		expect(retryAfterAnswer(429, {}, 100, true, false)?.ms).toBeLessThanOrEqual(33_000);
		expect(retryAfterAnswer(429, {}, 0, true, true)).toBeUndefined();
		expect(MAX_KEY_WAIT_MS).toBe(15 * 60_000);
	});

	test('a transient network failure is retried for replayable requests only, within MAX_RETRIES', () => {
		const wait = retryAfterNetworkError(reset, 1, true);
		expect(wait).toEqual({
			ms: expect.any(Number),
			everySender: false,
			mayHaveBeenProcessed: true,
		});
		expect(wait?.ms).toBeGreaterThanOrEqual(2000);
		expect(wait?.ms).toBeLessThanOrEqual(2200);
		expect(retryAfterNetworkError(reset, 0, false)).toBeUndefined();
		expect(retryAfterNetworkError(reset, MAX_RETRIES, true)).toBeUndefined();
		expect(retryAfterNetworkError(refused, 0, true)).toBeUndefined();
	});
});
