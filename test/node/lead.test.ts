import type { IDataObject } from 'n8n-workflow';

import { ACCOUNT_A, CONTROL } from '../support/sandbox-client';
import { errorText, items, jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });
async function createLead(fields: IDataObject = {}): Promise<IDataObject> {
	const { status, body } = await bed.api.post('/v1/leads', { email: 'ada@example.com', ...fields });
	expect(status).toBe(201);
	return body;
}

describe('Lead: Create', () => {
	test('creates a lead with every field, custom fields from pairs and JSON', async () => {
		const result = await bed.run({
			resource: 'lead',
			operation: 'create',
			email: 'ada@example.com',
			additionalFields: {
				name: 'Ada Lovelace',
				company: 'Analytical Engines',
				job_title: 'CTO',
				source_channel: 'referral',
				customFieldsUi: {
					field: [
						{ key: 'plan', value: 'pro' },
						{ key: 'region', value: 'emea' },
					],
				},
				customFieldsJson: '{"seats": 25, "region": "apac", "trial": true}',
			},
		});

		expect(result.error).toBeUndefined();
		const [lead] = jsonOf(result);
		expect(lead).toMatchObject({
			email: 'ada@example.com',
			name: 'Ada Lovelace',
			company: 'Analytical Engines',
			job_title: 'CTO',
			source_channel: 'referral',
			status: 'new',
			custom_fields: { plan: 'pro', region: 'apac', seats: 25, trial: true },
		});
		expect(lead.id).toMatch(/^lead_/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });

		const stored = await bed.api.get(`/v1/leads/${String(lead.id)}`);
		expect(stored.body).toMatchObject({ email: 'ada@example.com', company: 'Analytical Engines' });
	});

	test('custom fields from key/value pairs alone', async () => {
		const result = await bed.run({
			resource: 'lead',
			operation: 'create',
			email: 'pairs@example.com',
			additionalFields: { customFieldsUi: { field: [{ key: 'plan', value: 'pro' }] } },
		});

		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].custom_fields).toEqual({ plan: 'pro' });
	});

	test('one lead per input item, e-mail from an expression, paired with its item', async () => {
		const result = await bed.run(
			{ resource: 'lead', operation: 'create', email: '={{ $json.mail }}' },
			{
				input: items(
					{ mail: 'a@example.com' },
					{ mail: 'b@example.com' },
					{ mail: 'c@example.com' },
				),
			},
		);

		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.email)).toEqual([
			'a@example.com',
			'b@example.com',
			'c@example.com',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.items.map((item) => item.json.source_channel)).toEqual(['api', 'api', 'api']);
	});
});

describe('Lead: Get', () => {
	test('returns the simplified lead by default and the whole lead with Simplify off', async () => {
		const created = await createLead({ name: 'Ada', company: 'AE' });

		const simple = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl(String(created.id)),
		});
		expect(simple.error).toBeUndefined();
		expect(Object.keys(jsonOf(simple)[0]).sort()).toEqual(
			[
				'assigned_to',
				'company',
				'created_at',
				'email',
				'id',
				'job_title',
				'name',
				'score',
				'source_channel',
				'status',
			].sort(),
		);

		const full = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl(String(created.id)),
			simplify: false,
		});
		expect(jsonOf(full)[0]).toEqual(created);
	});

	test('accepts a lead picked from the list', async () => {
		const created = await createLead();
		const result = await bed.run({
			resource: 'lead',
			operation: 'get',
			leadId: rl(String(created.id), 'list'),
		});
		expect(jsonOf(result)[0].id).toBe(created.id);
	});

	test('a missing lead fails with the service message, code, status and item', async () => {
		const result = await bed.run(
			{ resource: 'lead', operation: 'get', leadId: rl('={{ $json.id }}') },
			{ input: items({ id: 'lead_aaaaaaaaaaaaaaaa' }, { id: 'lead_doesnotexist0000' }) },
		);
		const created = result.items;
		expect(created).toEqual([]);
		expect(result.error?.message).toBe(
			'No lead with id lead_aaaaaaaaaaaaaaaa (not_found) [item 0]',
		);
		expect(errorText(result)).toMatch(/HTTP 404 not_found · request ID: req_[a-z0-9]+/);
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('404');
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	test('Continue On Fail: failed items become { error } items paired with their input', async () => {
		const lead = await createLead();
		const result = await bed.run(
			{ resource: 'lead', operation: 'get', leadId: rl('={{ $json.id }}') },
			{
				input: items(
					{ id: String(lead.id) },
					{ id: 'lead_doesnotexist0000' },
					{ id: 'res_wrongprefix000' },
				),
				continueOnFail: true,
			},
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		const [ok, missing, invalid] = jsonOf(result);
		expect(ok.id).toBe(lead.id);
		expect(missing.error).toBe('No lead with id lead_doesnotexist0000 (not_found) [item 1]');
		expect(invalid.error).toMatch(
			/^Lead: expected an ID like lead_\w+, got "res_wrongprefix000" \[item 2\]$/,
		);
		// The invalid ID was never sent.
		expect(
			(await bed.requests()).filter((request) => request.path.includes('res_wrongprefix000')),
		).toEqual([]);
	});
});

describe('Lead: Get Many', () => {
	test('Limit returns that many leads; filters and sort are sent to the service', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 7, leads: 60, resources: 3 });

		const limited = await bed.run({ resource: 'lead', operation: 'getAll', limit: 5 });
		expect(limited.items).toHaveLength(5);

		const sorted = await bed.run({
			resource: 'lead',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'qualified' },
			options: { sort: 'score', order: 'asc' },
			simplify: false,
		});
		const leads = jsonOf(sorted);
		expect(leads.length).toBeGreaterThan(0);
		expect(leads.every((lead) => lead.status === 'qualified')).toBe(true);
		const scores = leads.map((lead) => Number(lead.score));
		expect(scores).toEqual([...scores].sort((a, b) => a - b));
		// docs/api-contract.md §5: the full lead carries its behaviour summary.
		expect(Object.keys(leads[0].behavior_summary as IDataObject)).toEqual([
			'total_page_views',
			'avg_dwell_seconds',
			'max_scroll_depth',
			'cta_clicks',
		]);

		const expected = await bed.api.get<{ data: IDataObject[] }>(
			'/v1/leads?status=qualified&limit=100',
		);
		expect(leads.map((lead) => lead.id).sort()).toEqual(
			expected.body.data.map((lead) => lead.id).sort(),
		);
	});

	test('Return All follows the cursor across pages of 100', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 3, leads: 250, resources: 2 });
		await bed.control.delete('/_sandbox/requests');

		const result = await bed.run({ resource: 'lead', operation: 'getAll', returnAll: true });

		expect(result.error).toBeUndefined();
		const ids = jsonOf(result).map((lead) => lead.id);
		expect(ids).toHaveLength(250);
		expect(new Set(ids).size).toBe(250);
		const calls = (await bed.requests()).filter((request) => request.path === '/v1/leads');
		expect(calls).toHaveLength(3);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	test('a limit above one page is reached over several pages', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 4, leads: 150, resources: 1 });
		const result = await bed.run({ resource: 'lead', operation: 'getAll', limit: 130 });
		expect(new Set(jsonOf(result).map((lead) => lead.id)).size).toBe(130);
	});

	test('runs once per input item', async () => {
		await createLead({ company: 'Acme' });
		await createLead({ email: 'bob@other.example', company: 'Other' });
		const result = await bed.run(
			{ resource: 'lead', operation: 'getAll', returnAll: true, filters: { q: '={{ $json.q }}' } },
			{ input: items({ q: 'acme' }, { q: 'other' }, { q: 'nobody' }) },
		);
		expect(result.items.map((item) => [item.pairedItem, item.json.company])).toEqual([
			[{ item: 0 }, 'Acme'],
			[{ item: 1 }, 'Other'],
		]);
	});
});

describe('Lead: Update', () => {
	test('sets status, assignee, notes and merges custom fields', async () => {
		const lead = await createLead({ custom_fields: { plan: 'free', region: 'emea' } });
		const users = await bed.api.get<{ data: Array<{ id: string }> }>('/v1/users?limit=10');
		const userId = users.body.data[1].id;

		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: rl(String(lead.id)),
			updateFields: {
				status: 'qualified',
				assigned_to: userId,
				notes: 'Asked for a demo',
				customFieldsJson: '{"plan": "pro", "region": null}',
			},
		});

		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			id: lead.id,
			status: 'qualified',
			assigned_to: userId,
			notes: 'Asked for a demo',
			custom_fields: { plan: 'pro' },
		});
		expect(jsonOf(result)[0].custom_fields).not.toHaveProperty('region');
	});

	test('"Nobody" removes the assignment and empty notes clear them', async () => {
		const lead = await createLead();
		const users = await bed.api.get<{ data: Array<{ id: string }> }>('/v1/users?limit=10');
		await bed.api.patch(`/v1/leads/${String(lead.id)}`, {
			assigned_to: users.body.data[0].id,
			notes: 'x',
		});

		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: rl(String(lead.id)),
			updateFields: { assigned_to: '__unassign__', notes: '' },
		});
		expect(jsonOf(result)[0]).toMatchObject({ assigned_to: null, notes: null });
	});

	test('a key/value pair with an empty value removes that custom field', async () => {
		const lead = await createLead({ custom_fields: { plan: 'free', seats: 3 } });
		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: rl(String(lead.id)),
			updateFields: {
				customFieldsUi: {
					field: [
						{ key: 'plan', value: '' },
						{ key: 'constructor', value: 'x' },
					],
				},
			},
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].custom_fields).toEqual({ seats: 3, constructor: 'x' });
	});

	test('custom fields with nothing in them count as no change: it fails before sending anything', async () => {
		const lead = await createLead();
		await bed.control.delete('/_sandbox/requests');
		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: rl(String(lead.id)),
			updateFields: { customFieldsJson: '{}', customFieldsUi: {} },
		});
		expect(result.error?.message).toContain('Update Fields: add at least one field to update');
		expect(await bed.requests()).toEqual([]);
	});

	test('without any field to update it fails before sending anything', async () => {
		const lead = await createLead();
		await bed.control.delete('/_sandbox/requests');
		const result = await bed.run({
			resource: 'lead',
			operation: 'update',
			leadId: rl(String(lead.id)),
			updateFields: {},
		});
		expect(result.error?.message).toBe(
			'Update Fields: add at least one field to update (Status, Assigned To, Notes or Custom Fields) [item 0]',
		);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Lead: Sync to CRM', () => {
	test('pushes the lead and returns the sync result', async () => {
		const lead = await createLead();
		const result = await bed.run({
			resource: 'lead',
			operation: 'syncToCrm',
			leadId: rl(String(lead.id)),
		});

		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			lead_id: lead.id,
			synced: true,
			crm_type: 'hubspot',
		});
		expect(String(jsonOf(result)[0].crm_record_id)).toMatch(/^crm_/);
		const pushes = (
			await bed.control.get<Array<{ lead_id: string; reason: string }>>('/_sandbox/crm/pushes')
		).body;
		expect(pushes).toContainEqual(expect.objectContaining({ lead_id: lead.id, reason: 'manual' }));
	});

	test('an account without a CRM fails with crm_not_configured', async () => {
		const lead = await createLead();
		await bed.control.patch(CONTROL.account(ACCOUNT_A), { crm: null });
		try {
			const result = await bed.run({
				resource: 'lead',
				operation: 'syncToCrm',
				leadId: rl(String(lead.id)),
			});
			expect(result.error?.message).toMatch(/\(crm_not_configured\) \[item 0\]$/);
			expect(errorText(result)).toContain('HTTP 409');
		} finally {
			await bed.control.patch(CONTROL.account(ACCOUNT_A), { crm: { crm_type: 'hubspot' } });
		}
	});
});

describe('Lead: Sync Many to CRM', () => {
	test('syncs all items in batches of 100 and maps each result back to its item', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 11, leads: 230, resources: 1 });
		const all = await bed.api.get<{ data: Array<{ id: string }> }>('/v1/leads?limit=100');
		const page2 = await bed.api.get<{ data: Array<{ id: string }> }>(
			`/v1/leads?limit=100&cursor=${String((all.body as IDataObject).next_cursor)}`,
		);
		const page3 = await bed.api.get<{ data: Array<{ id: string }> }>(
			`/v1/leads?limit=100&cursor=${String((page2.body as IDataObject).next_cursor)}`,
		);
		const ids = [...all.body.data, ...page2.body.data, ...page3.body.data].map((lead) => lead.id);
		expect(ids).toHaveLength(230);
		// Every lead once, then the first ten again: 240 items, 230 distinct leads.
		const input = items(...[...ids, ...ids.slice(0, 10)].map((id) => ({ id })));
		await bed.control.delete('/_sandbox/requests');

		const result = await bed.run(
			{ resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') },
			{ input },
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(240);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				lead_id: input[index].json.id,
				synced: true,
				crm_type: 'hubspot',
			});
		});
		// The repeated leads got the same CRM record as their first occurrence.
		expect(result.items[230].json.crm_record_id).toBe(result.items[0].json.crm_record_id);
		const calls = (await bed.requests()).filter(
			(request) => request.path === '/v1/leads/batch-sync-crm',
		);
		expect(calls).toHaveLength(3);
	});

	test('a lead that fails in the batch fails its item only (Continue On Fail)', async () => {
		const a = await createLead();
		const b = await createLead({ email: 'b@example.com' });
		const result = await bed.run(
			{ resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') },
			{
				input: items(
					{ id: String(a.id) },
					{ id: 'lead_doesnotexist0000' },
					{ id: 'nonsense' },
					{ id: String(b.id) },
				),
				continueOnFail: true,
			},
		);

		expect(result.error).toBeUndefined();
		const [first, missing, invalid, last] = jsonOf(result);
		expect(first).toMatchObject({ lead_id: a.id, synced: true });
		expect(missing).toMatchObject({ lead_id: 'lead_doesnotexist0000' });
		expect(missing.error).toBe(
			'Lead lead_doesnotexist0000 was not synced: No lead with id lead_doesnotexist0000 (not_found) [item 1]',
		);
		expect(invalid.error).toMatch(
			/^Lead: expected an ID like lead_\w+, got "nonsense" \[item 2\]$/,
		);
		expect(last).toMatchObject({ lead_id: b.id, synced: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
	});

	test('without Continue On Fail a failed lead stops the node naming its item', async () => {
		const a = await createLead();
		const result = await bed.run(
			{ resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') },
			{ input: items({ id: String(a.id) }, { id: 'lead_doesnotexist0000' }) },
		);
		expect(result.error?.message).toBe(
			'Lead lead_doesnotexist0000 was not synced: No lead with id lead_doesnotexist0000 (not_found) [item 1]',
		);
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	test('an invalid ID stops the node before any request', async () => {
		const a = await createLead();
		await bed.control.delete('/_sandbox/requests');
		const result = await bed.run(
			{ resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') },
			{ input: items({ id: String(a.id) }, { id: 'res_abc' }) },
		);
		expect(result.error?.message).toMatch(
			/^Lead: expected an ID like lead_\w+, got "res_abc" \[item 1\]$/,
		);
		expect(await bed.requests()).toEqual([]);
	});
});
