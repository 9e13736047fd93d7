// Lead › Create or Update under the sandbox's 429s, 500s and dropped connections costs about what the same
// import costs without them (docs/leads-import.md "What a sync costs"): the faults lower how many items run
// at once, and the reads of the newest leads before each create must not multiply with that. Calls are
// counted from the sandbox's request log; waits are virtual (see virtualSleep).
import type { JsonObject, SandboxRequest } from '../support/sandbox-client';
import { items, jsonOf, NodeTestBed, upsert } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
virtualSleepEachTest();

/** The faults of figure G (bench/figure-g.mjs), on every request of the node. */
const FAULTS: JsonObject = { rate_429: 0.01, rate_500: 0.05, drop_rate: 0.05, seed: 37 };
const ROWS = 400;

const isRead = (request: SandboxRequest) =>
	request.method === 'GET' && request.path === '/v1/leads';

/** Imports ROWS new e-mails into an empty account, with `faults` injected, and answers its calls and leads. */
async function importNew(faults?: JsonObject) {
	await bed.reset();
	if (faults !== undefined) await bed.setFaults(faults);
	const rows = Array.from({ length: ROWS }, (_, index) => ({
		email: `fresh${index}@import.example`,
		status: 'new',
	}));
	const result = await bed.run(upsert({ status: '={{ $json.status }}' }), {
		input: items(...rows),
	});
	const requests = await bed.requests();
	await bed.clearFaults();
	const leads = await bed.allLeads();
	return { result, requests, leads };
}

describe('Lead: Create or Update, an import under faults', () => {
	test('costs at most 1.2 × the calls of the same import without faults, no lead twice, none lost', async () => {
		const clean = await importNew();
		const faulted = await importNew(FAULTS);
		// The faults were met: some answers were 429, 500 or no answer at all.
		expect(faulted.requests.map((request) => request.status)).toEqual(
			expect.arrayContaining([429, 500, null]),
		);
		for (const run of [clean, faulted]) {
			expect(run.result.error).toBeUndefined();
			expect(jsonOf(run.result).every((lead) => lead.outcome === 'created')).toBe(true);
			expect(run.leads).toHaveLength(ROWS);
			expect(new Set(run.leads.map((lead) => lead.email)).size).toBe(ROWS);
		}
		const summary = (run: typeof clean) => ({
			calls: run.requests.length,
			reads: run.requests.filter(isRead).length,
		});
		const without = summary(clean);
		const under = summary(faulted);
		// On failure the diff shows both runs' calls and reads of the list.
		expect({ without, under, atMostTwelveTenths: under.calls <= 1.2 * without.calls }).toEqual({
			without,
			under,
			atMostTwelveTenths: true,
		});
	});
});

describe('Lead: Create or Update, items that wait for other items give their slot back', () => {
	test('one new e-mail given by more items than the limit lets run at once: each waits for the one before, all end', async () => {
		// The limit starts at 2 and grows with each quick answer: 8 items of one e-mail outnumber it, and
		// the first waits for the read of the newest leads while the others wait for it.
		const rows = [...Array.from({ length: 8 }, () => ({ email: 'many@import.example' }))];
		const result = await bed.run(upsert({ status: 'qualified' }), {
			input: items(...rows, { email: 'other@import.example' }),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((lead) => lead.outcome)).toEqual([
			'created',
			...Array.from({ length: 7 }, () => 'unchanged'),
			'created',
		]);
		expect((await bed.allLeads()).map((lead) => lead.email).sort()).toEqual([
			'many@import.example',
			'other@import.example',
		]);
	});

	test('two executions at once with the same new e-mails in opposite orders both end, one lead each', async () => {
		const emails = Array.from({ length: 60 }, (_, index) => `both${index}@import.example`);
		const run = (order: string[]) =>
			bed.run(upsert({ status: 'contacted' }), {
				input: items(...order.map((email) => ({ email }))),
			});
		const results = await Promise.all([run(emails), run([...emails].reverse())]);
		for (const result of results) expect(result.error).toBeUndefined();
		const leads = await bed.allLeads();
		expect(leads).toHaveLength(60);
		expect(new Set(leads.map((lead) => lead.email)).size).toBe(60);
		const created = results.flatMap((result) =>
			jsonOf(result).filter((lead) => lead.outcome === 'created'),
		);
		expect(created).toHaveLength(60);
	});
});
