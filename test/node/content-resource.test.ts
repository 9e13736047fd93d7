// Content Resource operations as workflows: harness (n8n-core WorkflowExecute, built node from dist/) → sandbox.
// Binary data is stored on the filesystem here, so uploads go through the streaming path.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { binary } from '../harness';
import { NodeTestBed, errorKind, errorText, jsonOf } from './node-test-bed';

const RESOURCE = { resource: 'contentResource' };
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

const bed = NodeTestBed.forFile();

function pdfItem(
	content: string | Buffer,
	fileName = 'report.pdf',
	json: IDataObject = {},
): INodeExecutionData {
	return { json, binary: { data: binary(content, { mimeType: 'application/pdf', fileName }) } };
}

describe('Create', () => {
	it('creates a draft from fields, with tags, CTA and tracking off', async () => {
		const ctaId = await bed.ctaId();
		const result = await bed.run({
			...RESOURCE,
			operation: 'create',
			inputData: 'fields',
			title: 'How to Build a Content Engine',
			type: 'article',
			trackVisitors: false,
			additionalFields: { description: 'A guide.', tags: 'guide, b2b , guide', ctaId },
		});
		expect(result.error).toBeUndefined();
		const [created] = jsonOf(result);
		expect(created).toMatchObject({
			title: 'How to Build a Content Engine',
			type: 'article',
			status: 'draft',
			description: 'A guide.',
			tags: ['guide', 'b2b'],
			cta_id: ctaId,
			track_visitors: false,
			file: null,
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		const stored = await bed.api.get(`/v1/resources/${String(created.id)}`);
		expect(stored.body).toEqual(created);
	});

	it('uploads binary files as multipart (streamed), one resource per item, named and sized from the binary data', async () => {
		const first = Buffer.alloc(200_000, 1);
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'create',
				inputData: 'binary',
				binaryPropertyName: 'data',
				title: '={{ $json.title }}',
				type: 'pdf',
				trackVisitors: true,
				additionalFields: { tags: '={{ $json.tags }}', description: 'Yearly report' },
			},
			{
				input: [
					pdfItem(first, 'report 2026.pdf', {
						title: 'State of B2B Content 2026',
						tags: ['report', 'b2b'],
					}),
					pdfItem('%PDF-1.7 small', 'Bericht über Ümläute.pdf', {
						title: 'Kleiner Bericht',
						tags: 'bericht',
					}),
				],
			},
		);
		expect(result.error).toBeUndefined();
		const output = jsonOf(result);
		expect(output).toHaveLength(2);
		expect(output[0]).toMatchObject({
			title: 'State of B2B Content 2026',
			type: 'pdf',
			status: 'draft',
			tags: ['report', 'b2b'],
			description: 'Yearly report',
			track_visitors: true,
			file: { name: 'report 2026.pdf', size: 200_000, mime_type: 'application/pdf' },
		});
		expect(output[1]).toMatchObject({
			title: 'Kleiner Bericht',
			tags: ['bericht'],
			file: { name: 'Bericht über Ümläute.pdf', size: 14, mime_type: 'application/pdf' },
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const stored = await bed.api.get(`/v1/resources/${String(output[0].id)}`);
		expect(stored.body.file).toEqual({
			name: 'report 2026.pdf',
			size: 200_000,
			mime_type: 'application/pdf',
		});
	});

	it('refuses, before any request, a binary field the item does not have', async () => {
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'create',
				inputData: 'binary',
				binaryPropertyName: 'file',
				title: 'Report',
				type: 'pdf',
			},
			{ input: [pdfItem('x')] },
		);
		expect(result.error?.message).toBe(
			'Input Binary Field: the item has no binary field "file" (it has "data") [item 0]',
		);
		expect(await bed.requests()).toEqual([]);
	});

	it.each([
		['Title', { title: '  ' }, 'Title: is required [item 0]'],
		[
			'Title',
			{ title: 'x'.repeat(201) },
			'Title: must be at most 200 characters (got 201) [item 0]',
		],
		[
			'Type',
			{ type: '={{ "podcast" }}' },
			'Type: expected one of article, pdf, video, ebook, whitepaper, webinar, infographic, got "podcast" [item 0]',
		],
		[
			'Tags',
			{ additionalFields: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') } },
			'Tags: at most 20 tags are allowed (got 21) [item 0]',
		],
		[
			'Tags',
			{ additionalFields: { tags: 'y'.repeat(51) } },
			'Tags: each tag must be at most 50 characters',
		],
		['CTA', { additionalFields: { ctaId: '={{ "btn_123" }}' } }, 'CTA: expected an ID like cta_'],
		[
			'Description',
			{ additionalFields: { description: 'd'.repeat(5001) } },
			'Description: must be at most 5000 characters (got 5001) [item 0]',
		],
	])('refuses a bad %s before any request', async (_field, parameters, message) => {
		const result = await bed.run({
			...RESOURCE,
			operation: 'create',
			inputData: 'fields',
			title: 'Report',
			type: 'article',
			...parameters,
		});
		expect(result.error?.message).toContain(message);
		expect(await bed.requests()).toEqual([]);
	});

	it('refuses a non-file type for an upload', async () => {
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'create',
				inputData: 'binary',
				title: 'Report',
				type: '={{ "article" }}',
			},
			{ input: [pdfItem('x')] },
		);
		expect(result.error?.message).toContain(
			'Type: expected one of pdf, video, ebook, whitepaper, infographic, got "article"',
		);
		expect(await bed.requests()).toEqual([]);
	});

	it('reports an unknown CTA with the service message as a NodeApiError', async () => {
		const result = await bed.run({
			...RESOURCE,
			operation: 'create',
			inputData: 'fields',
			title: 'Report',
			type: 'article',
			additionalFields: { ctaId: '={{ "cta_doesnotexist0000" }}' },
		});
		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '400' });
		expect(result.error?.message).toContain('cta_id: no CTA cta_doesnotexist0000 in this account');
	});
});

describe('Get', () => {
	it('gets a resource from the list, by ID and by its public link', async () => {
		const created = await bed.createResource({ title: 'Pricing Explained' });
		const id = String(created.id);
		for (const locator of [
			{ __rl: true, mode: 'list', value: id, cachedResultName: 'Pricing Explained' },
			byId(` ${id} `),
			{ __rl: true, mode: 'url', value: String(created.url) },
			{ __rl: true, mode: 'url', value: `${String(created.url)}?preview=abc` },
		]) {
			const result = await bed.run({ ...RESOURCE, operation: 'get', resourceId: locator });
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([created]);
		}
	});

	// Given by expression: a literal value the mode's own validation rejects never lets the workflow start.
	it.each([
		[
			byId('={{ "lead_123" }}'),
			'Content Resource: expected an ID like res_4f7h9k2m4n6p8r0t, got "lead_123" [item 0]',
		],
		[
			{ __rl: true, mode: 'url', value: '={{ "https://example.com/articles/42" }}' },
			'Content Resource: expected the public link of a resource',
		],
		[byId('={{ "" }}'), 'Content Resource: is required [item 0]'],
	])('refuses a bad locator %j before any request', async (locator, message) => {
		const result = await bed.run({ ...RESOURCE, operation: 'get', resourceId: locator });
		expect(result.error?.message).toContain(message);
		expect(await bed.requests()).toEqual([]);
	});

	it('reports a missing resource as a 404 NodeApiError', async () => {
		const result = await bed.run({
			...RESOURCE,
			operation: 'get',
			resourceId: byId('res_doesnotexist0000'),
		});
		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error?.message).toContain('not_found');
	});
});

describe('Get Many', () => {
	beforeEach(async () => {
		await bed.createResource({ title: 'Alpha Report', type: 'pdf', tags: ['report'] }, 'published');
		await bed.createResource({ title: 'Beta Guide', tags: ['guide'] });
		await bed.createResource({ title: 'Gamma Report', type: 'pdf', tags: ['report'] }, 'archived');
		await bed.createResource({ title: 'Delta Notes' }, 'published');
	});

	it('returns all resources over several pages, in the service order', async () => {
		await bed.control.post('/_sandbox/seed', { seed: 7, leads: 0, resources: 150 });
		const first = await bed.api.get<{ data: IDataObject[]; next_cursor: string }>(
			'/v1/resources?limit=100',
		);
		const second = await bed.api.get<{ data: IDataObject[] }>(
			`/v1/resources?limit=100&cursor=${first.body.next_cursor}`,
		);
		await bed.clearRequests();

		const result = await bed.run({ ...RESOURCE, operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([...first.body.data, ...second.body.data]);
		expect(result.items).toHaveLength(154);
		expect(result.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(
			true,
		);
		expect((await bed.requests()).map((request) => request.path)).toEqual([
			'/v1/resources',
			'/v1/resources',
		]);
	});

	it('stops at the limit', async () => {
		const result = await bed.run({ ...RESOURCE, operation: 'getAll', returnAll: false, limit: 3 });
		expect(jsonOf(result)).toHaveLength(3);
	});

	it('filters by status, type, tag and search, sorted as asked', async () => {
		const titles = async (
			filters: INodeParameters,
			options: INodeParameters = { sort: 'title', order: 'asc' },
		) =>
			jsonOf(
				await bed.run({ ...RESOURCE, operation: 'getAll', returnAll: true, filters, options }),
			).map((r) => r.title);
		expect(await titles({ status: 'published' })).toEqual(['Alpha Report', 'Delta Notes']);
		expect(await titles({ type: 'pdf' })).toEqual(['Alpha Report', 'Gamma Report']);
		expect(await titles({ tag: 'report', status: 'archived' })).toEqual(['Gamma Report']);
		expect(await titles({ q: 'REPORT' }, { sort: 'title', order: 'desc' })).toEqual([
			'Gamma Report',
			'Alpha Report',
		]);
	});

	it('refuses a bad status filter given by expression', async () => {
		await bed.clearRequests();
		const result = await bed.run({
			...RESOURCE,
			operation: 'getAll',
			returnAll: true,
			filters: { status: '={{ "live" }}' },
		});
		expect(result.error?.message).toContain(
			'Status: expected one of draft, published, archived, got "live"',
		);
		expect(await bed.requests()).toEqual([]);
	});
});

describe('Update', () => {
	it('updates metadata; empty Description and CTA clear them', async () => {
		const ctaId = await bed.ctaId();
		const created = await bed.createResource({
			title: 'Old',
			description: 'Old text',
			cta_id: ctaId,
			tags: ['a'],
		});
		const result = await bed.run({
			...RESOURCE,
			operation: 'update',
			resourceId: byId(String(created.id)),
			updateFields: {
				title: 'New',
				description: '',
				ctaId: '',
				tags: 'x, y',
				trackVisitors: false,
			},
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			id: created.id,
			title: 'New',
			description: null,
			cta_id: null,
			tags: ['x', 'y'],
			track_visitors: false,
		});
	});

	it('replaces the file from a binary field, together with metadata', async () => {
		const created = await bed.createResource({ title: 'Whitepaper', type: 'whitepaper' });
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'update',
				resourceId: byId(String(created.id)),
				updateFields: { title: 'Whitepaper v2', description: '' },
				replaceFile: true,
				binaryPropertyName: 'data',
			},
			{ input: [pdfItem(Buffer.alloc(1234, 3), 'v2.pdf')] },
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			title: 'Whitepaper v2',
			description: null,
			file: { name: 'v2.pdf', size: 1234, mime_type: 'application/pdf' },
		});
	});

	it('refuses an update without any change', async () => {
		const result = await bed.run({
			...RESOURCE,
			operation: 'update',
			resourceId: byId('res_abc0000000000000'),
			updateFields: {},
		});
		expect(result.error?.message).toBe(
			'Update Fields: nothing to update: add at least one field, or turn on "Replace File" [item 0]',
		);
		expect(await bed.requests()).toEqual([]);
	});

	it('reports the refusal of an archived resource (409) with the service message', async () => {
		const archived = await bed.createResource({ title: 'Old news' }, 'archived');
		const result = await bed.run({
			...RESOURCE,
			operation: 'update',
			resourceId: byId(String(archived.id)),
			updateFields: { title: 'Fresh news' },
		});
		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '409' });
		expect(result.error?.message).toContain('invalid_state');
	});
});

describe('Delete', () => {
	it('deletes and answers { id, deleted: true }; the resource is then gone', async () => {
		const created = await bed.createResource({ title: 'Temporary' });
		const result = await bed.run({
			...RESOURCE,
			operation: 'delete',
			resourceId: byId(String(created.id)),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ id: created.id, deleted: true }]);
		expect((await bed.api.get(`/v1/resources/${String(created.id)}`)).status).toBe(404);
	});
});

describe('Publish and Archive', () => {
	it('publishes a draft and archives it, then refuses both again with the service messages', async () => {
		const created = await bed.createResource({ title: 'Launch post' });
		const locator = byId(String(created.id));

		const published = await bed.run({ ...RESOURCE, operation: 'publish', resourceId: locator });
		expect(published.error).toBeUndefined();
		expect(jsonOf(published)[0]).toMatchObject({
			id: created.id,
			status: 'published',
			preview_url: null,
		});
		expect(jsonOf(published)[0].published_at).toEqual(expect.any(String));

		const again = await bed.run({ ...RESOURCE, operation: 'publish', resourceId: locator });
		expect(errorKind(again)).toEqual({ name: 'NodeApiError', httpCode: '409' });
		const directPublish = await bed.api.post<{ error: { message: string } }>(
			`/v1/resources/${String(created.id)}/publish`,
		);
		expect(again.error?.message).toContain(directPublish.body.error.message);

		const archived = await bed.run({ ...RESOURCE, operation: 'archive', resourceId: locator });
		expect(jsonOf(archived)[0]).toMatchObject({ id: created.id, status: 'archived' });
		expect(jsonOf(archived)[0].archived_at).toEqual(expect.any(String));
	});

	it('refuses to archive a draft (409 invalid_state)', async () => {
		const created = await bed.createResource({ title: 'Draft only' });
		const result = await bed.run({
			...RESOURCE,
			operation: 'archive',
			resourceId: byId(String(created.id)),
		});
		expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '409' });
		expect(result.error?.message).toContain('invalid_state');
		const stored = await bed.api.get(`/v1/resources/${String(created.id)}`);
		expect(stored.body.status).toBe('draft');
	});
});

describe('Continue On Fail and pairing', () => {
	it('gives an error item for a failing item and goes on, every item paired with its input', async () => {
		const draft = await bed.createResource({ title: 'Draft A' });
		const published = await bed.createResource({ title: 'Published B' }, 'published');
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'publish',
				resourceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			{
				continueOnFail: true,
				input: [
					{ json: { id: draft.id } },
					{ json: { id: published.id } },
					{ json: { id: 'nope' } },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const output = jsonOf(result);
		expect(output[0]).toMatchObject({ id: draft.id, status: 'published' });
		expect(String(output[1].error)).toContain('invalid_state');
		expect(String(output[2].error)).toContain('Content Resource: expected an ID like res_');
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('stops at the failing item without Continue On Fail, naming it', async () => {
		const result = await bed.run(
			{
				...RESOURCE,
				operation: 'get',
				resourceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			{ input: [{ json: { id: 'res_doesnotexist0001' } }] },
		);
		expect(errorText(result)).toContain('[item 0]');
	});
});
