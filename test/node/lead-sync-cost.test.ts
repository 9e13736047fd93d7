// What a lead sync costs: Create or Update and the By Email locator look e-mails up one by one or by one
// pass over the account's leads, whichever is cheaper, and a row that changes nothing writes nothing.
// Calls are counted from the sandbox's request log.
import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { NODE_UNDER_TEST } from '../harness';
import type { Lead, SandboxRequest } from '../support/sandbox-client';
import { ApiProxy } from './api-proxy';
import { CREDENTIAL, items, jsonOf, NodeTestBed, upsert } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
virtualSleepEachTest();

/** The calls of the last run, by kind: pass pages (GET without q), look-ups (GET with q), writes. */
function countCalls(requests: SandboxRequest[]) {
	const list = requests.filter(
		(request) => request.method === 'GET' && request.path === '/v1/leads',
	);
	const lookups = list.filter((request) => /(^|&)q=/.test(request.query ?? '')).length;
	return {
		pages: list.length - lookups,
		lookups,
		writes: requests.filter((request) => request.method !== 'GET').length,
		total: requests.length,
	};
}

/** Seeds `count` leads and answers them (the listing's requests are cleared). */
async function seeded(count: number): Promise<Lead[]> {
	await bed.seed({ seed: 7, leads: count });
	const leads = await bed.allLeads();
	await bed.clearRequests();
	return leads;
}

describe('Lead: Create or Update, what a sync costs', () => {
	test('a re-import of every lead reads the account in pages and writes nothing when nothing changed', async () => {
		const leads = await seeded(1000);
		const rows = leads.map((lead) => ({ email: lead.email, status: lead.status }));
		const result = await bed.run(upsert({ status: '={{ $json.status }}' }), {
			input: items(...rows),
		});
		expect(result.error).toBeUndefined();
		const calls = countCalls(await bed.requests());
		// 1,000 leads are 10 pages of 100: cheaper than 1,000 look-ups.
		expect(calls).toEqual({ pages: 10, lookups: 0, writes: 0, total: 10 });
		const output = jsonOf(result);
		expect(output.every((lead) => lead.outcome === 'unchanged' && lead.created === false)).toBe(
			true,
		);
		expect(output.map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id));
		const after = new Map((await bed.allLeads()).map((lead) => [lead.id, lead]));
		for (const lead of leads) expect(after.get(lead.id)?.updated_at).toBe(lead.updated_at);
	});

	test('a pass whose pages keep finding e-mails reads on to the end', async () => {
		const leads = await seeded(1000);
		// Every 10th lead: each page of 100 finds 10. After 9 pages the 10 e-mails left equal the pages read,
		// but a page that finds e-mails costs no more than the look-ups it saves: the 10th page is read.
		const rows = leads
			.filter((_lead, index) => index % 10 === 0)
			.map((lead) => ({ email: lead.email }));
		const result = await bed.run(upsert(), { input: items(...rows) });
		expect(result.error).toBeUndefined();
		expect(countCalls(await bed.requests())).toEqual({
			pages: 10,
			lookups: 0,
			writes: 0,
			total: 10,
		});
		expect(jsonOf(result).every((lead) => lead.outcome === 'unchanged')).toBe(true);
	});

	test('a few rows in a larger account are looked up one by one after a short pass', async () => {
		const leads = await seeded(1000);
		// The oldest leads: the newest-first pass does not reach them in its first pages.
		const rows = leads.slice(-3).map((lead) => ({ email: lead.email.toUpperCase() }));
		const result = await bed.run(upsert({ notes: 'checked' }), { input: items(...rows) });
		expect(result.error).toBeUndefined();
		const calls = countCalls(await bed.requests());
		// Pages stop once one more would reach the 3 look-ups left: 2 pages, then 3 look-ups, then 3 PATCHes.
		expect(calls).toEqual({ pages: 2, lookups: 3, writes: 3, total: 8 });
		expect(jsonOf(result).map((lead) => [lead.id, lead.outcome])).toEqual(
			leads.slice(-3).map((lead) => [lead.id, 'updated']),
		);
	});

	test('one row: one look-up, no pass', async () => {
		const leads = await seeded(300);
		const result = await bed.run(upsert(), { input: items({ email: leads[150].email }) });
		expect(jsonOf(result)[0]).toMatchObject({ id: leads[150].id, outcome: 'unchanged' });
		expect(countCalls(await bed.requests())).toEqual({
			pages: 0,
			lookups: 1,
			writes: 0,
			total: 1,
		});
	});

	test('created, updated and unchanged are told apart, also for one e-mail given twice', async () => {
		const same = await bed.createLead({ email: 'same@example.com' });
		const changed = await bed.createLead({ email: 'changed@example.com' });
		await bed.clearRequests();
		const result = await bed.run(upsert({ status: '={{ $json.status }}' }), {
			input: items(
				{ email: 'same@example.com', status: 'new' },
				{ email: 'changed@example.com', status: 'qualified' },
				{ email: 'new@example.com', status: 'new' },
				{ email: 'Changed@example.com', status: 'qualified' },
				{ email: 'changed@example.com', status: 'lost' },
			),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => [lead.email, lead.outcome, lead.created])).toEqual([
			['same@example.com', 'unchanged', false],
			['changed@example.com', 'updated', false],
			['new@example.com', 'created', true],
			['changed@example.com', 'unchanged', false],
			['changed@example.com', 'updated', false],
		]);
		const calls = countCalls(await bed.requests());
		// One page finds both (the account holds 2 leads); before the POST, one read of the newest leads
		// makes sure new@ still has none; then two PATCHes in item order.
		expect(calls).toEqual({ pages: 2, lookups: 0, writes: 3, total: 5 });
		const stored = (await bed.api.get(`/v1/leads/${changed.id}`)).body;
		expect(stored.status).toBe('lost');
		expect((await bed.api.get(`/v1/leads/${same.id}`)).body.updated_at).toBe(same.updated_at);
		// The status events: qualified and lost, none for the unchanged rows.
		const events = (
			await bed.api.get<{ data: IDataObject[] }>('/v1/events?type=lead.status_updated&limit=100')
		).body.data;
		expect(events.map((event) => (event.data as { lead: Lead }).lead.status)).toEqual(
			expect.arrayContaining(['qualified', 'lost']),
		);
		expect(events).toHaveLength(2);
	});

	test('custom fields and notes already held write nothing; a changed key alone is sent', async () => {
		const lead = await bed.createLead({
			email: 'cf@example.com',
			custom_fields: { plan: 'pro', seats: 3 },
		});
		const first = await bed.run(upsert({ notes: 'vip', customFieldsJson: '{"plan": "pro"}' }), {
			input: items({ email: 'cf@example.com' }),
		});
		expect(jsonOf(first)[0].outcome).toBe('updated');
		await bed.clearRequests();
		const again = await bed.run(
			upsert({ notes: 'vip', customFieldsJson: '{"plan": "pro", "seats": 3, "gone": null}' }),
			{ input: items({ email: 'cf@example.com' }) },
		);
		expect(jsonOf(again)[0]).toMatchObject({ id: lead.id, outcome: 'unchanged' });
		expect(countCalls(await bed.requests()).writes).toBe(0);
		const third = await bed.run(upsert({ customFieldsJson: '{"plan": "pro", "seats": 4}' }), {
			input: items({ email: 'cf@example.com' }),
		});
		expect(jsonOf(third)[0]).toMatchObject({
			outcome: 'updated',
			custom_fields: { plan: 'pro', seats: 4 },
		});
	});

	test('the pass finds the most recently created of several leads with the e-mail', async () => {
		await bed.createLead({ email: 'twice@example.com' });
		const newest = await bed.createLead({ email: 'TWICE@example.com' });
		await bed.createLead({ email: 'other@example.com' });
		await bed.clearRequests();
		const result = await bed.run(upsert({ status: 'lost' }), {
			input: items({ email: 'twice@example.com' }, { email: 'other@example.com' }),
		});
		expect(countCalls(await bed.requests())).toMatchObject({ pages: 1, lookups: 0 });
		expect(jsonOf(result)[0]).toMatchObject({ id: newest.id, outcome: 'updated', status: 'lost' });
	});

	test('under 429s, 500s and dropped connections: no lead twice, none lost, changes applied', async () => {
		const leads = await seeded(300);
		const changed = new Set(
			leads
				.slice(0, 300)
				.filter((_lead, index) => index % 10 === 0)
				.map((lead) => lead.id),
		);
		const rows = [
			...leads.map((lead) => ({
				email: lead.email,
				status: changed.has(lead.id) ? (lead.status === 'lost' ? 'new' : 'lost') : lead.status,
			})),
			...Array.from({ length: 40 }, (_, index) => ({
				email: `fresh${index}@example.com`,
				status: 'new',
			})),
		];
		await bed.setFaults({
			rate_429: 0.15,
			rate_500: 0.1,
			drop_rate: 0.1,
			seed: 5,
			methods: ['GET', 'POST', 'PATCH'],
		});
		const result = await bed.run(
			upsert({ status: '={{ $json.status }}' }, { maxParallelRequests: 8 }),
			{
				input: items(...rows),
			},
		);
		expect(result.error).toBeUndefined();
		const statuses = (await bed.requests()).map((request) => request.status);
		await bed.clearFaults();
		expect(statuses).toEqual(expect.arrayContaining([429, 500, null]));
		const all = await bed.allLeads();
		expect(all).toHaveLength(340);
		expect(new Set(all.map((lead) => lead.email.toLowerCase())).size).toBe(340);
		const byEmail = new Map(all.map((lead) => [lead.email, lead]));
		for (const row of rows) expect(byEmail.get(row.email)?.status).toBe(row.status);
		const outcomes = jsonOf(result).map((lead) => lead.outcome);
		expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(40);
		expect(outcomes.filter((outcome) => outcome === 'updated')).toHaveLength(changed.size);
	});

	test('an item whose status failed after its create: the next item with the e-mail finds that lead', async () => {
		await bed.createLead({ email: 'other@example.com' });
		const proxy = await ApiProxy.start(bed.url);
		try {
			bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: proxy.url });
			proxy.rules = {
				decide: (request) =>
					request.method === 'PATCH' &&
					proxy.requests.filter((seen) => seen.method === 'PATCH').length === 1
						? { status: 400, body: { error: { code: 'invalid_params', message: 'refused' } } }
						: 'forward',
			};
			// One item at a time: the first PATCH is the first item's.
			const result = await bed.run(upsert({ status: 'qualified' }, { maxParallelRequests: 1 }), {
				input: items(
					{ email: 'half@example.com' },
					{ email: 'other@example.com' },
					{ email: 'half@example.com' },
				),
				continueOnFail: true,
			});
			const output = jsonOf(result);
			expect(output[0].error).toBeDefined();
			const stored = (await bed.allLeads()).filter((lead) => lead.email === 'half@example.com');
			expect(stored).toHaveLength(1);
			expect(output[2]).toMatchObject({
				id: stored[0].id,
				outcome: 'updated',
				status: 'qualified',
			});
		} finally {
			bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
			await proxy.close();
		}
	});

	test('10 rows into an account of 100,000 leads: at most 30 calls', async () => {
		await bed.seed({ seed: 3, leads: 100_000 });
		// Five leads of the account and five new e-mails, each with a custom field (POST takes it: one write a row).
		const found = (await bed.api.get<{ data: Lead[] }>('/v1/leads?sort=email&order=asc&limit=5'))
			.body.data;
		await bed.clearRequests();
		const rows = [
			...found.map((lead) => ({ email: lead.email })),
			...Array.from({ length: 5 }, (_, index) => ({ email: `brand.new${index}@example.com` })),
		];
		const result = await bed.run(upsert({ customFieldsJson: '{"nightly": true}' }), {
			input: items(...rows),
		});
		expect(result.error).toBeUndefined();
		const sent = await bed.requests();
		const calls = countCalls(sent);
		expect(calls.total).toBeLessThanOrEqual(30);
		expect(calls.writes).toBe(10);
		expect(jsonOf(result).map((lead) => lead.outcome)).toEqual([
			...found.map(() => 'updated'),
			...rows.slice(5).map(() => 'created'),
		]);
	}, 120_000);
});

describe('Lead locator: By Email shares the look-ups of many items', () => {
	test('30 Get items by e-mail read the account in pages, not 30 searches', async () => {
		const leads = await seeded(250);
		const byEmail = (value: string) => ({ __rl: true, mode: 'email', value });
		const picked = leads.filter((_lead, index) => index % 8 === 0).slice(0, 30);
		const result = await bed.run(
			{ resource: 'lead', operation: 'get', leadId: byEmail('={{ $json.email }}') },
			{ input: items(...picked.map((lead) => ({ email: lead.email }))) },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.id)).toEqual(picked.map((lead) => lead.id));
		const calls = countCalls(await bed.requests());
		// 250 leads are 3 pages; each lead is then read by its ID.
		expect(calls).toEqual({ pages: 3, lookups: 0, writes: 0, total: 33 });
	});
});

describe('Lead: Create or Update, fields an existing lead keeps', () => {
	const hintsOf = (result: Awaited<ReturnType<typeof bed.run>>) =>
		(result.result.runData[NODE_UNDER_TEST]?.[0]?.hints ?? []).map((hint) => hint.message);

	test('the run says in plain words when existing leads kept their Name, Company, Job Title or Source Channel', async () => {
		await bed.createLead({ email: 'kept@example.com', company: 'Old' });
		const result = await bed.run(upsert({ company: '={{ $json.company }}' }), {
			input: items(
				{ email: 'kept@example.com', company: 'New' },
				{ email: 'fresh@example.com', company: 'New' },
			),
		});
		expect(hintsOf(result)).toEqual([
			'1 existing lead kept its own Name, Company, Job Title or Source Channel: these are only set when a lead is created. See not_updated in the output.',
		]);
	});

	test('no hint when every lead took the fields', async () => {
		const result = await bed.run(upsert({ company: 'Same' }), {
			input: items({ email: 'a@example.com' }, { email: 'b@example.com' }),
		});
		expect(hintsOf(result)).toEqual([]);
	});
});

describe('Lead: Create or Update, what the editor says about fields an existing lead keeps', () => {
	/** The Create or Update parameters as the editor shows them. */
	function upsertProperties(): INodeProperties[] {
		const description = bed.harness.nodeTypes.getByNameAndVersion(bed.nodeType)
			.description as INodeTypeDescription;
		return description.properties.filter((property) =>
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes(
				'createOrUpdate',
			),
		);
	}

	test('a short notice in plain words names the four fields', () => {
		const notices = upsertProperties()
			.filter((property) => property.type === 'notice')
			.map((property) => property.displayName);
		expect(notices).toEqual([
			"Updates the lead with this e-mail, or creates one when there is none. Capital letters and spaces around the e-mail don't matter.",
			'Name, Company, Job Title and Source Channel are only set on new leads: an existing lead keeps its own.',
		]);
	});

	test('each of the four fields says so where it is set', () => {
		const fields = upsertProperties().find((property) => property.name === 'additionalFields');
		const descriptions = Object.fromEntries(
			((fields?.options ?? []) as INodeProperties[]).map((option) => [
				option.name,
				option.description,
			]),
		);
		for (const name of ['name', 'company', 'job_title'])
			expect(descriptions[name]).toBe('Only set on a new lead: an existing lead keeps its own');
		expect(descriptions.source_channel).toBe(
			'Where the lead came from. Only set on a new lead: an existing lead keeps its own.',
		);
	});
});
