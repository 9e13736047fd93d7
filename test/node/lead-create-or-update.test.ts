// Lead › Create or Update and the By Email lead locator: the lead found by its exact e-mail, one lead per
// e-mail in a run, retries under injected faults and lost answers creating nothing twice.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ACCOUNT_A, CONTROL, type Lead } from '../support/sandbox-client';
import { ApiProxy } from './api-proxy';
import { CREDENTIAL, errorText, items, jsonOf, NodeTestBed, upsert } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
virtualSleepEachTest();

async function leadsWith(email: string): Promise<Lead[]> {
	return (await bed.allLeads()).filter((lead) => lead.email.toLowerCase() === email.toLowerCase());
}

/** A syntactically valid e-mail of `length` characters (the service takes up to 254). */
function longEmail(length: number, prefix = 'a'): string {
	const domain = '@example.com';
	const local = `${prefix}.${'x'.repeat(60)}`;
	const labels = 'l'.repeat(length - local.length - domain.length);
	// Domain labels of at most 63 characters.
	const host = (labels.match(/.{1,60}/g) ?? []).join('.');
	const email = `${local}@${host}.example.com`.slice(0, length);
	return email.endsWith('.') ? `${email.slice(0, -1)}m` : email;
}

describe('Lead: Create or Update', () => {
	test('creates a lead for a new e-mail, with its status; updates it on the next run', async () => {
		const first = await bed.run(
			upsert({ name: 'Ada', company: 'AE', source_channel: 'import', status: 'qualified' }),
			{ input: items({ email: 'ada@example.com' }) },
		);
		expect(first.error).toBeUndefined();
		const [created] = jsonOf(first);
		expect(created).toMatchObject({
			email: 'ada@example.com',
			name: 'Ada',
			company: 'AE',
			source_channel: 'import',
			status: 'qualified',
			created: true,
			not_updated: [],
		});
		expect((await bed.api.get(`/v1/leads/${String(created.id)}`)).body.status).toBe('qualified');

		const second = await bed.run(
			upsert({ status: 'converted', notes: 'Signed', customFieldsJson: '{"plan": "pro"}' }),
			{ input: items({ email: 'ada@example.com' }) },
		);
		expect(second.error).toBeUndefined();
		expect(jsonOf(second)[0]).toMatchObject({
			id: created.id,
			status: 'converted',
			notes: 'Signed',
			custom_fields: { plan: 'pro' },
			created: false,
			not_updated: [],
		});
		expect(await leadsWith('ada@example.com')).toHaveLength(1);
	});

	test('matches the e-mail exactly, whatever its case and surrounding spaces', async () => {
		const existing = await bed.createLead({ email: 'Ada.Lovelace@Example.com' });
		const result = await bed.run(upsert({ status: 'contacted' }), {
			input: items({ email: '  ada.lovelace@EXAMPLE.COM ' }),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			id: existing.id,
			created: false,
			status: 'contacted',
		});
		expect(await leadsWith('ada.lovelace@example.com')).toHaveLength(1);
	});

	test('a lead whose e-mail merely contains the given one is not a match', async () => {
		const other = await bed.createLead({ email: 'joann@x.com.au', company: 'ann@x.com' });
		const result = await bed.run(upsert(), { input: items({ email: 'ann@x.com' }) });
		expect(result.error).toBeUndefined();
		const [lead] = jsonOf(result);
		expect(lead).toMatchObject({ email: 'ann@x.com', created: true });
		expect(lead.id).not.toBe(other.id);
	});

	test('updates the most recently created of several leads with the e-mail', async () => {
		await bed.createLead({ email: 'twice@example.com' });
		const newest = await bed.createLead({ email: 'twice@example.com' });
		const result = await bed.run(upsert({ status: 'lost' }), {
			input: items({ email: 'twice@example.com' }),
		});
		expect(jsonOf(result)[0]).toMatchObject({ id: newest.id, created: false, status: 'lost' });
	});

	test('an e-mail longer than the 200 characters search takes still matches exactly', async () => {
		const email = longEmail(240);
		expect(email.length).toBe(240);
		const sameStart = `${email.slice(0, 220)}.org`;
		const lookalike = await bed.createLead({ email: sameStart });
		const existing = await bed.createLead({ email });

		const result = await bed.run(upsert({ status: 'contacted' }), {
			input: items({ email: email.toUpperCase() }, { email: `${email.slice(0, 230)}.net` }),
		});
		expect(result.error).toBeUndefined();
		const [updated, created] = jsonOf(result);
		expect(updated).toMatchObject({ id: existing.id, created: false, status: 'contacted' });
		expect(created).toMatchObject({ created: true });
		expect([existing.id, lookalike.id]).not.toContain(created.id);
	});

	test.each([1, 5])(
		'items of one run with the same e-mail make one lead (Max Parallel Requests %i)',
		async (maxParallelRequests) => {
			const result = await bed.run(
				upsert({ notes: '={{ $json.note }}' }, { maxParallelRequests }),
				{
					input: items(
						{ email: 'same@example.com', note: 'first' },
						{ email: 'other@example.com', note: 'other' },
						{ email: 'SAME@example.com', note: 'second' },
						{ email: ' same@example.com', note: 'third' },
					),
				},
			);
			expect(result.error).toBeUndefined();
			const output = jsonOf(result);
			expect(output.map((lead) => lead.created)).toEqual([true, true, false, false]);
			expect(new Set([output[0].id, output[2].id, output[3].id]).size).toBe(1);
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
				{ item: 3 },
			]);
			const stored = await leadsWith('same@example.com');
			expect(stored).toHaveLength(1);
			// The items ran in input order: the last note stays.
			expect(stored[0].notes).toBe('third');
		},
	);

	test('fields the service cannot update are listed with their reason, the rest is updated', async () => {
		const existing = await bed.createLead({
			email: 'grace@example.com',
			name: 'Grace',
			company: 'Navy',
			source_channel: 'api',
		});
		const result = await bed.run(
			upsert({ name: 'Grace', company: 'Univac', job_title: 'Admiral', status: 'contacted' }),
			{ input: items({ email: 'grace@example.com' }) },
		);
		expect(result.error).toBeUndefined();
		const [lead] = jsonOf(result);
		expect(lead).toMatchObject({
			id: existing.id,
			status: 'contacted',
			company: 'Navy',
			created: false,
		});
		// Name is already "Grace": it reached the lead, so it is not listed.
		expect(lead.not_updated).toEqual([
			expect.objectContaining({ field: 'company', value: 'Univac', lead_value: 'Navy' }),
			expect.objectContaining({ field: 'job_title', value: 'Admiral', lead_value: null }),
		]);
		expect((lead.not_updated as IDataObject[])[0].reason).toBe(
			'company is set only when a lead is created: the existing lead keeps its own',
		);
	});

	test('Fail the Item: the item fails naming the fields and nothing is changed', async () => {
		const existing = await bed.createLead({ email: 'grace@example.com', company: 'Navy' });
		const result = await bed.run(
			upsert({ company: 'Univac', status: 'contacted' }, { unchangeableFields: 'error' }),
			{
				input: items({ email: 'ok@example.com' }, { email: 'grace@example.com' }),
				continueOnFail: true,
			},
		);
		const output = jsonOf(result);
		expect(output[0]).toMatchObject({ created: true, company: 'Univac' });
		expect(String(output[1].error)).toMatch(
			new RegExp(
				`^Company: the service cannot change this field of the existing lead ${String(existing.id)} \\[item 1\\]`,
			),
		);
		expect((await bed.api.get(`/v1/leads/${String(existing.id)}`)).body.status).toBe('new');
	});

	test.each<[string, IDataObject, INodeParameters, RegExp]>([
		[
			'an e-mail that is not one',
			{ email: 'not-an-email' },
			{},
			/^Email: expected an e-mail address like name@example.com, got "not-an-email" \[item 1\]/,
		],
		[
			'an unknown status',
			{ email: 'b@example.com', status: 'done' },
			{ status: '={{ $json.status }}' },
			/^Status: expected one of new, contacted, qualified, converted, lost, got "done" \[item 1\]/,
		],
		[
			'a company too long',
			{ email: 'b@example.com', company: 'x'.repeat(201) },
			{ company: '={{ $json.company }}' },
			/^Company: must be at most 200 characters \(got 201\) \[item 1\]/,
		],
		[
			'an assignee that is no user ID',
			{ email: 'b@example.com', user: 'bob' },
			{ assigned_to: '={{ $json.user }}' },
			/^Assigned To: expected an ID like user_\w+, got "bob" \[item 1\]/,
		],
	])('bad input fails before any request: %s', async (_case, second, fields, message) => {
		await bed.clearRequests();
		// Every item is read before the first request: the good first item is not sent either.
		const result = await bed.run(upsert(fields, { maxParallelRequests: 1 }), {
			input: items({ email: 'a@example.com' }, second),
		});
		expect(errorText(result)).toMatch(message);
		expect(errorText(result)).toMatch(/nothing was sent to the service for this item/);
		expect(await bed.requests()).toEqual([]);
	});

	test('retries under 429s, 500s and dropped connections create each lead once', async () => {
		await bed.createLead({ email: 'known@example.com' });
		await bed.setFaults({ rate_429: 0.2, rate_500: 0.15, drop_rate: 0.15, seed: 11 });
		const emails = Array.from({ length: 30 }, (_, index) => `lead${index % 20}@example.com`);
		const result = await bed.run(upsert({ status: 'contacted' }, { maxParallelRequests: 4 }), {
			input: items({ email: 'known@example.com' }, ...emails.map((email) => ({ email }))),
		});
		expect(result.error).toBeUndefined();
		await bed.clearFaults();
		const all = await bed.allLeads();
		expect(all).toHaveLength(21);
		expect(new Set(all.map((lead) => lead.email)).size).toBe(21);
		expect(all.every((lead) => lead.status === 'contacted')).toBe(true);
		const statuses = (await bed.requests()).map((request) => request.status);
		expect(statuses).toContain(429);
		expect(statuses).toContain(500);
	});

	test('a create whose answer is lost is re-sent with its key: one lead, status applied', async () => {
		const proxy = await ApiProxy.start(bed.url);
		try {
			bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: proxy.url });
			proxy.rules = {
				decide: (request) =>
					request.method === 'POST' &&
					proxy.requests.filter((seen) => seen.method === 'POST').length === 1
						? 'drop-after-forward'
						: 'forward',
			};
			const result = await bed.run(upsert({ status: 'qualified' }), {
				input: items({ email: 'lost@example.com' }),
			});
			expect(result.error).toBeUndefined();
			const posts = proxy.requests.filter((request) => request.method === 'POST');
			expect(posts).toHaveLength(2);
			expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
			const stored = await leadsWith('lost@example.com');
			expect(stored).toHaveLength(1);
			expect(stored[0].status).toBe('qualified');
			expect(jsonOf(result)[0]).toMatchObject({ id: stored[0].id, created: true });
		} finally {
			bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
			await proxy.close();
		}
	});
});

test('a status refused after the create: the error says the lead was created', async () => {
	const proxy = await ApiProxy.start(bed.url);
	try {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: proxy.url });
		proxy.rules = {
			decide: (request) =>
				request.method === 'PATCH'
					? {
							status: 400,
							body: {
								error: { code: 'invalid_params', message: 'status: refused', param: 'status' },
							},
						}
					: 'forward',
		};
		const result = await bed.run(upsert({ status: 'qualified' }), {
			input: items({ email: 'half@example.com' }),
		});
		const [lead] = await leadsWith('half@example.com');
		expect(errorText(result)).toContain(
			`The lead ${String(lead.id)} was created; setting its status failed: run the node again to update it.`,
		);
	} finally {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
		await proxy.close();
	}
});

describe('Lead locator: By Email', () => {
	const byEmail = (value: string) => ({ __rl: true, mode: 'email', value });

	test('Get, Update and Sync to CRM find the one lead with the e-mail, case aside', async () => {
		await bed.createLead({ email: 'joann@x.com.au' });
		const lead = await bed.createLead({ email: 'Ann@X.com', name: 'Ann' });
		const got = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: byEmail(' ann@x.com '),
		});
		expect(got.error).toBeUndefined();
		expect(jsonOf(got)[0]).toMatchObject({ id: lead.id, name: 'Ann' });

		const updated = await bed.run(
			{
				resource: 'lead',
				operation: 'update',
				leadId: byEmail('={{ $json.email }}'),
				updateFields: { status: 'qualified' },
			},
			{ input: items({ email: 'ANN@x.com' }) },
		);
		expect(updated.error).toBeUndefined();
		expect(jsonOf(updated)[0]).toMatchObject({ id: lead.id, status: 'qualified' });

		await bed.control.patch(CONTROL.account(ACCOUNT_A), { crm: { crm_type: 'hubspot' } });
		const synced = await bed.run({
			resource: 'lead',
			operation: 'syncToCrm',
			leadId: byEmail('ann@x.com'),
		});
		expect(synced.error).toBeUndefined();
		expect(jsonOf(synced)[0]).toMatchObject({ lead_id: lead.id, synced: true });
	});

	test('no lead with the e-mail: a clear error naming the item', async () => {
		await bed.createLead({ email: 'joann@x.com.au' });
		const result = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: byEmail('ann@x.com'),
		});
		expect(errorText(result)).toMatch(/^Lead: no lead has the e-mail "ann@x.com" \[item 0\]/);
	});

	test('several leads with the e-mail: the error lists them, newest first', async () => {
		const older = await bed.createLead({ email: 'twice@example.com' });
		const newer = await bed.createLead({ email: 'TWICE@example.com' });
		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: byEmail('twice@example.com'),
			updateFields: { status: 'lost' },
		});
		expect(errorText(result)).toMatch(
			/^Lead: 2 leads have the e-mail "twice@example.com" \[item 0\]/,
		);
		expect(errorText(result)).toContain(`${String(newer.id)}, ${String(older.id)}`);
		for (const lead of [older, newer])
			expect((await bed.api.get(`/v1/leads/${String(lead.id)}`)).body.status).toBe('new');
	});

	test('a value that is no e-mail is refused before any request', async () => {
		await bed.clearRequests();
		const result = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: byEmail('ann at x'),
		});
		expect(errorText(result)).toMatch(
			/^Lead: expected an e-mail address like name@example.com, got "ann at x" \[item 0\]/,
		);
		expect(await bed.requests()).toEqual([]);
	});
});
