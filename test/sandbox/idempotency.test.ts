// docs/api-contract.md §8: Idempotency-Key on POST.
import { expectError, useSandbox, type Lead, type ListPage } from '../support/sandbox-client';

const sandbox = useSandbox();

beforeEach(() => sandbox.reset());

async function leadCount(): Promise<number> {
	return (await sandbox.api.get<ListPage<Lead>>('/v1/leads?limit=100')).body.data.length;
}

describe('Idempotency-Key (contract §8)', () => {
	test('the same key with the same body replays the stored answer with Idempotent-Replayed: true and creates once', async () => {
		const headers = { 'Idempotency-Key': 'create-ada-1' };
		const first = await sandbox.api.post<Lead>('/v1/leads', { email: 'ada@example.com' }, headers);
		const second = await sandbox.api.post<Lead>('/v1/leads', { email: 'ada@example.com' }, headers);
		expect([first.status, second.status]).toEqual([201, 201]);
		expect(second.body).toEqual(first.body);
		expect(first.headers.get('idempotent-replayed')).toBeNull();
		expect(second.headers.get('idempotent-replayed')).toBe('true');
		expect(await leadCount()).toBe(1);
		const pushes = (await sandbox.control.get<unknown[]>('/_sandbox/crm/pushes')).body;
		expect(pushes).toHaveLength(1);
	});

	test('object key order does not make two bodies differ', async () => {
		const headers = { 'Idempotency-Key': 'order' };
		const first = await sandbox.api.post<Lead>(
			'/v1/leads',
			{ email: 'a@example.com', name: 'A' },
			headers,
		);
		const second = await sandbox.api.post<Lead>(
			'/v1/leads',
			{ name: 'A', email: 'a@example.com' },
			headers,
		);
		expect(second.body.id).toBe(first.body.id);
	});

	test('the same key with another body or path is 400 Idempotency-Key', async () => {
		const headers = { 'Idempotency-Key': 'reused' };
		expect(
			(await sandbox.api.post('/v1/leads', { email: 'one@example.com' }, headers)).status,
		).toBe(201);
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'two@example.com' }, headers),
			400,
			'invalid_params',
			'Idempotency-Key',
		);
		expectError(
			await sandbox.api.post('/v1/resources', { title: 'x', type: 'article' }, headers),
			400,
			'invalid_params',
			'Idempotency-Key',
		);
		expect(await leadCount()).toBe(1);
	});

	test('keys are per account: the same key on account B is processed', async () => {
		const headers = { 'Idempotency-Key': 'shared' };
		const a = await sandbox.api.post<Lead>('/v1/leads', { email: 'x@example.com' }, headers);
		const b = await sandbox.other.post<Lead>('/v1/leads', { email: 'x@example.com' }, headers);
		expect([a.status, b.status]).toEqual([201, 201]);
		expect(a.body.id).not.toBe(b.body.id);
	});

	test('a failed request is not stored: the key may be used again after a 400 or 409', async () => {
		const headers = { 'Idempotency-Key': 'retry-after-error' };
		expectError(
			await sandbox.api.post('/v1/leads', { email: 'bad' }, headers),
			400,
			'invalid_params',
			'email',
		);
		expect(
			(await sandbox.api.post('/v1/leads', { email: 'good@example.com' }, headers)).status,
		).toBe(201);
		const draft = await sandbox.createResource();
		const publishKey = { 'Idempotency-Key': 'archive-draft' };
		expectError(
			await sandbox.api.post(`/v1/resources/${draft.id}/archive`, undefined, publishKey),
			409,
			'invalid_state',
		);
		await sandbox.api.post(`/v1/resources/${draft.id}/publish`);
		expect(
			(await sandbox.api.post(`/v1/resources/${draft.id}/archive`, undefined, publishKey)).status,
		).toBe(200);
	});

	test('replays work for bodiless POSTs too (publish replays its first answer instead of 409)', async () => {
		const draft = await sandbox.createResource();
		const headers = { 'Idempotency-Key': 'publish-once' };
		const first = await sandbox.api.post(`/v1/resources/${draft.id}/publish`, undefined, headers);
		const second = await sandbox.api.post(`/v1/resources/${draft.id}/publish`, undefined, headers);
		expect([first.status, second.status]).toEqual([200, 200]);
		expect(second.headers.get('idempotent-replayed')).toBe('true');
		expectError(await sandbox.api.post(`/v1/resources/${draft.id}/publish`), 409, 'invalid_state');
	});

	test('a stored answer expires after 24 hours', async () => {
		const headers = { 'Idempotency-Key': 'day-old' };
		const first = await sandbox.api.post<Lead>('/v1/leads', { email: 'day@example.com' }, headers);
		await sandbox.control.post('/_sandbox/clock/advance', { hours: 24, seconds: 1 });
		const second = await sandbox.api.post<Lead>('/v1/leads', { email: 'day@example.com' }, headers);
		expect(second.status).toBe(201);
		expect(second.body.id).not.toBe(first.body.id);
	});

	test('a malformed key (over 255 chars, non-printable) is 400 Idempotency-Key', async () => {
		for (const key of ['x'.repeat(256), 'tab\there']) {
			expectError(
				await sandbox.api.post('/v1/leads', { email: 'k@example.com' }, { 'Idempotency-Key': key }),
				400,
				'invalid_params',
				'Idempotency-Key',
			);
		}
		expect(await leadCount()).toBe(0);
	});

	test('concurrent requests with the same key create once', async () => {
		const headers = { 'Idempotency-Key': 'concurrent' };
		const answers = await Promise.all(
			Array.from({ length: 5 }, () =>
				sandbox.api.post<Lead>('/v1/leads', { email: 'c@example.com' }, headers),
			),
		);
		expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
		expect(await leadCount()).toBe(1);
	});
});
