// Lead › Get Many's filters the service lacks (Email, Created Since, Updated Since): applied by the node while
// it pages, stopping at the first older lead where the sort allows, in any time zone.
import type { INodeParameters } from 'n8n-workflow';

import { errorText, jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const HOUR = 3_600_000;

const getMany = (filters: INodeParameters, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'lead',
	operation: 'getAll',
	returnAll: true,
	simplify: false,
	filters,
	...extra,
});

/** Creates the leads one after the other (ids and times in creation order). */
async function createLeads(prefix: string, count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let index = 0; index < count; index++)
		ids.push(String((await bed.createLead({ email: `${prefix}${index}@example.com` })).id));
	return ids;
}

async function listRequests(): Promise<number> {
	return (await bed.requests()).filter((request) => request.path === '/v1/leads').length;
}

/** Wall time of `ms` in a zone `offsetHours` ahead of UTC, without an offset (what the date picker gives). */
const wallTime = (ms: number, offsetHours: number) =>
	new Date(ms + offsetHours * HOUR).toISOString().slice(0, 19);

describe('Lead: Get Many, Created Since and Updated Since', () => {
	let older: string[];
	let newer: string[];
	let between: number;
	let changedAt: number;

	beforeEach(async () => {
		older = await createLeads('old', 120);
		const start = await bed.now();
		await bed.advanceTo(start + 2 * HOUR);
		between = start + HOUR;
		newer = await createLeads('new', 130);
		await bed.advanceTo((await bed.now()) + 2 * HOUR);
		changedAt = (await bed.now()) - 1000;
		for (const id of [older[5], older[50], newer[7]]) await bed.setLeadStatus(id, 'contacted');
		await bed.clearRequests();
	});

	test('created since: every lead of the later pages, reading stops at the first older lead', async () => {
		const result = await bed.run(getMany({ createdSince: new Date(between).toISOString() }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.id)).toEqual([...newer].reverse());
		// 250 leads are 3 pages; the second page already reaches the older ones.
		expect(await listRequests()).toBe(2);
	});

	test('the same instant as wall time in the workflow time zone, or with an offset', async () => {
		const runs = [
			[wallTime(between, 8), { timezone: 'Asia/Shanghai' }],
			[`${wallTime(between, 8)}+08:00`, { timezone: 'America/New_York' }],
			[`${wallTime(between, -5)}-05:00`, { timezone: 'Asia/Shanghai' }],
			[`${wallTime(between, 5.5)}`, { timezone: 'Asia/Kolkata' }],
			// An expression's Luxon DateTime is an instant whatever the zone.
			[`={{ DateTime.fromMillis(${between}).setZone('Asia/Tokyo') }}`, { timezone: 'UTC' }],
		] as const;
		for (const [createdSince, settings] of runs) {
			const result = await bed.run(getMany({ createdSince }), { settings: { ...settings } });
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toHaveLength(130);
		}
		// The Shanghai wall time read in New York is 13 hours later: no lead yet.
		const later = await bed.run(getMany({ createdSince: wallTime(between, 8) }), {
			settings: { timezone: 'America/New_York' },
		});
		expect(jsonOf(later)).toEqual([]);
	});

	test('oldest first with a limit: the first leads at or after the time', async () => {
		const result = await bed.run(
			getMany(
				{ createdSince: new Date(between).toISOString() },
				{ returnAll: false, limit: 5, options: { sort: 'created_at', order: 'asc' } },
			),
		);
		expect(jsonOf(result).map((lead) => lead.id)).toEqual(newer.slice(0, 5));
	});

	test('updated since, sorted by Updated At: the changed leads, one page read', async () => {
		const result = await bed.run(
			getMany(
				{ updatedSince: new Date(changedAt).toISOString() },
				{ options: { sort: 'updated_at' } },
			),
		);
		expect(jsonOf(result).map((lead) => lead.id)).toEqual([newer[7], older[50], older[5]]);
		expect(await listRequests()).toBe(1);
	});

	test('updated since with another sort reads every page and keeps the same leads', async () => {
		const result = await bed.run(getMany({ updatedSince: new Date(changedAt).toISOString() }));
		expect(jsonOf(result).map((lead) => lead.id)).toEqual([newer[7], older[50], older[5]]);
		expect(await listRequests()).toBe(3);
	});

	test('both, with a status filter the service applies', async () => {
		const result = await bed.run(
			getMany({
				createdSince: new Date(between).toISOString(),
				updatedSince: new Date(changedAt).toISOString(),
				status: 'contacted',
			}),
		);
		expect(jsonOf(result).map((lead) => lead.id)).toEqual([newer[7]]);
	});
});

describe('Lead: Get Many, Email', () => {
	test('exactly the leads with the e-mail, case and spaces aside, not the ones containing it', async () => {
		const first = await bed.createLead({ email: 'Ann@X.com' });
		await bed.createLead({ email: 'joann@x.com.au' });
		await bed.createLead({ email: 'ann@x.com.au' });
		await bed.createLead({ email: 'other@example.com', company: 'ann@x.com' });
		const second = await bed.createLead({ email: 'ann@x.com' });
		const result = await bed.run(getMany({ email: '  ANN@x.com ' }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.id)).toEqual([second.id, first.id]);
	});

	test('an e-mail longer than the search accepts, and together with Search', async () => {
		const long = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(40)}.example.com`;
		expect(long.length).toBeGreaterThan(200);
		await bed.createLead({ email: `${long.slice(0, 210)}.org` });
		const withCompany = await bed.createLead({ email: long, company: 'Acme' });
		const plain = await bed.createLead({ email: long });
		const all = await bed.run(getMany({ email: long }));
		expect(jsonOf(all).map((lead) => lead.id)).toEqual([plain.id, withCompany.id]);
		const searched = await bed.run(getMany({ email: long, q: 'acme' }));
		expect(jsonOf(searched).map((lead) => lead.id)).toEqual([withCompany.id]);
	});

	test('bad values are refused before any request, naming the filter', async () => {
		await bed.clearRequests();
		const email = await bed.run(getMany({ email: 'ann at x' }));
		expect(errorText(email)).toMatch(
			/^Email: expected an e-mail address like name@example.com, got "ann at x" \[item 0\]/,
		);
		const since = await bed.run(getMany({ createdSince: 'yesterday' }));
		expect(errorText(since)).toMatch(
			/^Created Since: expected a date and time like .*, got "yesterday" \[item 0\]/,
		);
		const day = await bed.run(getMany({ updatedSince: '2026-02-30' }));
		expect(errorText(day)).toMatch(/^Updated Since: expected a date and time/);
		expect(await bed.requests()).toEqual([]);
	});
});
