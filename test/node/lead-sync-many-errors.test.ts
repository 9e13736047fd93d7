// Lead › Sync Many to CRM errors: a failed entry of the batch result is the service's error (NodeApiError
// with its code and message) for its item; a batch call that fails as a whole names the items it carried,
// and with Continue On Fail each of them gets its own error item, paired with it.
// Waits are virtual (see virtualSleep): the retries of a 429 do not sleep.
import type { INodeExecutionData } from 'n8n-workflow';

import { ACCOUNT_A } from '../support/sandbox-client';
import { errorKind, jsonOf, NodeTestBed } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
virtualSleepEachTest();

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const SYNC_MANY = { resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') };
const MISSING = 'lead_doesnotexist0000';

const items = (...ids: string[]): INodeExecutionData[] => ids.map((id) => ({ json: { id } }));

async function createLead(email: string, key = bed.keys.full): Promise<string> {
	const { status, body } = await bed.as(key).post('/v1/leads', { email });
	expect(status).toBe(201);
	return String(body.id);
}

async function withoutCrm(test: () => Promise<void>): Promise<void> {
	await bed.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { crm: null });
	try {
		await test();
	} finally {
		await bed.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { crm: { crm_type: 'hubspot' } });
	}
}

async function batchCalls(): Promise<number> {
	return (await bed.requests()).filter((request) => request.path === '/v1/leads/batch-sync-crm')
		.length;
}

describe('a failed entry of the batch result', () => {
	test('a missing lead stops the node with a NodeApiError carrying not_found, naming its item', async () => {
		const a = await createLead('a@example.com');
		const result = await bed.run(SYNC_MANY, { input: items(a, MISSING) });

		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error?.message).toBe(
			`Lead ${MISSING} was not synced: No lead with id ${MISSING} (not_found) [item 1]`,
		);
		expect(result.error?.description).toContain('HTTP 404 not_found');
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	test('with Continue On Fail the missing lead is an error item with code not_found; the others are synced', async () => {
		const a = await createLead('a@example.com');
		const b = await createLead('b@example.com');
		const result = await bed.run(SYNC_MANY, { input: items(a, MISSING, b), continueOnFail: true });

		expect(result.error).toBeUndefined();
		const [first, missing, last] = jsonOf(result);
		expect(first).toMatchObject({ lead_id: a, synced: true });
		expect(missing).toEqual({
			lead_id: MISSING,
			error: `Lead ${MISSING} was not synced: No lead with id ${MISSING} (not_found) [item 1]`,
			details: expect.stringContaining('HTTP 404 not_found') as unknown,
		});
		expect(last).toMatchObject({ lead_id: b, synced: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(await batchCalls()).toBe(1);
	});

	test("another account's lead is a NodeApiError with forbidden (403)", async () => {
		const foreign = await createLead('x@example.com', bed.keys.other_account);
		const result = await bed.run(SYNC_MANY, { input: items(foreign) });

		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '403' });
		expect(result.error?.message).toMatch(
			new RegExp(`^Lead ${foreign} was not synced: .* \\(forbidden\\) \\[item 0\\]$`),
		);
	});
});

describe('a batch call that fails as a whole', () => {
	test('an account without a CRM: every item of the chunk reports crm_not_configured (Continue On Fail)', async () => {
		const a = await createLead('a@example.com');
		const b = await createLead('b@example.com');
		await withoutCrm(async () => {
			// A repeated lead and an invalid ID in between: nothing lost, nothing mis-paired.
			const result = await bed.run(SYNC_MANY, {
				input: items(a, b, 'nonsense', a),
				continueOnFail: true,
			});

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
				{ item: 3 },
			]);
			const [first, second, invalid, repeated] = jsonOf(result);
			const expected = (leadId: string, itemIndex: number): Record<string, unknown> => ({
				lead_id: leadId,
				error: `No CRM integration is configured for this account (crm_not_configured) [item ${itemIndex}]`,
				details: expect.stringMatching(
					/^HTTP 409 crm_not_configured · .*none of the leads of items 0–1, 3 was synced/,
				) as unknown,
			});
			expect(first).toEqual(expected(a, 0));
			expect(second).toEqual(expected(b, 1));
			expect(invalid.error).toMatch(
				/^Lead: expected an ID like lead_\w+, got "nonsense" \[item 2\]$/,
			);
			expect(repeated).toEqual(expected(a, 3));
		});
		expect(await batchCalls()).toBe(1);
	});

	test('an account without a CRM: without Continue On Fail the error names the items of the chunk', async () => {
		const a = await createLead('a@example.com');
		const b = await createLead('b@example.com');
		const c = await createLead('c@example.com');
		await withoutCrm(async () => {
			const result = await bed.run(SYNC_MANY, { input: items(a, b, c) });

			expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '409' });
			expect(result.error?.message).toBe(
				'No CRM integration is configured for this account (crm_not_configured) [items 0–2]',
			);
			expect(result.error?.description).toContain('HTTP 409 crm_not_configured');
			expect(result.error?.description).toContain('none of the leads of items 0–2 was synced');
			expect(result.error?.context?.itemIndex).toBe(0);
		});
	});

	test('429 after the retries on every call: each chunk of 100 names its own items', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 3, leads: 150, resources: 1 });
		const ids = await bed.allLeadIds();
		expect(ids).toHaveLength(150);
		// Retry-After: 60 s (virtual): each chunk's request is waited out 15 times, then fails.
		await bed.control.put('/_sandbox/faults', {
			rate_429: 1,
			retry_after_seconds: 60,
			methods: ['POST'],
			path_prefix: '/v1/leads/batch-sync-crm',
		});

		const stopped = await bed.run(SYNC_MANY, { input: items(...ids) });
		expect(errorKind(stopped)).toEqual({ name: 'NodeApiError', httpCode: '429' });
		expect(stopped.error?.message).toMatch(/\(rate_limited\) \[items 0–99\]$/);
		expect(stopped.error?.context?.itemIndex).toBe(0);

		const result = await bed.run(SYNC_MANY, { input: items(...ids), continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(150);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.lead_id).toBe(ids[index]);
			expect(item.json.error).toMatch(new RegExp(`\\(rate_limited\\) \\[item ${index}\\]$`));
			expect(item.json.details).toContain(index < 100 ? 'items 0–99' : 'items 100–149');
		});
	});
});
