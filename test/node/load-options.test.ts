// The node's load options (users, assignees, CTAs, event types), called as n8n's editor calls them.
import type { IDataObject } from 'n8n-workflow';

import { loadOptions } from './editor-methods';
import { CREDENTIAL, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

beforeEach(() => {
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: bed.url });
});

describe('load options', () => {
	test('getUsers lists the account\'s users by name; getAssignees adds "Nobody"', async () => {
		const users = await loadOptions(bed, 'getUsers');
		const expected = (await bed.api.get<{ data: IDataObject[] }>('/v1/users?limit=100')).body.data;
		expect(users.map((user) => user.value).sort()).toEqual(expected.map((user) => user.id).sort());
		expect(users.map((user) => user.name)).toEqual(
			[...users.map((user) => user.name)].sort((a, b) => a.localeCompare(b)),
		);
		expect(users[0].name).toMatch(/\((owner|admin|member)\)$/);

		const assignees = await loadOptions(bed, 'getAssignees');
		expect(assignees[0]).toEqual({ name: 'Nobody (Unassign)', value: '__unassign__' });
		expect(assignees.slice(1)).toEqual(users);
	});

	test("getCtas lists the account's CTAs", async () => {
		const ctas = await loadOptions(bed, 'getCtas');
		expect(ctas).toHaveLength(3);
		expect(ctas.every((cta) => String(cta.value).startsWith('cta_'))).toBe(true);
	});

	test("getEventTypes lists the service's event types, named as the trigger names them, and the known two when the call fails", async () => {
		const types = await loadOptions(bed, 'getEventTypes');
		expect(types.map((type) => type.value)).toEqual(['lead.created', 'lead.status_updated']);
		expect(types.map((type) => type.name)).toEqual(['Lead Created', 'Lead Status Updated']);
		expect(types[0].description).toBe('A lead was created');

		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.expired, baseUrl: bed.url });
		const fallback = await loadOptions(bed, 'getEventTypes');
		expect(fallback.map((type) => type.value)).toEqual(['lead.created', 'lead.status_updated']);
		expect(fallback.map((type) => type.name)).toEqual(['Lead Created', 'Lead Status Updated']);
	});

	test('a failing load shows the service error, without the key', async () => {
		bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.expired, baseUrl: bed.url });
		const failure = loadOptions(bed, 'getUsers');
		await expect(failure).rejects.toThrow(/\(unauthorized\)$/);
		await failure.catch((error: unknown) => {
			expect(JSON.stringify(error)).not.toContain(bed.keys.expired);
		});
	});
});
