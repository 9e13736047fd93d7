// Spec "Content resource" and "Content resource status", docs/api-contract.md §6: fields, lifecycle, public link.
import {
	CTA_A,
	CTA_B,
	expectError,
	ISO_SECONDS,
	useSandbox,
	type ListPage,
	type Resource,
} from '../support/sandbox-client';

const sandbox = useSandbox();

const TYPES = ['article', 'pdf', 'video', 'ebook', 'whitepaper', 'webinar', 'infographic'];

async function publish(resource: Resource): Promise<Resource> {
	const answer = await sandbox.api.post<Resource>(`/v1/resources/${resource.id}/publish`);
	expect(answer.status).toBe(200);
	return answer.body;
}

async function archive(resource: Resource): Promise<Resource> {
	const answer = await sandbox.api.post<Resource>(`/v1/resources/${resource.id}/archive`);
	expect(answer.status).toBe(200);
	return answer.body;
}

async function publicLink(
	url: string,
): Promise<{ status: number; text: string; type: string | null }> {
	const response = await fetch(url);
	return {
		status: response.status,
		text: await response.text(),
		type: response.headers.get('content-type'),
	};
}

describe('Resources: create with JSON', () => {
	test('POST /v1/resources answers 201 with status draft and the contract defaults', async () => {
		const answer = await sandbox.api.post<Resource>('/v1/resources', {
			title: 'State of B2B Content 2026',
			type: 'pdf',
		});
		expect(answer.status).toBe(201);
		const r = answer.body;
		expect(Object.keys(r)).toEqual([
			'id',
			'title',
			'type',
			'description',
			'tags',
			'cta_id',
			'track_visitors',
			'status',
			'url',
			'preview_url',
			'file',
			'created_at',
			'updated_at',
			'published_at',
			'archived_at',
		]);
		expect(r).toMatchObject({
			description: null,
			tags: [],
			cta_id: null,
			track_visitors: true,
			status: 'draft',
			file: null,
			published_at: null,
			archived_at: null,
		});
		expect(r.id).toMatch(/^res_[a-z0-9]{16}$/);
		expect(r.url).toBe(`${sandbox.url}/c/${r.id}`);
		expect(r.preview_url).toMatch(new RegExp(`^${sandbox.url}/c/${r.id}\\?preview=[a-z0-9]+$`));
		expect(r.created_at).toMatch(ISO_SECONDS);
	});

	test.each(TYPES)('type %s is accepted', async (type) => {
		expect((await sandbox.createResource({ type })).type).toBe(type);
	});

	test('an unknown type is 400 type; title and type are required', async () => {
		expectError(
			await sandbox.api.post('/v1/resources', { title: 'x', type: 'podcast' }),
			400,
			'invalid_params',
			'type',
		);
		expectError(
			await sandbox.api.post('/v1/resources', { type: 'article' }),
			400,
			'invalid_params',
			'title',
		);
		expectError(
			await sandbox.api.post('/v1/resources', { title: 'x' }),
			400,
			'invalid_params',
			'type',
		);
	});

	test('all optional fields are stored', async () => {
		const r = await sandbox.createResource({
			description: 'About',
			tags: ['a', 'b'],
			cta_id: CTA_A,
			track_visitors: false,
		});
		expect(r).toMatchObject({
			description: 'About',
			tags: ['a', 'b'],
			cta_id: CTA_A,
			track_visitors: false,
		});
	});

	test.each([
		['id', 'res_abcdefabcdefabcd'],
		['status', 'published'],
		['url', 'https://x.example/c/1'],
		['preview_url', 'https://x.example'],
		['file', { name: 'a.pdf' }],
		['created_at', '2026-01-01T00:00:00Z'],
		['updated_at', '2026-01-01T00:00:00Z'],
		['published_at', '2026-01-01T00:00:00Z'],
		['archived_at', '2026-01-01T00:00:00Z'],
	])('read-only field %s on create is 400 naming it', async (field, value) => {
		const before = await sandbox.snapshot();
		expectError(
			await sandbox.api.post('/v1/resources', { title: 'x', type: 'article', [field]: value }),
			400,
			'invalid_params',
			field,
		);
		expect(await sandbox.snapshot()).toBe(before);
	});

	test('field limits: title 1..200, description ≤ 5,000, tags ≤ 20 of 1..50 chars, cta_id of the account', async () => {
		const post = (fields: object) =>
			sandbox.api.post('/v1/resources', { title: 'x', type: 'article', ...fields });
		expectError(await post({ title: '' }), 400, 'invalid_params', 'title');
		expectError(await post({ title: 'x'.repeat(201) }), 400, 'invalid_params', 'title');
		expectError(
			await post({ description: 'x'.repeat(5001) }),
			400,
			'invalid_params',
			'description',
		);
		expectError(
			await post({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }),
			400,
			'invalid_params',
			'tags',
		);
		expectError(await post({ tags: ['ok', 'x'.repeat(51)] }), 400, 'invalid_params', 'tags.1');
		expectError(await post({ tags: 'report' }), 400, 'invalid_params', 'tags');
		expectError(await post({ track_visitors: 'yes' }), 400, 'invalid_params', 'track_visitors');
		expectError(await post({ cta_id: 'cta_doesnotexist0000' }), 400, 'invalid_params', 'cta_id');
		expectError(await post({ cta_id: CTA_B }), 400, 'invalid_params', 'cta_id');
		expectError(await post({ cta_id: 'res_abc' }), 400, 'invalid_params', 'cta_id');
	});
});

describe('States: resource lifecycle draft → published → archived (contract §6)', () => {
	test('publish: draft → published, published_at set, preview_url gone, visible', async () => {
		const draft = await sandbox.createResource();
		await sandbox.control.post('/_sandbox/clock/advance', { seconds: 3 });
		const published = await publish(draft);
		expect(published).toMatchObject({ status: 'published', preview_url: null, archived_at: null });
		expect(published.published_at).toMatch(ISO_SECONDS);
		expect(published.updated_at > draft.updated_at).toBe(true);
		expect((await publicLink(published.url)).status).toBe(200);
	});

	test('archive: published → archived, archived_at set, original link 404', async () => {
		const published = await publish(await sandbox.createResource());
		const archived = await archive(published);
		expect(archived).toMatchObject({ status: 'archived', published_at: published.published_at });
		expect(archived.archived_at).toMatch(ISO_SECONDS);
		expect((await publicLink(archived.url)).status).toBe(404);
	});

	test('refused: publish of a published resource is 409 invalid_state', async () => {
		const published = await publish(await sandbox.createResource());
		expectError(
			await sandbox.api.post(`/v1/resources/${published.id}/publish`),
			409,
			'invalid_state',
		);
		expect((await sandbox.api.get<Resource>(`/v1/resources/${published.id}`)).body).toEqual(
			published,
		);
	});

	test('refused: archive of a draft is 409 invalid_state', async () => {
		const draft = await sandbox.createResource();
		expectError(await sandbox.api.post(`/v1/resources/${draft.id}/archive`), 409, 'invalid_state');
		expect((await sandbox.api.get<Resource>(`/v1/resources/${draft.id}`)).body.status).toBe(
			'draft',
		);
	});

	test('refused: no transition leaves archived (publish, archive, PUT are 409 invalid_state)', async () => {
		const archived = await archive(await publish(await sandbox.createResource()));
		expectError(
			await sandbox.api.post(`/v1/resources/${archived.id}/publish`),
			409,
			'invalid_state',
		);
		expectError(
			await sandbox.api.post(`/v1/resources/${archived.id}/archive`),
			409,
			'invalid_state',
		);
		expectError(
			await sandbox.api.put(`/v1/resources/${archived.id}`, { title: 'New' }),
			409,
			'invalid_state',
		);
		expect((await sandbox.api.get<Resource>(`/v1/resources/${archived.id}`)).body).toEqual(
			archived,
		);
	});

	test('delete: 200 { id, deleted: true } from any state; irreversible: 404 everywhere afterwards', async () => {
		for (const state of ['draft', 'published', 'archived']) {
			let r = await sandbox.createResource();
			if (state !== 'draft') r = await publish(r);
			if (state === 'archived') r = await archive(r);
			const answer = await sandbox.api.delete(`/v1/resources/${r.id}`);
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ id: r.id, deleted: true });
			expectError(await sandbox.api.get(`/v1/resources/${r.id}`), 404, 'not_found');
			expectError(await sandbox.api.delete(`/v1/resources/${r.id}`), 404, 'not_found');
			expectError(await sandbox.api.post(`/v1/resources/${r.id}/publish`), 404, 'not_found');
			expectError(await sandbox.api.put(`/v1/resources/${r.id}`, { title: 'x' }), 404, 'not_found');
			expect((await publicLink(r.url)).status).toBe(404);
			const list = (await sandbox.api.get<ListPage<Resource>>('/v1/resources?limit=100')).body;
			expect(list.data.map((x) => x.id)).not.toContain(r.id);
		}
	});

	test('leads keep their source_resource_id after the resource is deleted', async () => {
		await sandbox.reset();
		const r = await sandbox.createResource();
		expect((await sandbox.control.post('/_sandbox/seed', { seed: 5, leads: 10 })).status).toBe(201);
		await sandbox.api.delete(`/v1/resources/${r.id}`);
		const leads = await sandbox.allLeads();
		expect(leads.some((l) => l.source_resource_id === r.id)).toBe(true);
	});
});

describe('Resources: public link GET /c/{id}', () => {
	test('draft: 404, unless ?preview=<token> matches (200, an HTML page)', async () => {
		const draft = await sandbox.createResource({ title: 'Secret <draft>' });
		expect((await publicLink(draft.url)).status).toBe(404);
		expect((await publicLink(`${draft.url}?preview=wrongtoken`)).status).toBe(404);
		const preview = await publicLink(draft.preview_url as string);
		expect(preview.status).toBe(200);
		expect(preview.type).toContain('text/html');
		expect(preview.text).toContain('Secret &#60;draft&#62;');
	});

	test('published: 200 HTML (tracking parameters in the link are fine); the preview token no longer matters', async () => {
		const draft = await sandbox.createResource({ title: 'Public', cta_id: CTA_A });
		await publish(draft);
		const page = await publicLink(`${draft.url}?utm_source=newsletter`);
		expect(page.status).toBe(200);
		expect(page.text).toContain('<h1>Public</h1>');
		expect((await publicLink(draft.preview_url as string)).status).toBe(200);
	});

	test('archived, deleted and unknown ids: 404', async () => {
		const archived = await archive(await publish(await sandbox.createResource()));
		expect((await publicLink(archived.url)).status).toBe(404);
		expect((await publicLink(`${sandbox.url}/c/res_doesnotexist0000`)).status).toBe(404);
		expect((await publicLink(`${sandbox.url}/c/whatever`)).status).toBe(404);
	});
});

describe('Resources: update with PUT (partial)', () => {
	test('fields not sent keep their value; null clears description and cta_id', async () => {
		const r = await sandbox.createResource({ description: 'D', tags: ['t'], cta_id: CTA_A });
		const answer = await sandbox.api.put<Resource>(`/v1/resources/${r.id}`, {
			title: 'Renamed',
			description: null,
			cta_id: null,
		});
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			title: 'Renamed',
			description: null,
			cta_id: null,
			tags: ['t'],
			type: 'article',
			status: 'draft',
		});
		const published = await publish(answer.body);
		expect(
			(
				await sandbox.api.put<Resource>(`/v1/resources/${r.id}`, {
					tags: ['x'],
					track_visitors: false,
				})
			).body,
		).toMatchObject({
			status: 'published',
			tags: ['x'],
			track_visitors: false,
			title: published.title,
		});
	});

	test('PUT needs a non-empty body; read-only fields and bad values are 400', async () => {
		const r = await sandbox.createResource();
		expectError(await sandbox.api.put(`/v1/resources/${r.id}`, {}), 400, 'invalid_params', 'body');
		expectError(
			await sandbox.api.put(`/v1/resources/${r.id}`, { status: 'published' }),
			400,
			'invalid_params',
			'status',
		);
		expectError(
			await sandbox.api.put(`/v1/resources/${r.id}`, { title: null }),
			400,
			'invalid_params',
			'title',
		);
		expectError(
			await sandbox.api.put(`/v1/resources/${r.id}`, { type: 'podcast' }),
			400,
			'invalid_params',
			'type',
		);
		expectError(
			await sandbox.api.put(`/v1/resources/${r.id}`, { cta_id: CTA_B }),
			400,
			'invalid_params',
			'cta_id',
		);
		expect((await sandbox.api.get<Resource>(`/v1/resources/${r.id}`)).body).toEqual(r);
	});
});

describe('Resources: list query (contract §4)', () => {
	beforeAll(async () => {
		await sandbox.reset();
		await sandbox.createResource({ title: 'Alpha guide', type: 'article', tags: ['guide'] });
		await publish(
			await sandbox.createResource({ title: 'Beta report', type: 'pdf', tags: ['report'] }),
		);
		await archive(
			await publish(
				await sandbox.createResource({ title: 'Gamma video', type: 'video', tags: ['guide'] }),
			),
		);
	});

	const titles = async (query: string) =>
		(await sandbox.api.get<ListPage<Resource>>(`/v1/resources?${query}`)).body.data.map(
			(r) => r.title,
		);

	test('filters status, type, tag, q and sort by title', async () => {
		expect(await titles('')).toEqual(['Gamma video', 'Beta report', 'Alpha guide']);
		expect(await titles('status=published')).toEqual(['Beta report']);
		expect(await titles('type=video')).toEqual(['Gamma video']);
		expect(await titles('tag=guide&sort=title&order=asc')).toEqual(['Alpha guide', 'Gamma video']);
		expect(await titles('q=REPORT')).toEqual(['Beta report']);
		expectError(
			await sandbox.api.get('/v1/resources?status=deleted'),
			400,
			'invalid_params',
			'status',
		);
		expectError(await sandbox.api.get('/v1/resources?type=podcast'), 400, 'invalid_params', 'type');
		expectError(await sandbox.api.get('/v1/resources?sort=status'), 400, 'invalid_params', 'sort');
	});
});
