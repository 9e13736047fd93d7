// examples/content-marketing-tour.json (the workflow `npm run demo` runs), through n8n-core's engine against
// a sandbox with its demo data; every output is compared with the sandbox's own answer to the same question.
import type { IDataObject } from 'n8n-workflow';

import { createExampleHarness, readExample, type Harness, type RunResult } from '../harness';
import { useSandbox, type Api, type Lead, type ListPage } from '../support/sandbox-client';

const sandbox = useSandbox({ start: { seedDemo: true } });
let harness: Harness;
let api: Api;
let result: RunResult;

const json = (node: string): IDataObject[] => result.outputOf(node).map((item) => item.json);

beforeAll(async () => {
	api = sandbox.api;
	harness = await createExampleHarness({ url: sandbox.url, apiKey: sandbox.keys.full });
	result = await harness.run(readExample('content-marketing-tour.json'));
});

afterAll(async () => {
	await harness?.close();
});

test('the tour runs without error, every node once', () => {
	expect(result.error).toBeUndefined();
	const nodes = readExample('content-marketing-tour.json').nodes.map((node) => node.name);
	expect(nodes).toHaveLength(6);
	expect([...result.executionOrder].sort()).toEqual([...nodes].sort());
});

test('Hot Leads: the five highest scores, as the API sorts them', async () => {
	const expected = await api.get<ListPage<Lead>>('/v1/leads?sort=score&order=desc&limit=5');
	const leads = json('Hot Leads');
	expect(leads.map((lead) => lead.id)).toEqual(expected.body.data.map((lead) => lead.id));
	expect(leads.map((lead) => lead.score)).toEqual(
		[...leads.map((lead) => lead.score)].sort((a, b) => Number(b) - Number(a)),
	);
	expect(new Set(leads.map((lead) => lead.score)).size).toBeGreaterThan(1);
});

test('Funnel: the five steps of the last 30 days, narrowing, equal to the API', async () => {
	const expected = await api.get<{
		funnel_steps: Array<{ step: string; count: number; rate: string }>;
	}>('/v1/analytics/funnel?days=30');
	const [funnel] = json('Funnel');
	for (const { step, count, rate } of expected.body.funnel_steps) {
		expect({ step, count: funnel[`${step}_count`], rate: funnel[`${step}_rate`] }).toEqual({
			step,
			count,
			rate,
		});
	}
	const counts = expected.body.funnel_steps.map((step) => step.count);
	expect(counts[0]).toBeGreaterThan(counts[4]);
	expect(counts[4]).toBeGreaterThan(0);
});

test('Top Channels: one item per traffic source, equal to the API', async () => {
	const expected = await api.get<{
		data: Array<{ source: string; visits: number; leads: number }>;
	}>('/v1/analytics/channels?days=30');
	const channels = json('Top Channels');
	expect(channels.map((c) => [c.source, c.visits, c.leads])).toEqual(
		expected.body.data.map((c) => [c.source, c.visits, c.leads]),
	);
	expect(channels.length).toBeGreaterThan(2);
});

test('Create Lead then Sync to CRM: the lead exists and the CRM received it', async () => {
	const [lead] = json('Create Lead');
	const [sync] = json('Sync to CRM');
	expect(lead).toMatchObject({
		email: 'grace.hopper@example.com',
		status: 'new',
		source_channel: 'import',
	});
	expect(sync).toMatchObject({
		synced: true,
		crm_type: 'hubspot',
		crm_record_id: expect.stringMatching(/^crm_/),
	});

	const stored = await api.get<Lead>(`/v1/leads/${String(lead.id)}`);
	expect(stored.body.company).toBe('Compiler Works');
	const pushes =
		await sandbox.control.get<Array<{ lead_id: string; reason: string; crm_record_id: string }>>(
			'/_sandbox/crm/pushes',
		);
	expect(
		pushes.body
			.filter((push) => push.lead_id === lead.id)
			.map((push) => push.reason)
			.sort(),
	).toEqual(['created', 'manual']);
});
