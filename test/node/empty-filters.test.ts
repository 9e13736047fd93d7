// A filter (or option) the user added in the editor and left empty counts as not set, as in n8n's own nodes
// (Mailchimp's Get Many: `if (options.sinceLastChanged)`): n8n fills an added option with its default ('' for
// text and dates), and its parameter issues cannot mark an option inside a collection before the run. A
// filter whose expression gives nothing for an item is refused before any request, naming the field and the
// item: that is known only per item, and dropping it would silently widen that item's request.
import type { INodeParameters } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

async function sentQueries(): Promise<Array<Record<string, string>>> {
	return (await bed.requests()).map((request) =>
		Object.fromEntries(new URLSearchParams(request.query)),
	);
}

describe('a filter added in the editor and left empty is not set: the run succeeds, the request goes without it', () => {
	const cases: Array<[name: string, parameters: INodeParameters, sent: Record<string, string>]> = [
		[
			'Lead Get Many: Created Since added, no date picked',
			{ resource: 'lead', operation: 'getAll', filters: { createdSince: '' } },
			{},
		],
		[
			'Lead Get Many: Updated Since added, no date picked, beside a Status',
			{ resource: 'lead', operation: 'getAll', filters: { updatedSince: '', status: 'new' } },
			{ status: 'new' },
		],
		[
			'Lead Get Many: Search added and left at its default',
			{ resource: 'lead', operation: 'getAll', filters: { q: '' } },
			{},
		],
		[
			'Lead Get Many: Email, Source Resource ID (spaces only) and Assigned To added, left empty',
			{
				resource: 'lead',
				operation: 'getAll',
				filters: { email: '', source_resource_id: '   ', assigned_to: '' },
			},
			{},
		],
		[
			'Lead Get Many: Created in the Last N Days cleared',
			{ resource: 'lead', operation: 'getAll', filters: { days: null } },
			{},
		],
		[
			'Lead Get Many: Search switched to an expression with nothing in it',
			{ resource: 'lead', operation: 'getAll', filters: { q: '=' } },
			{},
		],
		[
			'Content Resource Get Many: Search added and left at its default',
			{ resource: 'contentResource', operation: 'getAll', filters: { q: '' } },
			{},
		],
		[
			'Content Resource Get Many: Tag blank beside a Status',
			{
				resource: 'contentResource',
				operation: 'getAll',
				filters: { status: 'published', tag: ' ' },
			},
			{ status: 'published' },
		],
		[
			'Webhook Endpoint Get Many: Event added and left at its default',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { event: '' } },
			{},
		],
		[
			'Webhook Endpoint Get Many: URL added and left at its default beside Active',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: true, url: '' } },
			{ active: 'true' },
		],
		[
			'Analytics: Content Resource filter added, nothing chosen from the list',
			{
				resource: 'analytics',
				operation: 'getOverview',
				days: 7,
				filters: { resourceId: rl('', 'list') },
			},
			{ days: '7' },
		],
	];

	test.each(cases)('%s', async (_name, parameters, sent) => {
		const result = await bed.run(parameters);
		expect(result.error).toBeUndefined();
		const queries = await sentQueries();
		expect(queries).toHaveLength(1);
		const filterKeys = Object.keys(parameters.filters as object).map((key) =>
			key === 'resourceId' ? 'resource_id' : key,
		);
		for (const key of filterKeys) {
			if (!(key in sent)) expect(queries[0]).not.toHaveProperty(key);
		}
		expect(queries[0]).toMatchObject(sent);
	});
});

describe('a filter whose expression gives nothing fails its item before any request', () => {
	const cases: Array<[name: string, parameters: INodeParameters, message: string]> = [
		[
			'Lead Get Many: Assigned To from an expression that gives nothing',
			{ resource: 'lead', operation: 'getAll', filters: { assigned_to: '={{ $json.owner }}' } },
			'Assigned To: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Lead Get Many: Created in the Last N Days from an expression that gives ""',
			{ resource: 'lead', operation: 'getAll', filters: { days: '={{ "" }}' } },
			'Created in the Last N Days: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Lead Get Many: Created Since from an expression that gives nothing',
			{ resource: 'lead', operation: 'getAll', filters: { createdSince: '={{ $json.since }}' } },
			'Created Since: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Lead Get Many: Sort By option empty',
			{ resource: 'lead', operation: 'getAll', options: { sort: '={{ "" }}' } },
			'Sort By: is empty; remove the option or give a value [item 0]',
		],
		[
			'Content Resource Get Many: Type from an expression that gives nothing',
			{ resource: 'contentResource', operation: 'getAll', filters: { type: '={{ $json.type }}' } },
			'Type: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Content Resource Get Many: Sort Order option empty',
			{ resource: 'contentResource', operation: 'getAll', options: { order: '={{ "" }}' } },
			'Sort Order: is empty; remove the option or give a value [item 0]',
		],
		[
			'Webhook Endpoint Get Many: URL from an expression that gives ""',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { url: '={{ "" }}' } },
			'URL: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Analytics: Content Resource by ID from an expression that gives ""',
			{
				resource: 'analytics',
				operation: 'getChannels',
				days: 7,
				filters: { resourceId: rl('={{ $json.resource ?? "" }}') },
			},
			'Content Resource: is empty; remove the filter or give a value [item 0]',
		],
	];

	test.each(cases)('%s', async (_name, parameters, message) => {
		const result = await bed.run(parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(message);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.items).toEqual([]);
		expect(await bed.requests()).toEqual([]);
	});

	test('Lead Get Many: Search = {{ $json.email }} with a missing e-mail names item 2, which sends nothing', async () => {
		await bed.api.post('/v1/leads', { email: 'ada@example.com' });
		await bed.api.post('/v1/leads', { email: 'bob@example.org' });
		await bed.clearRequests();

		const result = await bed.run(
			{ resource: 'lead', operation: 'getAll', filters: { q: '={{ $json.email }}' } },
			{ input: [{ json: { email: 'ada@' } }, { json: { email: 'bob@' } }, { json: {} }] },
		);

		expect(result.error?.message).toBe(
			'Search: is empty; remove the filter or give a value [item 2]',
		);
		expect(result.error?.context?.itemIndex).toBe(2);
		// Only items 0 and 1 were requested, each with its own search; no request without `q`.
		expect(await sentQueries()).toEqual([
			expect.objectContaining({ q: 'ada@' }),
			expect.objectContaining({ q: 'bob@' }),
		]);
	});

	test('with Continue On Fail the empty filter fails its item only and the others are still narrowed', async () => {
		await bed.api.post('/v1/leads', { email: 'ada@example.com' });
		await bed.api.post('/v1/leads', { email: 'bob@example.org' });
		await bed.clearRequests();

		const result = await bed.run(
			{ resource: 'lead', operation: 'getAll', filters: { q: '={{ $json.email }}' } },
			{ input: [{ json: {} }, { json: { email: 'bob@' } }], continueOnFail: true },
		);

		expect(result.error).toBeUndefined();
		const [failed, bob] = jsonOf(result);
		expect(failed.error).toBe('Search: is empty; remove the filter or give a value [item 0]');
		expect(bob).toMatchObject({ email: 'bob@example.org' });
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(await sentQueries()).toEqual([expect.objectContaining({ q: 'bob@' })]);
	});

	test('filters that have values are still sent (trimmed)', async () => {
		const resource = await bed.createResource({ title: 'Report', tags: ['report'] }, 'published');
		await bed.clearRequests();
		await bed.run({
			resource: 'lead',
			operation: 'getAll',
			filters: { q: ' ada ', source_resource_id: String(resource.id) },
		});
		await bed.run({
			resource: 'contentResource',
			operation: 'getAll',
			filters: { q: ' Rep ', tag: 'report' },
		});
		await bed.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			filters: { event: ' lead.created ', url: 'https://h.example.com/x' },
		});
		await bed.run({
			resource: 'analytics',
			operation: 'getOverview',
			days: 7,
			filters: { resourceId: rl(String(resource.id)) },
		});

		const [lead, contentResource, webhook, analytics] = await sentQueries();
		expect(lead).toMatchObject({ q: 'ada', source_resource_id: resource.id });
		expect(contentResource).toMatchObject({ q: 'Rep', tag: 'report' });
		expect(webhook).toMatchObject({ event: 'lead.created', url: 'https://h.example.com/x' });
		expect(analytics).toMatchObject({ resource_id: resource.id });
	});
});
