// Spec "Limits: page size", docs/api-contract.md §4: the list envelope, limit, keyset cursors.
import {
	expectError,
	useSandbox,
	type Lead,
	type ListPage,
	type Resource,
} from '../support/sandbox-client';

const sandbox = useSandbox();

beforeAll(async () => {
	await sandbox.reset();
	expect(
		(await sandbox.control.post('/_sandbox/seed', { seed: 7, leads: 250, resources: 30 })).status,
	).toBe(201);
});

async function page<T = Lead>(path: string): Promise<ListPage<T>> {
	const answer = await sandbox.api.get<ListPage<T>>(path);
	expect(answer.status).toBe(200);
	return answer.body;
}

describe('Limits: page size — default 20, maximum 100 (contract §4)', () => {
	test('every list answers { object: "list", data, has_more, next_cursor }', async () => {
		for (const path of [
			'/v1/leads',
			'/v1/resources',
			'/v1/webhooks',
			'/v1/users',
			'/v1/ctas',
			'/v1/webhooks/event-types',
		]) {
			const body = await page<unknown>(path);
			expect(Object.keys(body)).toEqual(['object', 'data', 'has_more', 'next_cursor']);
			expect(body.object).toBe('list');
		}
	});

	test('the default page holds 20 items; limit=100 holds 100', async () => {
		const first = await page('/v1/leads');
		expect(first.data).toHaveLength(20);
		expect(first.has_more).toBe(true);
		expect(first.next_cursor).toEqual(expect.any(String));
		expect((await page('/v1/leads?limit=100')).data).toHaveLength(100);
		expect((await page<Resource>('/v1/resources?limit=1')).data).toHaveLength(1);
	});

	test.each(['101', '0', '-1', 'abc', '1.5', ''])(
		'Errors: 400 invalid_params — limit=%s',
		async (limit) => {
			for (const path of ['/v1/leads', '/v1/resources', '/v1/webhooks', '/v1/users', '/v1/ctas']) {
				expectError(
					await sandbox.api.get(`${path}?limit=${limit}`),
					400,
					'invalid_params',
					'limit',
				);
			}
		},
	);

	test('the last page has has_more false and next_cursor null', async () => {
		const last = await page(
			'/v1/leads?limit=100&cursor=' +
				(
					await page(
						'/v1/leads?limit=100&cursor=' + (await page('/v1/leads?limit=100')).next_cursor,
					)
				).next_cursor,
		);
		expect(last.data).toHaveLength(50);
		expect(last.has_more).toBe(false);
		expect(last.next_cursor).toBeNull();
	});
});

describe('Paging: keyset cursors', () => {
	test('paging through all leads returns each exactly once, in order, also while leads are created between pages', async () => {
		const before = new Set((await sandbox.allLeads()).map((l) => l.id));
		expect(before.size).toBe(250);
		const seen: Lead[] = [];
		let cursor: string | null = null;
		do {
			const body: ListPage<Lead> = await page(
				`/v1/leads?limit=37${cursor ? `&cursor=${cursor}` : ''}`,
			);
			seen.push(...body.data);
			cursor = body.next_cursor;
			await sandbox.createLead();
			await sandbox.createLead();
		} while (cursor);
		const ids = seen.map((l) => l.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of before) expect(ids).toContain(id);
		const keys = seen.map((l) => `${l.created_at}|${l.id}`);
		expect([...keys].sort().reverse()).toEqual(keys);
	});

	test('sort=score asc pages equal the whole list sorted, no duplicates or gaps', async () => {
		const all = await sandbox.allLeads();
		const expected = [...all]
			.sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : 1))
			.map((l) => l.id);
		const seen: string[] = [];
		let cursor: string | null = null;
		do {
			const body: ListPage<Lead> = await page(
				`/v1/leads?sort=score&order=asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			);
			seen.push(...body.data.map((l) => l.id));
			cursor = body.next_cursor;
		} while (cursor);
		expect(seen).toEqual(expected);
	});

	test('name sort keeps leads without a name (null) in the order', async () => {
		await sandbox.createLead({ name: null });
		const ids: string[] = [];
		let cursor: string | null = null;
		do {
			const body: ListPage<Lead> = await page(
				`/v1/leads?sort=name&order=desc&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			);
			ids.push(...body.data.map((l) => l.id));
			cursor = body.next_cursor;
		} while (cursor);
		expect(new Set(ids).size).toBe((await sandbox.allLeads()).length);
	});

	test('resources: deleting items while paging neither repeats nor skips the remaining ones', async () => {
		const first = await page<Resource>('/v1/resources?limit=10');
		const all = (await page<Resource>('/v1/resources?limit=100')).data.map((r) => r.id);
		await sandbox.api.delete(`/v1/resources/${first.data[3].id}`);
		await sandbox.api.delete(`/v1/resources/${all[15]}`);
		const rest: string[] = [];
		let cursor = first.next_cursor;
		while (cursor) {
			const body: ListPage<Resource> = await page<Resource>(
				`/v1/resources?limit=10&cursor=${cursor}`,
			);
			rest.push(...body.data.map((r) => r.id));
			cursor = body.next_cursor;
		}
		expect(rest).toEqual(all.slice(10).filter((id) => id !== all[15]));
	});

	test('Errors: 400 invalid_params — a cursor that does not decode, or that was made for another sort', async () => {
		const cursor = (await page('/v1/leads?limit=5')).next_cursor as string;
		expectError(await sandbox.api.get('/v1/leads?cursor=garbage'), 400, 'invalid_params', 'cursor');
		expectError(
			await sandbox.api.get(`/v1/leads?cursor=${Buffer.from('{"x":1}').toString('base64url')}`),
			400,
			'invalid_params',
			'cursor',
		);
		expectError(
			await sandbox.api.get(`/v1/leads?sort=score&cursor=${cursor}`),
			400,
			'invalid_params',
			'cursor',
		);
		expectError(
			await sandbox.api.get(`/v1/leads?order=asc&cursor=${cursor}`),
			400,
			'invalid_params',
			'cursor',
		);
		expect((await sandbox.api.get(`/v1/leads?cursor=${cursor}`)).status).toBe(200);
	});
});
