// Spec "CRM sync" and Events rule 7, docs/api-contract.md §5: automatic pushes, sync-crm, batch-sync-crm.
import {
	ACCOUNT_A,
	ACCOUNT_B,
	expectError,
	ISO_SECONDS,
	useSandbox,
	type Lead,
} from '../support/sandbox-client';

const sandbox = useSandbox();

interface Push {
	account_id: string;
	lead_id: string;
	crm_record_id: string;
	reason: string;
	at: string;
}

interface SyncResult {
	lead_id?: string;
	synced: boolean;
	crm_type?: string;
	crm_record_id?: string;
	synced_at?: string;
	error?: { code: string; message: string };
}

interface BatchResult {
	object: string;
	synced_count: number;
	failed_count: number;
	results: SyncResult[];
}

async function pushes(): Promise<Push[]> {
	return (await sandbox.control.get<Push[]>('/_sandbox/crm/pushes')).body;
}

async function pushesOf(leadId: string): Promise<Push[]> {
	return (await pushes()).filter((p) => p.lead_id === leadId);
}

beforeEach(() => sandbox.reset());

describe('Events: CRM receives new leads and status changes automatically (configured CRM only)', () => {
	test('a lead created on account A (CRM hubspot) is pushed with reason created', async () => {
		const lead = await sandbox.createLead();
		const [push] = await pushesOf(lead.id);
		expect(push).toMatchObject({ account_id: ACCOUNT_A, lead_id: lead.id, reason: 'created' });
		expect(push.crm_record_id).toMatch(/^crm_[a-z0-9]{16}$/);
		expect(push.at).toMatch(ISO_SECONDS);
	});

	test('a status change is pushed with reason status_changed; the same status again or other fields are not pushed', async () => {
		const lead = await sandbox.createLead();
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { notes: 'n', custom_fields: { a: 1 } });
		const reasons = (await pushesOf(lead.id)).map((p) => p.reason);
		expect(reasons).toEqual(['created', 'status_changed']);
	});

	test('account B without a CRM gets no pushes; after configuring one, it does', async () => {
		const lead = await sandbox.createLead({}, sandbox.other);
		await sandbox.other.patch(`/v1/leads/${lead.id}`, { status: 'lost' });
		expect(await pushesOf(lead.id)).toEqual([]);
		expect(
			(
				await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_B}`, {
					crm: { crm_type: 'pipedrive' },
				})
			).status,
		).toBe(200);
		const later = await sandbox.createLead({}, sandbox.other);
		expect((await pushesOf(later.id)).map((p) => p.reason)).toEqual(['created']);
	});

	test('a failed (400) request pushes nothing', async () => {
		const before = (await pushes()).length;
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'bad' }),
			400,
			'invalid_params',
			'email',
		);
		expect((await pushes()).length).toBe(before);
	});
});

describe('CRM: POST /v1/leads/{id}/sync-crm', () => {
	test('answers { synced, crm_type, crm_record_id, synced_at } with a record id stable across syncs', async () => {
		const lead = await sandbox.createLead();
		const first = await sandbox.api.post<SyncResult>(`/v1/leads/${lead.id}/sync-crm`);
		expect(first.status).toBe(200);
		expect(Object.keys(first.body)).toEqual(['synced', 'crm_type', 'crm_record_id', 'synced_at']);
		expect(first.body).toMatchObject({ synced: true, crm_type: 'hubspot' });
		expect(first.body.synced_at).toMatch(ISO_SECONDS);
		const second = await sandbox.api.post<SyncResult>(`/v1/leads/${lead.id}/sync-crm`);
		expect(second.body.crm_record_id).toBe(first.body.crm_record_id);
		const [created] = await pushesOf(lead.id);
		expect(created.crm_record_id).toBe(first.body.crm_record_id);
		expect((await pushesOf(lead.id)).map((p) => p.reason)).toEqual(['created', 'manual', 'manual']);
	});

	test('Errors: 409 crm_not_configured — sync-crm on an account without a CRM', async () => {
		const lead = await sandbox.createLead({}, sandbox.other);
		expectError(
			await sandbox.other.post(`/v1/leads/${lead.id}/sync-crm`),
			409,
			'crm_not_configured',
		);
		expect(await pushesOf(lead.id)).toEqual([]);
	});

	test('the crm_type follows the account setting', async () => {
		await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, {
			crm: { crm_type: 'salesforce' },
		});
		const lead = await sandbox.createLead();
		expect(
			(await sandbox.api.post<SyncResult>(`/v1/leads/${lead.id}/sync-crm`)).body.crm_type,
		).toBe('salesforce');
		await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { crm: null });
		expectError(await sandbox.api.post(`/v1/leads/${lead.id}/sync-crm`), 409, 'crm_not_configured');
	});

	test('a body on sync-crm is 400; a missing lead is 404; another account’s lead is 403', async () => {
		const lead = await sandbox.createLead();
		expectError(
			await sandbox.api.post(`/v1/leads/${lead.id}/sync-crm`, { force: true }),
			400,
			'invalid_params',
			'force',
		);
		expectError(
			await sandbox.api.post('/v1/leads/lead_doesnotexist0000/sync-crm'),
			404,
			'not_found',
		);
		const other = await sandbox.createLead({}, sandbox.other);
		expectError(await sandbox.api.post(`/v1/leads/${other.id}/sync-crm`), 403, 'forbidden');
	});
});

describe('Limits: batch CRM sync — at most 100 leads per call', () => {
	test('100 leads in one call are synced', async () => {
		await sandbox.control.post('/_sandbox/seed', { seed: 3, leads: 100 });
		const ids = (await sandbox.allLeads()).map((l) => l.id);
		expect(ids).toHaveLength(100);
		const answer = await sandbox.api.post<BatchResult>('/v1/leads/batch-sync-crm', {
			lead_ids: ids,
		});
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			object: 'batch_sync_result',
			synced_count: 100,
			failed_count: 0,
		});
		expect(answer.body.results.map((r) => r.lead_id)).toEqual(ids);
		expect((await pushes()).filter((p) => p.reason === 'batch')).toHaveLength(100);
	});

	test('Errors: 400 invalid_params — batch of 101 leads (lead_ids), nothing pushed', async () => {
		const ids = Array.from({ length: 101 }, (_, i) => `lead_${String(i).padStart(16, '0')}`);
		const before = (await pushes()).length;
		expectError(
			await sandbox.api.post('/v1/leads/batch-sync-crm', { lead_ids: ids }),
			400,
			'invalid_params',
			'lead_ids',
		);
		expect((await pushes()).length).toBe(before);
	});

	test('batch body rules: 1..100 ids, no duplicates, well-formed ids, nothing else', async () => {
		const lead = await sandbox.createLead();
		const post = (body: unknown) => sandbox.api.post('/v1/leads/batch-sync-crm', body);
		expectError(await post({ lead_ids: [] }), 400, 'invalid_params', 'lead_ids');
		expectError(await post({}), 400, 'invalid_params', 'lead_ids');
		expectError(await post(undefined), 400, 'invalid_params', 'body');
		expectError(await post({ lead_ids: [lead.id, lead.id] }), 400, 'invalid_params', 'lead_ids.1');
		expectError(await post({ lead_ids: ['res_abc'] }), 400, 'invalid_params', 'lead_ids.0');
		expectError(await post({ lead_ids: lead.id }), 400, 'invalid_params', 'lead_ids');
		expectError(await post({ lead_ids: [lead.id], force: true }), 400, 'invalid_params', 'force');
	});

	test('per-entry results: missing lead not_found, other account forbidden; the call still succeeds', async () => {
		const mine = await sandbox.createLead();
		const theirs = await sandbox.createLead({}, sandbox.other);
		const answer = await sandbox.api.post<BatchResult>('/v1/leads/batch-sync-crm', {
			lead_ids: ['lead_doesnotexist0000', mine.id, theirs.id],
		});
		expect(answer.status).toBe(200);
		expect(answer.body.synced_count).toBe(1);
		expect(answer.body.failed_count).toBe(2);
		expect(answer.body.results.map((r) => [r.lead_id, r.synced, r.error?.code])).toEqual([
			['lead_doesnotexist0000', false, 'not_found'],
			[mine.id, true, undefined],
			[theirs.id, false, 'forbidden'],
		]);
		expect(await pushesOf(theirs.id)).toEqual([]);
	});

	test('Errors: 409 crm_not_configured — batch on an account without a CRM', async () => {
		const lead: Lead = await sandbox.createLead({}, sandbox.other);
		expectError(
			await sandbox.other.post('/v1/leads/batch-sync-crm', { lead_ids: [lead.id] }),
			409,
			'crm_not_configured',
		);
	});
});
