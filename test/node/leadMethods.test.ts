// The node's list searches and load options, called as n8n's editor calls them: through n8n-core's
// LoadOptionsContext for a node of a workflow, with the credential from the harness.
import { LoadOptionsContext } from 'n8n-core';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { createAdditionalData } from '../harness/additional-data';
import { CREDENTIAL, NodeTestBed } from './contentMarketingRun';

const bed = NodeTestBed.forFile();

beforeEach(() => {
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
});

function context(parameterPath = 'parameters.leadId'): ILoadOptionsFunctions {
	const node: INode = {
		id: 'cm',
		name: 'Content Marketing',
		type: bed.nodeType,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'lead', operation: 'get' },
		credentials: { [CREDENTIAL]: { id: '1', name: 'Content Marketing account' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: bed.harness.nodeTypes });
	const additionalData = createAdditionalData({ credentialsHelper: bed.harness.credentials, urls: bed.harness.urls() });
	return new LoadOptionsContext(workflow, node, additionalData, parameterPath);
}

function nodeType(): INodeType {
	return NodeHelpers.getVersionedNodeType(bed.harness.nodeTypes.getByName(bed.nodeType), 1);
}

async function listSearch(method: string, filter?: string, token?: string): Promise<INodeListSearchResult> {
	const search = nodeType().methods?.listSearch?.[method];
	if (search === undefined) throw new Error(`no list search ${method}`);
	return await search.call(context(), filter, token);
}

async function loadOptions(method: string): Promise<INodePropertyOptions[]> {
	const load = nodeType().methods?.loadOptions?.[method];
	if (load === undefined) throw new Error(`no load options ${method}`);
	return await load.call(context());
}

describe('list searches', () => {
	test('searchLeads: server-side search by q and paging by token', async () => {
		await bed.control('POST', '/_sandbox/seed', { seed: 5, leads: 120, resources: 2 });
		const first = await listSearch('searchLeads');
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toEqual(expect.any(String));
		const second = await listSearch('searchLeads', undefined, String(first.paginationToken));
		expect(second.results).toHaveLength(50);
		expect(new Set([...first.results, ...second.results].map((result) => result.value)).size).toBe(100);
		expect(String(first.results[0].value)).toMatch(/^lead_/);
		expect(first.results[0].name).toMatch(/<.+@.+>$/);

		await bed.api('POST', '/v1/leads', { email: 'zelda@findme.example', name: 'Zelda Find' });
		const found = await listSearch('searchLeads', 'findme');
		expect(found.results).toEqual([{ name: 'Zelda Find <zelda@findme.example>', value: expect.stringMatching(/^lead_/) }]);
		expect(found.paginationToken).toBeUndefined();
		const requests = await bed.requests();
		expect(requests.at(-1)).toMatchObject({ path: '/v1/leads' });
	});

	test('searchResources gives the public link as the URL', async () => {
		await bed.createResource({ title: 'State of B2B Content' });
		const { results } = await listSearch('searchResources', 'b2b');
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({ name: 'State of B2B Content (article, draft)', value: expect.stringMatching(/^res_/) });
		expect(results[0].url).toMatch(/\/c\/res_/);
	});

	test('searchWebhookEndpoints filters by URL and description', async () => {
		await bed.api('POST', '/v1/webhooks', { url: 'https://a.example.com/x', events: ['lead.created'], description: 'CRM bridge' });
		await bed.api('POST', '/v1/webhooks', { url: 'https://b.example.com/y', events: ['lead.created'] });
		expect((await listSearch('searchWebhookEndpoints')).results).toHaveLength(2);
		const byDescription = await listSearch('searchWebhookEndpoints', 'crm');
		expect(byDescription.results).toEqual([{ name: 'CRM bridge (https://a.example.com/x)', value: expect.stringMatching(/^wh_/) }]);
		expect((await listSearch('searchWebhookEndpoints', 'b.example')).results.map((result) => result.name)).toEqual([
			'https://b.example.com/y',
		]);
	});
});

describe('load options', () => {
	test('getUsers lists the account\'s users by name; getAssignees adds "Nobody"', async () => {
		const users = await loadOptions('getUsers');
		const expected = (await bed.api<{ data: IDataObject[] }>('GET', '/v1/users?limit=100')).body.data;
		expect(users.map((user) => user.value).sort()).toEqual(expected.map((user) => user.id).sort());
		expect(users.map((user) => user.name)).toEqual([...users.map((user) => user.name)].sort((a, b) => a.localeCompare(b)));
		expect(users[0].name).toMatch(/\((owner|admin|member)\)$/);

		const assignees = await loadOptions('getAssignees');
		expect(assignees[0]).toEqual({ name: 'Nobody (Unassign)', value: '__unassign__' });
		expect(assignees.slice(1)).toEqual(users);
	});

	test('getCtas lists the account\'s CTAs', async () => {
		const ctas = await loadOptions('getCtas');
		expect(ctas).toHaveLength(3);
		expect(ctas.every((cta) => String(cta.value).startsWith('cta_'))).toBe(true);
	});

	test('getEventTypes lists the service\'s event types, named as the trigger names them, and the known two when the call fails', async () => {
		const types = await loadOptions('getEventTypes');
		expect(types.map((type) => type.value)).toEqual(['lead.created', 'lead.status_updated']);
		expect(types.map((type) => type.name)).toEqual(['Lead Created', 'Lead Status Updated']);
		expect(types[0].description).toBe('A lead was created');

		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.expired, baseUrl: bed.url });
		const fallback = await loadOptions('getEventTypes');
		expect(fallback.map((type) => type.value)).toEqual(['lead.created', 'lead.status_updated']);
		expect(fallback.map((type) => type.name)).toEqual(['Lead Created', 'Lead Status Updated']);
	});

	test('a failing load shows the service error, without the key', async () => {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.expired, baseUrl: bed.url });
		const failure = loadOptions('getUsers');
		await expect(failure).rejects.toThrow(/\(unauthorized\)$/);
		await failure.catch((error: unknown) => {
			expect(JSON.stringify(error)).not.toContain(bed.keys.expired);
		});
	});
});
