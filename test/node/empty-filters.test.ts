// A filter (or option) the user added but left empty is refused before any request, naming the field and the
// item: dropping it would silently return a wider result than asked for. n8n fills an added option with its
// default, so an added-but-untouched string filter arrives as '' and must fail too.
// Also: Webhook Endpoint "Active" read from an expression ("true"/"false" text), anything else refused.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string, mode = 'id') => ({ __rl: true, mode, value });

async function sentQueries(): Promise<Array<Record<string, string>>> {
	return (await bed.requests()).map((request) => Object.fromEntries(new URLSearchParams(request.query)));
}

describe('an added but empty filter fails before any request', () => {
	const cases: Array<[name: string, parameters: INodeParameters, message: string]> = [
		[
			'Lead Get Many: Search added and left at its default',
			{ resource: 'lead', operation: 'getAll', filters: { q: '' } },
			'Search: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Lead Get Many: Source Resource ID blank',
			{ resource: 'lead', operation: 'getAll', filters: { source_resource_id: '   ' } },
			'Source Resource ID: is empty; remove the filter or give a value [item 0]',
		],
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
			'Lead Get Many: Sort By option empty',
			{ resource: 'lead', operation: 'getAll', options: { sort: '={{ "" }}' } },
			'Sort By: is empty; remove the option or give a value [item 0]',
		],
		[
			'Content Resource Get Many: Search added and left at its default',
			{ resource: 'contentResource', operation: 'getAll', filters: { q: '' } },
			'Search: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Content Resource Get Many: Tag blank',
			{ resource: 'contentResource', operation: 'getAll', filters: { status: 'published', tag: ' ' } },
			'Tag: is empty; remove the filter or give a value [item 0]',
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
			'Webhook Endpoint Get Many: Event added and left at its default',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { event: '' } },
			'Event: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Webhook Endpoint Get Many: URL added and left at its default',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: true, url: '' } },
			'URL: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Analytics: Content Resource filter added, nothing chosen from the list',
			{ resource: 'analytics', operation: 'getOverview', days: 7, filters: { resourceId: rl('', 'list') } },
			'Content Resource: is empty; remove the filter or give a value [item 0]',
		],
		[
			'Analytics: Content Resource by ID from an expression that gives ""',
			{ resource: 'analytics', operation: 'getChannels', days: 7, filters: { resourceId: rl('={{ $json.resource ?? "" }}') } },
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

		expect(result.error?.message).toBe('Search: is empty; remove the filter or give a value [item 2]');
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
		await bed.run({ resource: 'lead', operation: 'getAll', filters: { q: ' ada ', source_resource_id: String(resource.id) } });
		await bed.run({ resource: 'contentResource', operation: 'getAll', filters: { q: ' Rep ', tag: 'report' } });
		await bed.run({ resource: 'webhookEndpoint', operation: 'getAll', filters: { event: ' lead.created ', url: 'https://h.example.com/x' } });
		await bed.run({ resource: 'analytics', operation: 'getOverview', days: 7, filters: { resourceId: rl(String(resource.id)) } });

		const [lead, contentResource, webhook, analytics] = await sentQueries();
		expect(lead).toMatchObject({ q: 'ada', source_resource_id: resource.id });
		expect(contentResource).toMatchObject({ q: 'Rep', tag: 'report' });
		expect(webhook).toMatchObject({ event: 'lead.created', url: 'https://h.example.com/x' });
		expect(analytics).toMatchObject({ resource_id: resource.id });
	});
});

describe('Webhook Endpoint: Active from an expression', () => {
	const CREATE = {
		resource: 'webhookEndpoint',
		operation: 'create',
		url: 'https://hooks.example.com/content-marketing',
		events: ['lead.created'],
	};

	async function storedActive(id: unknown): Promise<unknown> {
		return (await bed.api.get(`/v1/webhooks/${String(id)}`)).body.active;
	}

	test('Create: the text "true" and "false" are read as booleans', async () => {
		const result = await bed.run(
			{ ...CREATE, additionalFields: { active: '={{ $json.active }}' } },
			{ input: [{ json: { active: 'true' } }, { json: { active: 'false' } }, { json: { active: ' TRUE ' } }] },
		);
		expect(result.error).toBeUndefined();
		const created = jsonOf(result);
		expect(created.map((endpoint) => endpoint.active)).toEqual([true, false, true]);
		expect(await Promise.all(created.map(async (endpoint) => await storedActive(endpoint.id)))).toEqual([true, false, true]);
	});

	test('Update: the text "true" activates an inactive endpoint', async () => {
		const endpoint = (await bed.api.post('/v1/webhooks', { url: 'https://h.example.com/x', events: ['lead.created'], active: false })).body;
		const result = await bed.run(
			{ resource: 'webhookEndpoint', operation: 'update', webhookId: rl(String(endpoint.id)), updateFields: { active: '={{ $json.active }}' } },
			{ input: [{ json: { active: 'true' } }] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].active).toBe(true);
		expect(await storedActive(endpoint.id)).toBe(true);
	});

	test('Get Many: the Active filter from the text "false" asks for inactive endpoints', async () => {
		await bed.api.post('/v1/webhooks', { url: 'https://a.example.com/x', events: ['lead.created'], active: false });
		await bed.api.post('/v1/webhooks', { url: 'https://b.example.com/x', events: ['lead.created'] });
		await bed.clearRequests();
		const result = await bed.run({ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: '={{ "false" }}' } });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((endpoint: IDataObject) => endpoint.url)).toEqual(['https://a.example.com/x']);
		expect(await sentQueries()).toEqual([expect.objectContaining({ active: 'false' })]);
	});

	const refused: Array<[name: string, parameters: INodeParameters, message: string]> = [
		['Create: "yes"', { ...CREATE, additionalFields: { active: '={{ "yes" }}' } }, 'Active: expected true or false, got "yes" [item 0]'],
		['Create: 1', { ...CREATE, additionalFields: { active: '={{ 1 }}' } }, 'Active: expected true or false, got 1 [item 0]'],
		[
			'Update: ""',
			{ resource: 'webhookEndpoint', operation: 'update', webhookId: rl('wh_abc123'), updateFields: { active: '={{ "" }}' } },
			'Active: expected true or false, got nothing [item 0]',
		],
		[
			'Get Many: "no"',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: '={{ "no" }}' } },
			'Active: expected true or false, got "no" [item 0]',
		],
		[
			'Get Many: ""',
			{ resource: 'webhookEndpoint', operation: 'getAll', filters: { active: '={{ "" }}' } },
			'Active: is empty; remove the filter or give a value [item 0]',
		],
	];

	test.each(refused)('refused: %s', async (_name, parameters, message) => {
		const result = await bed.run(parameters);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toBe(message);
		expect(await bed.requests()).toEqual([]);
	});
});
