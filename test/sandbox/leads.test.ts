// Spec "Lead" and "Lead status", docs/api-contract.md §5: fields, defaults, enums, read-only fields, transitions, filters.
import {
	CTA_A,
	expectError,
	ISO_SECONDS,
	USER_A_OWNER,
	USER_B_OWNER,
	useSandbox,
	type Lead,
	type ListPage,
} from '../support/sandbox-client';

const sandbox = useSandbox();

const STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'];
const CHANNELS = [
	'direct',
	'organic_search',
	'paid_search',
	'social',
	'email',
	'referral',
	'api',
	'import',
	'other',
];

describe('Leads: create', () => {
	test('POST /v1/leads answers 201 with the full lead object and its defaults', async () => {
		const answer = await sandbox.api.post<Lead>('/v1/leads', {
			email: 'ada@example.com',
			name: 'Ada Lovelace',
			company: 'Analytical Engines',
			job_title: 'CTO',
			custom_fields: { plan: 'enterprise', seats: 12, trial: true, note: null },
		});
		expect(answer.status).toBe(201);
		const lead = answer.body;
		expect(Object.keys(lead)).toEqual([
			'id',
			'email',
			'name',
			'company',
			'job_title',
			'phone',
			'status',
			'score',
			'source_resource_id',
			'source_channel',
			'utm',
			'behavior_summary',
			'custom_fields',
			'notes',
			'assigned_to',
			'created_at',
			'updated_at',
		]);
		expect(lead).toMatchObject({
			email: 'ada@example.com',
			name: 'Ada Lovelace',
			company: 'Analytical Engines',
			job_title: 'CTO',
			phone: null,
			status: 'new',
			score: 0,
			source_resource_id: null,
			source_channel: 'api',
			utm: { source: null, medium: null, campaign: null },
			behavior_summary: {
				total_page_views: 0,
				avg_dwell_seconds: 0,
				max_scroll_depth: 0,
				cta_clicks: 0,
			},
			custom_fields: { plan: 'enterprise', seats: 12, trial: true },
			notes: null,
			assigned_to: null,
		});
		expect(lead.id).toMatch(/^lead_[a-z0-9]{16}$/);
		expect(lead.created_at).toMatch(ISO_SECONDS);
		expect(lead.updated_at).toBe(lead.created_at);
		expect((await sandbox.api.get<Lead>(`/v1/leads/${lead.id}`)).body).toEqual(lead);
	});

	test('only email is required; absent optional strings are null', async () => {
		const lead = await sandbox.createLead({ email: 'min@example.com' });
		expect([lead.name, lead.company, lead.job_title, lead.phone]).toEqual([null, null, null, null]);
		expectError(
			await sandbox.api.post('/v1/leads', { name: 'No Mail' }),
			400,
			'invalid_params',
			'email',
		);
	});

	test.each(CHANNELS)('source_channel %s is accepted', async (channel) => {
		const lead = await sandbox.createLead({ source_channel: channel });
		expect(lead.source_channel).toBe(channel);
	});

	test('an unknown source_channel is 400 source_channel', async () => {
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'a@example.com', source_channel: 'tv' }),
			400,
			'invalid_params',
			'source_channel',
		);
	});

	test.each([
		['id', 'lead_abcdefabcdefabcd'],
		['score', 50],
		['status', 'qualified'],
		['phone', '+1 555 0100'],
		['behavior_summary', { total_page_views: 1 }],
		['utm', { source: 'x' }],
		['source_resource_id', 'res_abc'],
		['assigned_to', USER_A_OWNER],
		['notes', 'hello'],
		['created_at', '2026-01-01T00:00:00Z'],
		['updated_at', '2026-01-01T00:00:00Z'],
	])('read-only or unknown field %s on create is 400 naming it', async (field, value) => {
		const before = await sandbox.snapshot();
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'ro@example.com', [field]: value }),
			400,
			'invalid_params',
			field,
		);
		expect(await sandbox.snapshot()).toBe(before);
	});

	test('duplicate e-mails are allowed', async () => {
		const a = await sandbox.createLead({ email: 'twice@example.com' });
		const b = await sandbox.createLead({ email: 'twice@example.com' });
		expect(a.id).not.toBe(b.id);
	});

	test('custom_fields rules: key shape, value types, at most 50 keys', async () => {
		const post = (custom_fields: unknown) =>
			sandbox.api.post('/v1/leads', { email: 'cf@example.com', custom_fields });
		expectError(await post({ '1bad': 'x' }), 400, 'invalid_params', 'custom_fields.1bad');
		expectError(await post({ nested: { a: 1 } }), 400, 'invalid_params', 'custom_fields.nested');
		expectError(
			await post({ long: 'x'.repeat(1001) }),
			400,
			'invalid_params',
			'custom_fields.long',
		);
		expectError(await post(['a']), 400, 'invalid_params', 'custom_fields');
		const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
		expect((await post(fifty)).status).toBe(201);
		expectError(await post({ ...fifty, k50: 50 }), 400, 'invalid_params', 'custom_fields');
	});
});

describe('States: lead status — initial new, any status may follow any other', () => {
	test('the initial status is new', async () => {
		expect((await sandbox.createLead()).status).toBe('new');
	});

	test.each(
		STATUSES.flatMap((from) => STATUSES.filter((to) => to !== from).map((to) => [from, to])),
	)('PATCH status %s → %s is allowed', async (from, to) => {
		const lead = await sandbox.createLead();
		if (from !== 'new')
			expect(
				(await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, { status: from })).body.status,
			).toBe(from);
		const answer = await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, { status: to });
		expect(answer.status).toBe(200);
		expect(answer.body.status).toBe(to);
	});

	test('an unknown status is 400 status and changes nothing', async () => {
		const lead = await sandbox.createLead();
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'won' }),
			400,
			'invalid_params',
			'status',
		);
		expect((await sandbox.api.get<Lead>(`/v1/leads/${lead.id}`)).body).toEqual(lead);
	});
});

describe('Leads: update', () => {
	test('PATCH updates status, assigned_to, notes, custom_fields (merged, null removes) and updated_at', async () => {
		const lead = await sandbox.createLead({ custom_fields: { a: 1, b: 'two' } });
		await sandbox.control.post('/_sandbox/clock/advance', { seconds: 5 });
		const answer = await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, {
			status: 'qualified',
			assigned_to: USER_A_OWNER,
			notes: 'Called on Monday',
			custom_fields: { b: null, c: true },
		});
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			status: 'qualified',
			assigned_to: USER_A_OWNER,
			notes: 'Called on Monday',
			custom_fields: { a: 1, c: true },
			created_at: lead.created_at,
		});
		expect(answer.body.updated_at > lead.updated_at).toBe(true);
		const cleared = await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, {
			assigned_to: null,
			notes: null,
		});
		expect([cleared.body.assigned_to, cleared.body.notes]).toEqual([null, null]);
	});

	test.each([
		['email', 'new@example.com'],
		['name', 'New Name'],
		['company', 'X'],
		['job_title', 'Y'],
		['source_channel', 'email'],
		['score', 99],
		['id', 'lead_x'],
		['phone', '1'],
		['behavior_summary', {}],
		['created_at', '2026-01-01T00:00:00Z'],
		['updated_at', '2026-01-01T00:00:00Z'],
	])(
		'only status, assigned_to, notes and custom_fields are updatable: %s is 400',
		async (field, value) => {
			const lead = await sandbox.createLead();
			expectError(
				await sandbox.api.patch(`/v1/leads/${lead.id}`, { [field]: value }),
				400,
				'invalid_params',
				field,
			);
			expect((await sandbox.api.get<Lead>(`/v1/leads/${lead.id}`)).body).toEqual(lead);
		},
	);

	test('PATCH needs at least one field; assigned_to must be a user of the account; custom_fields stay ≤ 50 after merge', async () => {
		const lead = await sandbox.createLead({
			custom_fields: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])),
		});
		expectError(await sandbox.api.patch(`/v1/leads/${lead.id}`, {}), 400, 'invalid_params', 'body');
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { assigned_to: 'user_doesnotexist0000' }),
			400,
			'invalid_params',
			'assigned_to',
		);
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { assigned_to: USER_B_OWNER }),
			400,
			'invalid_params',
			'assigned_to',
		);
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { assigned_to: CTA_A }),
			400,
			'invalid_params',
			'assigned_to',
		);
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { custom_fields: { extra: 1 } }),
			400,
			'invalid_params',
			'custom_fields',
		);
		expect(
			(
				await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, {
					custom_fields: { k0: null, extra: 1 },
				})
			).status,
		).toBe(200);
		expectError(
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { notes: 'x'.repeat(10_001) }),
			400,
			'invalid_params',
			'notes',
		);
	});
});

describe('Leads: list query (contract §4)', () => {
	beforeAll(async () => {
		await sandbox.reset();
		const specs: Array<[string, string, string, string | null]> = [
			['alice@acme.example', 'Alice', 'qualified', USER_A_OWNER],
			['bob@bolt.example', 'Bob', 'new', null],
			['carol@acme.example', 'Carol', 'lost', null],
			['dave@dune.example', 'Dave', 'qualified', USER_A_OWNER],
		];
		for (const [email, name, status, assigned] of specs) {
			const lead = await sandbox.createLead({
				email,
				name,
				company: email.includes('acme') ? 'ACME' : 'Other',
				source_channel: name === 'Bob' ? 'social' : 'email',
			});
			await sandbox.api.patch(`/v1/leads/${lead.id}`, { status, assigned_to: assigned });
		}
	});

	const emails = (page: ListPage<Lead>) => page.data.map((l) => l.email);

	test('default order is created_at desc', async () => {
		const page = (await sandbox.api.get<ListPage<Lead>>('/v1/leads')).body;
		expect(emails(page)).toEqual([
			'dave@dune.example',
			'carol@acme.example',
			'bob@bolt.example',
			'alice@acme.example',
		]);
	});

	test('sort and order: email asc, name desc, score', async () => {
		expect(
			emails((await sandbox.api.get<ListPage<Lead>>('/v1/leads?sort=email&order=asc')).body),
		).toEqual([
			'alice@acme.example',
			'bob@bolt.example',
			'carol@acme.example',
			'dave@dune.example',
		]);
		expect(
			emails((await sandbox.api.get<ListPage<Lead>>('/v1/leads?sort=name&order=desc')).body)[0],
		).toBe('dave@dune.example');
		expect((await sandbox.api.get('/v1/leads?sort=score&order=asc')).status).toBe(200);
		expect((await sandbox.api.get('/v1/leads?sort=updated_at')).status).toBe(200);
		expectError(await sandbox.api.get('/v1/leads?sort=phone'), 400, 'invalid_params', 'sort');
		expectError(await sandbox.api.get('/v1/leads?order=up'), 400, 'invalid_params', 'order');
	});

	test('filters: status, source_channel, assigned_to, q, days', async () => {
		const get = async (query: string) =>
			emails(
				(await sandbox.api.get<ListPage<Lead>>(`/v1/leads?sort=email&order=asc&${query}`)).body,
			);
		expect(await get('status=qualified')).toEqual(['alice@acme.example', 'dave@dune.example']);
		expect(await get('source_channel=social')).toEqual(['bob@bolt.example']);
		expect(await get(`assigned_to=${USER_A_OWNER}`)).toEqual([
			'alice@acme.example',
			'dave@dune.example',
		]);
		expect(await get('q=ACME')).toEqual(['alice@acme.example', 'carol@acme.example']);
		expect(await get('days=1')).toHaveLength(4);
		await sandbox.control.post('/_sandbox/clock/advance', { hours: 49 });
		expect(await get('days=2')).toEqual([]);
		expect(await get('days=3')).toHaveLength(4);
		expectError(await sandbox.api.get('/v1/leads?days=0'), 400, 'invalid_params', 'days');
		expectError(await sandbox.api.get('/v1/leads?days=366'), 400, 'invalid_params', 'days');
		expectError(await sandbox.api.get('/v1/leads?status=won'), 400, 'invalid_params', 'status');
		expectError(
			await sandbox.api.get('/v1/leads?source_resource_id=lead_x'),
			400,
			'invalid_params',
			'source_resource_id',
		);
	});
});
