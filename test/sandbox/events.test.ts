// docs/api-contract.md §14: GET /v1/events, the lead events the deliveries carry, listed for pollers.
import {
	ACCOUNT_A,
	expectError,
	ISO_SECONDS,
	useSandbox,
	type Lead,
	type ListPage,
} from '../support/sandbox-client';

const sandbox = useSandbox();

interface Event {
	id: string;
	type: string;
	created_at: string;
	api_version: string;
	account_id: string;
	data: { lead: Lead; previous_status?: string };
}

type Page = ListPage<Event>;

async function list(query = ''): Promise<Page> {
	const answer = await sandbox.api.get<Page>(`/v1/events${query}`);
	expect(answer.status).toBe(200);
	return answer.body;
}

async function all(query = ''): Promise<Event[]> {
	const events: Event[] = [];
	let cursor: string | null = null;
	do {
		const page: Page = await list(
			`?limit=100${query}${cursor === null ? '' : `&cursor=${cursor}`}`,
		);
		events.push(...page.data);
		cursor = page.next_cursor;
	} while (cursor !== null);
	return events;
}

beforeEach(async () => {
	await sandbox.reset();
	await sandbox.config({ rate_limit: null });
});

describe('GET /v1/events (contract §14)', () => {
	test('records lead.created and lead.status_updated (not other updates) with the delivery body, oldest first', async () => {
		const lead = await sandbox.createLead({ name: 'Ada' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { notes: 'no event' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });

		const page = await list();
		expect(page).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
		expect(page.data.map((event) => event.type)).toEqual(['lead.created', 'lead.status_updated']);
		const [created, changed] = page.data;
		expect(created).toEqual({
			id: expect.stringMatching(/^evt_[a-z0-9]{16}$/),
			type: 'lead.created',
			created_at: expect.stringMatching(ISO_SECONDS),
			api_version: 'v1',
			account_id: ACCOUNT_A,
			data: { lead: { ...lead } },
		});
		expect(changed.data.previous_status).toBe('new');
		expect(changed.data.lead.status).toBe('contacted');
	});

	test('events are recorded whether or not a webhook endpoint subscribes; seeds record none', async () => {
		await sandbox.control.post('/_sandbox/seed', { leads: 5 });
		expect((await list()).data).toEqual([]);
		await sandbox.createLead();
		expect((await list()).data).toHaveLength(1);
	});

	test('ascending by (created_at, id) with a keyset cursor: ties and events created while paging are neither repeated nor skipped', async () => {
		for (let i = 0; i < 7; i++) await sandbox.createLead();
		const first = await list('?limit=3');
		expect(first.has_more).toBe(true);
		for (let i = 0; i < 4; i++) await sandbox.createLead();
		const seen = [...first.data];
		let cursor = first.next_cursor;
		while (cursor !== null) {
			const page = await list(`?limit=3&cursor=${cursor}`);
			seen.push(...page.data);
			cursor = page.next_cursor;
		}
		expect(seen).toHaveLength(11);
		expect(new Set(seen.map((event) => event.id)).size).toBe(11);
		const keys = seen.map((event) => `${event.created_at} ${event.id}`);
		expect([...keys].sort()).toEqual(keys);
	});

	test('order=desc lists newest first; type and created_after filter (created_after is exclusive)', async () => {
		const lead = await sandbox.createLead();
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'qualified' });
		await sandbox.control.post('/_sandbox/clock/advance', { seconds: 5 });
		await sandbox.createLead();
		const ascending = await all();
		expect((await list('?order=desc')).data.map((event) => event.id)).toEqual(
			ascending.map((event) => event.id).reverse(),
		);
		expect((await list('?type=lead.status_updated')).data.map((event) => event.type)).toEqual([
			'lead.status_updated',
		]);
		const boundary = ascending[1].created_at;
		expect((await list(`?created_after=${boundary}`)).data.map((event) => event.id)).toEqual([
			ascending[2].id,
		]);
		const before = new Date(Date.parse(boundary) - 1000).toISOString().replace('.000Z', 'Z');
		expect((await list(`?created_after=${before}`)).data.map((event) => event.id)).toEqual(
			ascending.map((e) => e.id),
		);
	});

	test('kept 7 days, then dropped', async () => {
		await sandbox.createLead();
		await sandbox.control.post('/_sandbox/clock/advance', { hours: 24 * 7 - 1 });
		expect((await list()).data).toHaveLength(1);
		await sandbox.control.post('/_sandbox/clock/advance', { hours: 2 });
		expect((await list()).data).toHaveLength(0);
	});

	test('each account sees only its own events', async () => {
		await sandbox.createLead();
		await sandbox.createLead({}, sandbox.other);
		const own = await list();
		expect(own.data.map((event) => event.account_id)).toEqual([ACCOUNT_A]);
		const other = await sandbox.other.get<Page>('/v1/events');
		expect(other.body.data.map((event) => event.account_id)).toEqual(['acct_demo000000000002']);
	});

	test('bad query parameters are 400 naming them; a cursor of the other order is refused', async () => {
		for (let i = 0; i < 3; i++) await sandbox.createLead();
		expectError(
			await sandbox.api.get('/v1/events?type=lead.deleted'),
			400,
			'invalid_params',
			'type',
		);
		expectError(
			await sandbox.api.get('/v1/events?created_after=yesterday'),
			400,
			'invalid_params',
			'created_after',
		);
		expectError(await sandbox.api.get('/v1/events?order=up'), 400, 'invalid_params', 'order');
		expectError(await sandbox.api.get('/v1/events?limit=101'), 400, 'invalid_params', 'limit');
		expectError(await sandbox.api.get('/v1/events?since=x'), 400, 'invalid_params', 'since');
		const cursor = (await list('?limit=1')).next_cursor;
		expectError(
			await sandbox.api.get(`/v1/events?order=desc&cursor=${cursor}`),
			400,
			'invalid_params',
			'cursor',
		);
		expectError(await sandbox.anonymous.get('/v1/events'), 401, 'unauthorized');
		expect((await sandbox.readOnly.get('/v1/events')).status).toBe(200);
	});

	test('the control switch events_endpoint=false answers 404 like a service without the endpoint; events are still recorded', async () => {
		await sandbox.config({ events_endpoint: false });
		await sandbox.createLead();
		expectError(await sandbox.api.get('/v1/events'), 404, 'not_found');
		await sandbox.config({ events_endpoint: true });
		expect((await list()).data).toHaveLength(1);
	});

	test('reset forgets events', async () => {
		await sandbox.createLead();
		await sandbox.reset();
		expect((await list()).data).toEqual([]);
	});
});
