// How the transport reads one page of a list answer (docs/api-contract.md §4; tolerated
// forms docs/api-contract.md §11).
import { readPage } from '../../dist/nodes/ContentMarketing/transport';

const a = { id: 'a' };
const b = { id: 'b' };

describe('readPage', () => {
	test('the §4 envelope: items and the next cursor while has_more', () => {
		expect(
			readPage({ object: 'list', data: [a, b], has_more: true, next_cursor: 'cur_2' }),
		).toEqual({ items: [a, b], next: 'cur_2' });
	});

	test('has_more false ends the list, whatever cursor comes with it', () => {
		expect(readPage({ data: [a], has_more: false, next_cursor: 'cur_2' })).toEqual({
			items: [a],
			next: undefined,
		});
	});

	test('an empty envelope is an empty last page', () => {
		expect(readPage({ object: 'list', data: [], has_more: false, next_cursor: null })).toEqual({
			items: [],
			next: undefined,
		});
		expect(readPage({ data: [] })).toEqual({ items: [], next: undefined });
	});

	test('a bare array is one complete page', () => {
		expect(readPage([a, b])).toEqual({ items: [a, b] });
		expect(readPage([])).toEqual({ items: [] });
	});

	test('items or results stand for data; data wins when several are arrays', () => {
		expect(readPage({ items: [a], next: 'n' })).toEqual({ items: [a], next: 'n' });
		expect(readPage({ results: [b], cursor: 'c' })).toEqual({ items: [b], next: 'c' });
		expect(readPage({ data: [a], items: [b], results: [b] }).items).toEqual([a]);
		expect(readPage({ data: 'not a list', items: [b] }).items).toEqual([b]);
	});

	test('next_cursor wins over next and cursor; a number is a cursor too', () => {
		expect(readPage({ data: [a], next_cursor: 'x', next: 'y', cursor: 'z' }).next).toBe('x');
		expect(readPage({ data: [a], next: 2 }).next).toBe('2');
	});

	test('a next that is a URL gives its cursor parameter, or no next page without one', () => {
		expect(
			readPage({ data: [a], next: 'https://api.example.com/v1/leads?limit=100&cursor=cur_3' }).next,
		).toBe('cur_3');
		expect(
			readPage({ data: [a], next: 'HTTP://api.example.com/v1/leads?page=2' }).next,
		).toBeUndefined();
		expect(readPage({ data: [a], next: 'http://' }).next).toBeUndefined();
	});

	test('an empty or non-text cursor means no next page', () => {
		for (const next_cursor of ['', null, false, {}, ['c']])
			expect(readPage({ data: [a], next_cursor }).next).toBeUndefined();
	});

	test('an answer that is not a list gives no items and says it is unreadable', () => {
		for (const body of [
			undefined,
			null,
			'',
			'text',
			42,
			true,
			{},
			{ data: null },
			{ object: 'lead', id: 'lead_1' },
		]) {
			expect(readPage(body)).toEqual({ items: [], next: undefined, unreadable: true });
		}
	});
});
