// The node's list searches (leads, resources, webhook endpoints), called as n8n's editor calls them.
import { listSearch } from './editor-methods';
import { CREDENTIAL, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

beforeEach(() => {
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
});

describe('list searches', () => {
	test('searchLeads: server-side search by q and paging by token', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 5, leads: 120, resources: 2 });
		const first = await listSearch(bed, 'searchLeads');
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toEqual(expect.any(String));
		const second = await listSearch(bed, 'searchLeads', undefined, String(first.paginationToken));
		expect(second.results).toHaveLength(50);
		expect(new Set([...first.results, ...second.results].map((result) => result.value)).size).toBe(
			100,
		);
		expect(String(first.results[0].value)).toMatch(/^lead_/);
		expect(first.results[0].name).toMatch(/<.+@.+>$/);

		await bed.api.post('/v1/leads', { email: 'zelda@findme.example', name: 'Zelda Find' });
		const found = await listSearch(bed, 'searchLeads', 'findme');
		expect(found.results).toEqual([
			{ name: 'Zelda Find <zelda@findme.example>', value: expect.stringMatching(/^lead_/) },
		]);
		expect(found.paginationToken).toBeUndefined();
		const requests = await bed.requests();
		expect(requests.at(-1)).toMatchObject({ path: '/v1/leads' });
	});

	test('searchResources gives the public link as the URL', async () => {
		await bed.createResource({ title: 'State of B2B Content' });
		const { results } = await listSearch(bed, 'searchResources', 'b2b');
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({
			name: 'State of B2B Content (article, draft)',
			value: expect.stringMatching(/^res_/),
		});
		expect(results[0].url).toMatch(/\/c\/res_/);
	});

	test('searchWebhookEndpoints filters by URL and description', async () => {
		await bed.api.post('/v1/webhooks', {
			url: 'https://a.example.com/x',
			events: ['lead.created'],
			description: 'CRM bridge',
		});
		await bed.api.post('/v1/webhooks', {
			url: 'https://b.example.com/y',
			events: ['lead.created'],
		});
		expect((await listSearch(bed, 'searchWebhookEndpoints')).results).toHaveLength(2);
		const byDescription = await listSearch(bed, 'searchWebhookEndpoints', 'crm');
		expect(byDescription.results).toEqual([
			{ name: 'CRM bridge (https://a.example.com/x)', value: expect.stringMatching(/^wh_/) },
		]);
		expect(
			(await listSearch(bed, 'searchWebhookEndpoints', 'b.example')).results.map(
				(result) => result.name,
			),
		).toEqual(['https://b.example.com/y']);
	});
});
