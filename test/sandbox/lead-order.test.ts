// The sorted lead order behind GET /v1/leads paging (docs/api-contract.md §4, §5): every sort and order pages exactly
// like the whole list sorted, after leads were created and updated (a PATCH moves a lead in updated_at).
import { useSandbox, type Lead, type ListPage } from '../support/sandbox-client';

const sandbox = useSandbox();

const SORTS = ['created_at', 'updated_at', 'score', 'email', 'name'] as const;

function compare(a: string | number | null, b: string | number | null): number {
	if (a === b) return 0;
	if (a === null) return -1;
	if (b === null) return 1;
	return a < b ? -1 : 1;
}

async function pageAll(query: string): Promise<string[]> {
	const ids: string[] = [];
	let cursor: string | null = null;
	do {
		const answer: { status: number; body: ListPage<Lead> } = await sandbox.api.get<ListPage<Lead>>(
			`/v1/leads?${query}&limit=23${cursor ? `&cursor=${cursor}` : ''}`,
		);
		expect(answer.status).toBe(200);
		ids.push(...answer.body.data.map((lead) => lead.id));
		cursor = answer.body.next_cursor;
	} while (cursor);
	return ids;
}

beforeAll(async () => {
	await sandbox.reset();
	expect((await sandbox.control.post('/_sandbox/seed', { seed: 11, leads: 120 })).status).toBe(201);
	await sandbox.createLead({ name: null });
	const some = (await sandbox.allLeads()).slice(0, 30);
	for (const lead of some)
		expect((await sandbox.api.patch(`/v1/leads/${lead.id}`, { notes: 'moved' })).status).toBe(200);
});

test.each(SORTS.flatMap((sort) => [[sort, 'asc'] as const, [sort, 'desc'] as const]))(
	'sort=%s order=%s pages equal the whole list sorted by the field, then id',
	async (sort, order) => {
		const all = await sandbox.allLeads();
		const direction = order === 'asc' ? 1 : -1;
		const expected = [...all]
			.sort((a, b) => direction * (compare(a[sort], b[sort]) || compare(a.id, b.id)))
			.map((lead) => lead.id);
		expect(await pageAll(`sort=${sort}&order=${order}`)).toEqual(expected);
	},
);
