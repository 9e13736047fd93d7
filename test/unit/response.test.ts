// What the transport makes of one answer (transport/request.ts): success bodies unwrapped (§11),
// redirects, the DELETE an earlier attempt already did, and failures.
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import {
	answerBody,
	classifyAnswer,
	failureKind,
} from '../../dist/nodes/ContentMarketing/transport/request';

const answer = (statusCode: number, body: unknown = '', headers: IDataObject = {}) =>
	({ statusCode, body, headers }) as IN8nHttpFullResponse;

describe('classifyAnswer', () => {
	test('a 2xx is a success; a single object wrapped in `data` is unwrapped, a list is not', () => {
		const lead = { id: 'lead_1', email: 'a@example.com' };
		const list = { data: [lead], next_cursor: null };
		expect(classifyAnswer(answer(200), { data: lead, request_id: 'r' }, 'GET', false)).toEqual({
			kind: 'success',
			body: lead,
		});
		expect(classifyAnswer(answer(200), list, 'GET', false)).toEqual({
			kind: 'success',
			body: list,
		});
	});

	test('an empty success body (204, an empty text or Buffer) is an empty object', () => {
		for (const body of ['', undefined, null, Buffer.alloc(0)]) {
			expect(classifyAnswer(answer(204), body, 'DELETE', false)).toEqual({
				kind: 'success',
				body: {},
			});
		}
	});

	test('a 3xx with a Location is a redirect; without one it is a failure', () => {
		const moved = answer(307, '', { location: '/v1/leads/2' });
		expect(classifyAnswer(moved, '', 'GET', false)).toEqual({
			kind: 'redirect',
			location: '/v1/leads/2',
		});
		expect(classifyAnswer(answer(302), 'moved', 'GET', false)).toEqual({
			kind: 'failure',
			body: 'moved',
		});
	});

	test('a 404 to a DELETE is done only after an attempt that may have deleted it', () => {
		const notFound = { error: { code: 'not_found', message: 'No such lead' } };
		expect(classifyAnswer(answer(404), notFound, 'DELETE', true)).toEqual({
			kind: 'alreadyDeleted',
		});
		expect(classifyAnswer(answer(404), notFound, 'DELETE', false)).toEqual({
			kind: 'failure',
			body: notFound,
		});
		expect(classifyAnswer(answer(404), notFound, 'GET', true)).toEqual({
			kind: 'failure',
			body: notFound,
		});
	});
});

test('a multipart answer (text or Buffer) is read as JSON when it is JSON', () => {
	expect(answerBody(answer(201, Buffer.from('{"id":"res_1"}')), false)).toEqual({ id: 'res_1' });
	expect(answerBody(answer(502, '<html>Bad gateway</html>'), false)).toBe(
		'<html>Bad gateway</html>',
	);
	expect(answerBody(answer(201, { id: 'res_1' }), true)).toEqual({ id: 'res_1' });
});

test('the adaptive limit reads a 429 as rate limited, a 5xx as an error, anything else as an answer', () => {
	expect([429, 500, 503, 404, 400, 302].map(failureKind)).toEqual([
		'rate_limited',
		'error',
		'error',
		'ok',
		'ok',
		'ok',
	]);
});
