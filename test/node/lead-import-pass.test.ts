// Lead › Create or Update while the account lives: a lead made while the pass reads is found, not
// created twice; a list the service cuts short is never taken for the whole account; Preview Only
// writes nothing; `changes` says what a row changed. The node runs in n8n's engine against the
// sandbox; the sandbox's faults (latency, page_fault) shape the list it answers.
import type { IDataObject } from 'n8n-workflow';

import type { Lead, SandboxRequest } from '../support/sandbox-client';
import { waitFor } from '../support/sandbox-client';
import { items, jsonOf, NodeTestBed, upsert } from './node-test-bed';
import { virtualSleep } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });

const isList = (request: SandboxRequest) =>
	request.method === 'GET' && request.path === '/v1/leads';
const isLookup = (request: SandboxRequest) =>
	isList(request) && /(^|&)q=/.test(request.query ?? '');
const writes = (requests: SandboxRequest[]) =>
	requests.filter((request) => request.method !== 'GET');

/** Seeds `count` leads and answers them, newest first (the listing's requests are cleared). */
async function seeded(count: number): Promise<Lead[]> {
	await bed.seed({ seed: 11, leads: count });
	const leads = await bed.allLeads();
	await bed.clearRequests();
	return leads;
}

/**
 * Imports 300 seeded leads' e-mails while the listing's pages answer `fault` `times` times in a row (the
 * sandbox's page_fault), with the transport's waits virtual; the pages are the listing's, not look-ups.
 */
async function importWithPageFault(fault: 'server_error' | 'rate_limited', times: number) {
	const sleeps = virtualSleep();
	try {
		const leads = await seeded(300);
		await bed.setFaults({
			page_fault: fault,
			page_fault_times: times,
			methods: ['GET'],
			path_prefix: '/v1/leads',
		});
		const result = await bed.run(upsert(), {
			input: items(...leads.map((lead) => ({ email: lead.email }))),
		});
		const requests = await bed.requests();
		const pages = requests.filter((request) => isList(request) && !isLookup(request));
		return { result, requests, pages };
	} finally {
		sleeps.restore();
	}
}

/** How many leads each e-mail (lower case) has. */
async function leadsPerEmail(): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	for (const lead of await bed.allLeads()) {
		const key = lead.email.toLowerCase();
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

describe('Lead: Create or Update, a lead made while the pass reads', () => {
	test('is found after the pass and updated, not created a second time', async () => {
		const leads = await seeded(300);
		// Each page of the pass takes 300 ms: the test makes the lead once the second page is asked for,
		// i.e. after the pass read the newest leads: the new lead sorts ahead of its cursor.
		await bed.setFaults({ latency_ms: 300, methods: ['GET'], path_prefix: '/v1/leads' });
		const rows = [
			...leads.map((lead) => ({ email: lead.email, status: lead.status })),
			{ email: 'late@example.com', status: 'qualified' },
		];
		const running = bed.run(upsert({ status: '={{ $json.status }}' }), { input: items(...rows) });
		await waitFor(
			async () => await bed.requests(),
			(requests) => requests.filter((request) => isList(request) && !isLookup(request)).length >= 2,
		);
		const late = await bed.createLead({ email: 'late@example.com' });
		const result = await running;
		expect(result.error).toBeUndefined();
		const requests = await bed.requests();
		expect((await leadsPerEmail()).get('late@example.com')).toBe(1);
		const output = jsonOf(result);
		expect(output[300]).toMatchObject({ id: late.id, outcome: 'updated', status: 'qualified' });
		expect(output.filter((lead) => lead.outcome === 'created')).toHaveLength(0);
		// 3 pages, then one read of the newest leads for the e-mail the pass met no lead for.
		expect(requests.filter((request) => isList(request) && !isLookup(request))).toHaveLength(4);
		expect(requests.filter(isLookup)).toHaveLength(0);
	});

	test('new e-mails are still created, after one read of the newest leads for all of them', async () => {
		await seeded(150);
		const rows = Array.from({ length: 40 }, (_, index) => ({ email: `new${index}@example.com` }));
		const result = await bed.run(upsert(), { input: items(...rows) });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).every((lead) => lead.outcome === 'created')).toBe(true);
		const requests = await bed.requests();
		expect(writes(requests)).toHaveLength(40);
		expect(requests.filter(isLookup)).toHaveLength(0);
		// 2 pages, then reads of the newest leads, shared by the items that ask together.
		const reads = requests.filter((request) => isList(request) && !isLookup(request)).length;
		expect(reads).toBeGreaterThanOrEqual(3);
		expect(reads).toBeLessThanOrEqual(2 + 40 / 2);
	});
});

describe('Lead: Create or Update, a list cut short is never the whole account', () => {
	test.each([
		['a page that repeats the cursor it was given', 'repeat_cursor'],
		['an empty page that still has a cursor', 'empty_page'],
		['a page that is not a list', 'not_a_list'],
	])(
		'%s: the e-mails the pass did not settle are looked up, none created blind',
		async (_name, fault) => {
			const leads = await seeded(300);
			// From the second page on (a request with a cursor); look-ups are single pages and unaffected.
			await bed.setFaults({ page_fault: fault, methods: ['GET'], path_prefix: '/v1/leads' });
			const rows = [
				...leads.map((lead) => ({ email: lead.email })),
				{ email: 'fresh@example.com' },
			];
			const result = await bed.run(upsert(), { input: items(...rows) });
			expect(result.error).toBeUndefined();
			const requests = await bed.requests();
			await bed.clearFaults();
			const counts = await leadsPerEmail();
			expect(counts.size).toBe(301);
			expect([...counts.values()].every((count) => count === 1)).toBe(true);
			const outcomes = jsonOf(result).map((lead) => lead.outcome);
			expect(outcomes.slice(0, 300).every((outcome) => outcome === 'unchanged')).toBe(true);
			expect(outcomes[300]).toBe('created');
			expect(writes(requests)).toHaveLength(1);
			// The first page settled 100 e-mails (and the second, for repeat_cursor, 100 more); the rest were looked up.
			expect(requests.filter(isLookup).length).toBeGreaterThanOrEqual(101);
		},
	);

	test('a page that fails after the retries is asked again at the cursor, not replaced by look-ups', async () => {
		// The second page answers 500 ten times in a row (more than the transport retries), then as usual.
		const { result, requests, pages } = await importWithPageFault('server_error', 10);
		expect(result.error).toBeUndefined();
		expect(requests.filter(isLookup)).toHaveLength(0);
		expect(pages.filter((page) => page.status === 500)).toHaveLength(10);
		// Every page after the first asks for the same cursor until it is answered: the pass resumed there.
		const cursors = new Set(pages.slice(1, 12).map((page) => page.query));
		expect(cursors.size).toBe(1);
		expect(pages.filter((page) => page.status === 200)).toHaveLength(3);
		expect(jsonOf(result).every((lead) => lead.outcome === 'unchanged')).toBe(true);
	});

	test('a busy key slows the pass: 20 429s in a row on a page are waited out at its cursor, no look-ups', async () => {
		const { result, requests, pages } = await importWithPageFault('rate_limited', 20);
		expect(result.error).toBeUndefined();
		expect(requests.filter(isLookup)).toHaveLength(0);
		expect(writes(requests)).toEqual([]);
		expect(pages.filter((page) => page.status === 429)).toHaveLength(20);
		expect(new Set(pages.slice(1, 22).map((page) => page.query)).size).toBe(1);
		expect(pages.filter((page) => page.status === 200)).toHaveLength(3);
		expect(jsonOf(result).every((lead) => lead.outcome === 'unchanged')).toBe(true);
	});

	test('a look-up cut short fails its item instead of creating', async () => {
		// 120 leads' e-mails contain dup@example.com: its look-up needs a second page.
		for (let index = 0; index < 120; index++)
			await bed.api.post('/v1/leads', { email: `a${index}.dup@example.com` });
		await bed.setFaults({ page_fault: 'empty_page', methods: ['GET'], path_prefix: '/v1/leads' });
		const result = await bed.run(upsert(), {
			input: items({ email: 'dup@example.com' }),
			continueOnFail: true,
		});
		await bed.clearFaults();
		const [output] = jsonOf(result);
		expect(String(output.error)).toContain('ended the list /v1/leads early');
		expect((await leadsPerEmail()).get('dup@example.com')).toBeUndefined();
	});
});

describe('Lead: Create or Update, Preview Only and changes', () => {
	const parameters = (previewOnly: boolean) =>
		upsert(
			{ status: '={{ $json.status }}', customFieldsJson: '={{ JSON.stringify($json.custom) }}' },
			{ previewOnly },
		);
	const rows = () =>
		items(
			{ email: 'known@example.com', status: 'qualified', custom: { plan: 'pro' } },
			{ email: 'same@example.com', status: 'new', custom: {} },
			{ email: 'fresh@example.com', status: 'contacted', custom: { plan: 'free' } },
		);

	test('a preview reads, writes nothing, and shows each row’s outcome and changes', async () => {
		const known = await bed.createLead({
			email: 'known@example.com',
			custom_fields: { plan: 'trial' },
		});
		await bed.createLead({ email: 'same@example.com' });
		await bed.clearRequests();
		const result = await bed.run(parameters(true), { input: rows() });
		expect(result.error).toBeUndefined();
		expect(writes(await bed.requests())).toEqual([]);
		const [updated, unchanged, created] = jsonOf(result);
		expect(updated).toMatchObject({
			id: known.id,
			outcome: 'updated',
			status: 'qualified',
			changes: {
				status: { old: 'new', new: 'qualified' },
				custom_fields: { plan: { old: 'trial', new: 'pro' } },
			},
		});
		expect(unchanged).toMatchObject({ outcome: 'unchanged', changes: {} });
		expect(created).toMatchObject({
			id: null,
			email: 'fresh@example.com',
			outcome: 'created',
			created: true,
			changes: {
				email: { old: null, new: 'fresh@example.com' },
				status: { old: null, new: 'contacted' },
				custom_fields: { plan: { old: null, new: 'free' } },
			},
		});
		const stored = (await bed.api.get<IDataObject>(`/v1/leads/${known.id}`)).body;
		expect(stored).toMatchObject({ status: 'new', custom_fields: { plan: 'trial' } });
		expect((await leadsPerEmail()).has('fresh@example.com')).toBe(false);
	});

	test('a real run writes and outputs the same changes', async () => {
		const known = await bed.createLead({
			email: 'known@example.com',
			custom_fields: { plan: 'trial' },
		});
		await bed.createLead({ email: 'same@example.com' });
		const preview = jsonOf(await bed.run(parameters(true), { input: rows() }));
		const result = await bed.run(parameters(false), { input: rows() });
		expect(result.error).toBeUndefined();
		const output = jsonOf(result);
		expect(output.map((lead) => [lead.outcome, lead.changes])).toEqual(
			preview.map((lead) => [lead.outcome, lead.changes]),
		);
		expect(output[0]).toMatchObject({ id: known.id, status: 'qualified' });
		expect((await bed.api.get<IDataObject>(`/v1/leads/${known.id}`)).body.status).toBe('qualified');
		expect(output[2]).toMatchObject({ email: 'fresh@example.com', created: true });
		expect(typeof output[2].id).toBe('string');
	});

	test('a real row after a previewed row with the same e-mail compares with the lead as read', async () => {
		const known = await bed.createLead({ email: 'mixed@example.com' });
		await bed.clearRequests();
		const result = await bed.run(
			upsert({ status: '={{ $json.status }}' }, { previewOnly: '={{ $json.preview === true }}' }),
			{
				input: items(
					{ email: 'mixed@example.com', status: 'qualified', preview: true },
					{ email: 'mixed@example.com', status: 'qualified' },
					{ email: 'new.mixed@example.com', status: 'contacted', preview: true },
					{ email: 'new.mixed@example.com', status: 'contacted' },
				),
			},
		);
		expect(result.error).toBeUndefined();
		const [previewed, written, previewedNew, created] = jsonOf(result);
		const change = { status: { old: 'new', new: 'qualified' } };
		expect(previewed).toMatchObject({ id: known.id, outcome: 'updated', changes: change });
		expect(written).toMatchObject({ id: known.id, outcome: 'updated', changes: change });
		expect(previewedNew).toMatchObject({ id: null, outcome: 'created' });
		expect(created).toMatchObject({ outcome: 'created', status: 'contacted' });
		expect((await bed.api.get<IDataObject>(`/v1/leads/${known.id}`)).body.status).toBe('qualified');
		expect(
			writes(await bed.requests())
				.map((request) => request.method)
				.sort(),
		).toEqual(['PATCH', 'PATCH', 'POST']);
	});
});

describe('Lead locator: By Email, an e-mail given by several items', () => {
	test('is answered from the pass for each of them, not looked up again', async () => {
		const leads = await seeded(150);
		const byEmail = (value: string) => ({ __rl: true, mode: 'email', value });
		const picked = [leads[3], leads[120], leads[3], leads[120], leads[7]];
		const result = await bed.run(
			{
				resource: 'lead',
				operation: 'get',
				leadId: byEmail('={{ $json.email }}'),
				// One item at a time: the repeats ask after the first item with the e-mail has its answer.
				options: { maxParallelRequests: 1 },
			},
			{ input: items(...picked.map((lead) => ({ email: lead.email }))) },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.id)).toEqual(picked.map((lead) => lead.id));
		const requests = await bed.requests();
		expect(requests.filter(isLookup)).toHaveLength(0);
		expect(requests.filter((request) => isList(request) && !isLookup(request))).toHaveLength(2);
	});
});

describe('Lead: Create or Update, custom fields named like built-ins', () => {
	test('removing a custom field named toString that the lead lacks writes nothing', async () => {
		await bed.createLead({ email: 'proto@example.com', custom_fields: { plan: 'pro' } });
		await bed.clearRequests();
		const result = await bed.run(
			upsert({ customFieldsJson: '{"toString": null, "constructor": null, "plan": "pro"}' }),
			{ input: items({ email: 'proto@example.com' }) },
		);
		expect(jsonOf(result)[0]).toMatchObject({ outcome: 'unchanged', changes: {} });
		expect(writes(await bed.requests())).toEqual([]);
	});
});
