// Spec "Events" and "Webhook endpoint status", docs/api-contract.md §10: endpoints, signed deliveries, retries, test event.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	ACCOUNT_A,
	expectError,
	ISO_SECONDS,
	useSandbox,
	waitFor,
	type Lead,
	type ListPage,
	type WebhookEndpoint,
} from '../support/sandbox-client';

const sandbox = useSandbox();

interface Received {
	path: string;
	headers: http.IncomingHttpHeaders;
	raw: string;
	at: number;
}

interface EventBody {
	id: string;
	type: string;
	created_at: string;
	api_version: string;
	account_id: string;
	data: { lead?: Lead; previous_status?: string; test?: boolean };
}

/** A webhook receiver in the test: records every request and answers as `answer` says. */
class Receiver {
	readonly received: Received[] = [];
	answer: (
		request: Received,
		index: number,
	) => { status: number; delayMs?: number; until?: Promise<void> } = () => ({
		status: 200,
	});
	private server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: Received = {
				path: req.url ?? '',
				headers: req.headers,
				raw: Buffer.concat(chunks).toString('utf8'),
				at: Date.now(),
			};
			this.received.push(request);
			const { status, delayMs = 0, until } = this.answer(request, this.received.length - 1);
			const send = () => {
				if (!res.destroyed) res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
			};
			if (until !== undefined) return void until.then(send);
			const timer = setTimeout(send, delayMs);
			res.on('close', () => clearTimeout(timer));
		});
	});

	url(path: string): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
	}

	at(path: string): Received[] {
		return this.received.filter((r) => r.path === path);
	}

	clear(): void {
		this.received.length = 0;
		this.answer = () => ({ status: 200 });
	}

	start(): Promise<void> {
		return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
	}

	close(): Promise<void> {
		this.server.closeAllConnections();
		return new Promise((resolve) => this.server.close(() => resolve()));
	}
}

/** Independent check of `CM-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
function verifySignature(
	header: string | string[] | undefined,
	secret: string,
	rawBody: string,
): { valid: boolean; t: number } {
	if (typeof header !== 'string') return { valid: false, t: NaN };
	const entries = header.split(',').map((part) => part.trim().split('='));
	const t = Number(entries.find(([k]) => k === 't')?.[1]);
	const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
		.update(`${t}.${rawBody}`, 'utf8')
		.digest();
	const valid = entries
		.filter(([k]) => k === 'v1')
		.some(([, hex]) => {
			const given = Buffer.from(hex, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		});
	return { valid, t };
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.close());
beforeEach(async () => {
	await sandbox.reset();
	receiver.clear();
});

async function createEndpoint(
	fields: Record<string, unknown>,
): Promise<WebhookEndpoint & { secret: string }> {
	const answer = await sandbox.api.post<WebhookEndpoint & { secret: string }>(
		'/v1/webhooks',
		fields,
	);
	expect(answer.status).toBe(201);
	return answer.body;
}

async function endpoint(id: string): Promise<WebhookEndpoint> {
	return (await sandbox.api.get<WebhookEndpoint>(`/v1/webhooks/${id}`)).body;
}

const waitForCount = (path: string, count: number, timeoutMs = 5000) =>
	waitFor(
		async () => receiver.at(path),
		(list) => list.length >= count,
		timeoutMs,
	);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the sandbox logged `count` ended attempts; their retries, if any, are scheduled by then. */
const waitForDeliveryLog = (count: number) =>
	waitFor(
		async () => (await sandbox.control.get<unknown[]>('/_sandbox/deliveries')).body,
		(log) => log.length >= count,
	);

describe('Events: signed delivery of lead.created and lead.status_updated', () => {
	test('lead.created reaches a subscribed endpoint with the documented headers, body and a valid signature', async () => {
		const hook = await createEndpoint({ url: receiver.url('/created'), events: ['lead.created'] });
		const lead = await sandbox.createLead({ name: 'Ada' });
		const [delivery] = await waitForCount('/created', 1);
		expect(delivery.headers).toMatchObject({
			'content-type': 'application/json',
			'user-agent': 'ContentMarketing-Webhooks/1.0',
			'cm-event-type': 'lead.created',
			'cm-delivery-attempt': '1',
		});
		const body = JSON.parse(delivery.raw) as EventBody;
		expect(body).toEqual({
			id: delivery.headers['cm-event-id'],
			type: 'lead.created',
			created_at: expect.stringMatching(ISO_SECONDS),
			api_version: 'v1',
			account_id: ACCOUNT_A,
			data: { lead },
		});
		expect(body.id).toMatch(/^evt_[a-z0-9]{16}$/);
		const signature = verifySignature(delivery.headers['cm-signature'], hook.secret, delivery.raw);
		expect(signature.valid).toBe(true);
		expect(Math.abs(signature.t - Date.now() / 1000)).toBeLessThan(300);
		expect(
			verifySignature(delivery.headers['cm-signature'], `${hook.secret}x`, delivery.raw).valid,
		).toBe(false);
		expect(
			verifySignature(delivery.headers['cm-signature'], hook.secret, `${delivery.raw} `).valid,
		).toBe(false);
	});

	test('lead.status_updated carries the lead after the change and previous_status; setting the same status fires nothing', async () => {
		const hook = await createEndpoint({
			url: receiver.url('/status'),
			events: ['lead.status_updated'],
		});
		const lead = await sandbox.createLead();
		const updated = (await sandbox.api.patch<Lead>(`/v1/leads/${lead.id}`, { status: 'qualified' }))
			.body;
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'qualified' });
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { notes: 'no event' });
		const [delivery] = await waitForCount('/status', 1);
		const body = JSON.parse(delivery.raw) as EventBody;
		expect(body.type).toBe('lead.status_updated');
		expect(body.data).toEqual({ lead: updated, previous_status: 'new' });
		expect(verifySignature(delivery.headers['cm-signature'], hook.secret, delivery.raw).valid).toBe(
			true,
		);
		await sleep(150);
		expect(receiver.at('/status')).toHaveLength(1);
	});

	test('a delivered event makes the endpoint normal and is logged in /_sandbox/deliveries', async () => {
		const hook = await createEndpoint({ url: receiver.url('/log'), events: ['lead.created'] });
		expect(hook.status).toBe('active');
		await sandbox.createLead();
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'normal',
		);
		expect((await endpoint(hook.id)).last_delivery_at).toMatch(ISO_SECONDS);
		const log = (await sandbox.control.get<Array<Record<string, unknown>>>('/_sandbox/deliveries'))
			.body;
		expect(log).toEqual([
			expect.objectContaining({
				type: 'lead.created',
				endpoint_id: hook.id,
				url: hook.url,
				attempt: 1,
				status_code: 200,
				ok: true,
				error: null,
			}),
		]);
	});
});

describe('Events rule 3: only subscribed event types, only while active', () => {
	test('endpoints get only the types they list; inactive ones and other accounts’ endpoints get nothing', async () => {
		await createEndpoint({ url: receiver.url('/only-created'), events: ['lead.created'] });
		await createEndpoint({ url: receiver.url('/only-status'), events: ['lead.status_updated'] });
		const inactive = await createEndpoint({
			url: receiver.url('/inactive'),
			events: ['lead.created', 'lead.status_updated'],
			active: false,
		});
		await sandbox.other.post('/v1/webhooks', {
			url: receiver.url('/other-account'),
			events: ['lead.created', 'lead.status_updated'],
		});

		const lead = await sandbox.createLead();
		await sandbox.api.patch(`/v1/leads/${lead.id}`, { status: 'contacted' });
		await waitForCount('/only-created', 1);
		await waitForCount('/only-status', 1);
		await sleep(150);
		expect(receiver.at('/only-created').map((r) => r.headers['cm-event-type'])).toEqual([
			'lead.created',
		]);
		expect(receiver.at('/only-status').map((r) => r.headers['cm-event-type'])).toEqual([
			'lead.status_updated',
		]);
		expect(receiver.at('/inactive')).toEqual([]);
		expect(receiver.at('/other-account')).toEqual([]);

		await sandbox.api.patch(`/v1/webhooks/${inactive.id}`, { active: true });
		await sandbox.createLead();
		await waitForCount('/inactive', 1);
	});

	test('a deleted endpoint receives nothing more', async () => {
		const hook = await createEndpoint({ url: receiver.url('/deleted'), events: ['lead.created'] });
		expect((await sandbox.api.delete(`/v1/webhooks/${hook.id}`)).body).toEqual({
			id: hook.id,
			deleted: true,
		});
		await sandbox.createLead();
		await sleep(150);
		expect(receiver.at('/deleted')).toEqual([]);
	});
});

describe('Events rule 5 / contract §10: deliveries are asynchronous', () => {
	test('the API answers before the receiver does', async () => {
		let answerReceiver!: () => void;
		const held = new Promise<void>((resolve) => (answerReceiver = resolve));
		receiver.answer = () => ({ status: 200, until: held });
		await createEndpoint({ url: receiver.url('/slow'), events: ['lead.created'] });
		await sandbox.createLead();
		// The receiver answers only when the test lets it: no attempt has ended yet.
		expect((await sandbox.control.get<unknown[]>('/_sandbox/deliveries')).body).toEqual([]);
		answerReceiver();
		await waitForCount('/slow', 1);
		await waitForDeliveryLog(1);
	});
});

describe('Events: retries and endpoint status (contract §10, shortened schedule via /_sandbox/config)', () => {
	test('the documented defaults: 5 s timeout and retries after 10 s, 1 min, 10 min, 1 h, 6 h', async () => {
		const config = (await sandbox.control.get('/_sandbox/config')).body;
		expect(config).toMatchObject({
			webhook_timeout_ms: 5000,
			webhook_retry_delays_ms: [10_000, 60_000, 600_000, 3_600_000, 21_600_000],
		});
	});

	test('a failing endpoint gets 6 attempts of the same signed event on the schedule, then is unreachable', async () => {
		const delays = [100, 150, 200, 250, 300];
		await sandbox.config({ webhook_retry_delays_ms: delays });
		receiver.answer = () => ({ status: 500 });
		const hook = await createEndpoint({ url: receiver.url('/failing'), events: ['lead.created'] });
		await sandbox.createLead();
		const attempts = await waitForCount('/failing', 6);
		expect(attempts.map((a) => a.headers['cm-delivery-attempt'])).toEqual([
			'1',
			'2',
			'3',
			'4',
			'5',
			'6',
		]);
		expect(new Set(attempts.map((a) => a.headers['cm-event-id'])).size).toBe(1);
		expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
		for (const attempt of attempts)
			expect(verifySignature(attempt.headers['cm-signature'], hook.secret, attempt.raw).valid).toBe(
				true,
			);
		for (let i = 1; i < attempts.length; i++)
			expect(attempts[i].at - attempts[i - 1].at).toBeGreaterThanOrEqual(delays[i - 1] - 15);
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'unreachable',
		);
		// nothing is left scheduled to send
		expect((await sandbox.control.post('/_sandbox/deliveries/retry-now')).body).toEqual({
			retried: 0,
		});
		expect(receiver.at('/failing')).toHaveLength(6);
		const log = (
			await sandbox.control.get<Array<{ attempt: number; ok: boolean; status_code: number }>>(
				'/_sandbox/deliveries',
			)
		).body;
		expect(log.map((d) => [d.attempt, d.ok, d.status_code])).toEqual(
			[1, 2, 3, 4, 5, 6].map((n) => [n, false, 500]),
		);
	});

	test('the endpoint stays active during retries and a 2xx answer after failures makes it normal', async () => {
		await sandbox.config({ webhook_retry_delays_ms: [200, 200, 200, 200, 200] });
		receiver.answer = (_request, index) => ({ status: index < 2 ? 503 : 204 });
		const hook = await createEndpoint({
			url: receiver.url('/recovering'),
			events: ['lead.created'],
		});
		await sandbox.createLead();
		await waitForCount('/recovering', 1);
		expect((await endpoint(hook.id)).status).toBe('active');
		await waitForCount('/recovering', 3);
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'normal',
		);
		// nothing is left scheduled to send
		expect((await sandbox.control.post('/_sandbox/deliveries/retry-now')).body).toEqual({
			retried: 0,
		});
		expect(receiver.at('/recovering')).toHaveLength(3);
	});

	test('Limits: webhook response time — an answer slower than the timeout counts as a failure and is retried', async () => {
		await sandbox.config({ webhook_timeout_ms: 150, webhook_retry_delays_ms: [50] });
		receiver.answer = (_request, index) => ({ status: 200, delayMs: index === 0 ? 500 : 0 });
		const hook = await createEndpoint({ url: receiver.url('/timeout'), events: ['lead.created'] });
		await sandbox.createLead();
		await waitForCount('/timeout', 2);
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'normal',
		);
		const log = (
			await sandbox.control.get<
				Array<{ attempt: number; ok: boolean; status_code: number | null; error: string | null }>
			>('/_sandbox/deliveries')
		).body;
		expect(log[0]).toMatchObject({
			attempt: 1,
			ok: false,
			status_code: null,
			error: expect.stringContaining('150'),
		});
		expect(log[1]).toMatchObject({ attempt: 2, ok: true, status_code: 200 });
	});

	test('POST /_sandbox/deliveries/retry-now runs the scheduled retries at once, not the schedule left after them', async () => {
		await sandbox.config({ webhook_retry_delays_ms: [60_000, 60_000] });
		receiver.answer = (_request, index) => ({ status: index < 2 ? 500 : 200 });
		const hook = await createEndpoint({ url: receiver.url('/flushed'), events: ['lead.created'] });
		await sandbox.createLead();
		await waitForDeliveryLog(1);
		expect((await sandbox.control.post('/_sandbox/deliveries/retry-now')).body).toEqual({
			retried: 1,
		});
		await waitForDeliveryLog(2);
		expect(receiver.at('/flushed')).toHaveLength(2);
		expect((await sandbox.control.post('/_sandbox/deliveries/retry-now')).body).toEqual({
			retried: 1,
		});
		const attempts = await waitForCount('/flushed', 3);
		expect(attempts.map((a) => a.headers['cm-delivery-attempt'])).toEqual(['1', '2', '3']);
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'normal',
		);
		expect((await sandbox.control.post('/_sandbox/deliveries/retry-now')).body).toEqual({
			retried: 0,
		});
	});

	test('POST /_sandbox/deliveries/retry-now with max runs only that many, the earliest due first', async () => {
		await sandbox.config({ webhook_retry_delays_ms: [60_000] });
		receiver.answer = () => ({ status: 500 });
		await createEndpoint({ url: receiver.url('/paced'), events: ['lead.created'] });
		await sandbox.createLead();
		await waitForDeliveryLog(1);
		await sandbox.createLead();
		await waitForDeliveryLog(2);
		const firsts = receiver.at('/paced');
		expect(
			(await sandbox.control.call('POST', '/_sandbox/deliveries/retry-now', { json: { max: 1 } }))
				.body,
		).toEqual({ retried: 1 });
		const attempts = await waitForCount('/paced', 3);
		expect(attempts[2].headers['cm-event-id']).toBe(firsts[0].headers['cm-event-id']);
		expect(attempts[2].headers['cm-delivery-attempt']).toBe('2');
	});

	test('webhook fault ignore_answers: a lost acknowledgement makes the same event arrive again', async () => {
		await sandbox.config({ webhook_retry_delays_ms: [50, 50] });
		expect(
			(
				await sandbox.control.call('PUT', '/_sandbox/webhook-faults', {
					json: { ignore_answers: 1 },
				})
			).status,
		).toBe(200);
		const hook = await createEndpoint({ url: receiver.url('/dup'), events: ['lead.created'] });
		await sandbox.createLead();
		const attempts = await waitForCount('/dup', 2);
		expect(attempts[0].headers['cm-event-id']).toBe(attempts[1].headers['cm-event-id']);
		await waitFor(
			() => endpoint(hook.id),
			(e) => e.status === 'normal',
		);
	});
});

describe('Webhook endpoint status: the test event (spec Events rule 4)', () => {
	test('a 2xx answer to the test event marks the endpoint normal; sent regardless of events and active', async () => {
		const hook = await createEndpoint({
			url: receiver.url('/test-ok'),
			events: ['lead.status_updated'],
			active: false,
		});
		const answer = await sandbox.api.post('/v1/webhooks/' + hook.id + '/test');
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			delivered: true,
			status_code: 200,
			duration_ms: expect.any(Number),
			endpoint_status: 'normal',
		});
		const [delivery] = receiver.at('/test-ok');
		const body = JSON.parse(delivery.raw) as EventBody;
		expect(body).toMatchObject({
			type: 'webhook.test',
			account_id: ACCOUNT_A,
			data: { test: true },
		});
		expect(delivery.headers['cm-event-type']).toBe('webhook.test');
		expect(verifySignature(delivery.headers['cm-signature'], hook.secret, delivery.raw).valid).toBe(
			true,
		);
		expect((await endpoint(hook.id)).status).toBe('normal');
	});

	test('a failed test marks it unreachable; a later 2xx makes it normal again', async () => {
		const hook = await createEndpoint({
			url: receiver.url('/test-flaky'),
			events: ['lead.created'],
		});
		receiver.answer = () => ({ status: 500 });
		expect((await sandbox.api.post(`/v1/webhooks/${hook.id}/test`)).body).toMatchObject({
			delivered: false,
			status_code: 500,
			endpoint_status: 'unreachable',
		});
		expect((await endpoint(hook.id)).status).toBe('unreachable');
		receiver.answer = () => ({ status: 200 });
		expect((await sandbox.api.post(`/v1/webhooks/${hook.id}/test`)).body).toMatchObject({
			delivered: true,
			endpoint_status: 'normal',
		});
	});

	test('connection refused or timeout: delivered false, status_code null, unreachable', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const refused = await createEndpoint({
			url: `http://127.0.0.1:${port}/nobody`,
			events: ['lead.created'],
		});
		expect((await sandbox.api.post(`/v1/webhooks/${refused.id}/test`)).body).toMatchObject({
			delivered: false,
			status_code: null,
			endpoint_status: 'unreachable',
		});

		// The receiver answers only after the test's answer came: that answer is the sandbox's 150 ms timeout.
		await sandbox.config({ webhook_timeout_ms: 150 });
		let answerReceiver!: () => void;
		const held = new Promise<void>((resolve) => (answerReceiver = resolve));
		receiver.answer = () => ({ status: 200, until: held });
		const slow = await createEndpoint({
			url: receiver.url('/test-slow'),
			events: ['lead.created'],
		});
		expect((await sandbox.api.post(`/v1/webhooks/${slow.id}/test`)).body).toMatchObject({
			delivered: false,
			status_code: null,
			endpoint_status: 'unreachable',
		});
		expect(receiver.at('/test-slow')).toHaveLength(1);
		answerReceiver();
	});
});

describe('Webhooks: endpoints CRUD (contract §10)', () => {
	test('the signing secret is returned on create only', async () => {
		const hook = await createEndpoint({
			url: receiver.url('/once'),
			description: 'n8n: New leads',
			events: ['lead.created'],
		});
		expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
		expect(hook).toMatchObject({
			description: 'n8n: New leads',
			events: ['lead.created'],
			active: true,
			status: 'active',
			last_delivery_at: null,
		});
		expect(hook.id).toMatch(/^wh_[a-z0-9]{16}$/);
		const other = await createEndpoint({
			url: 'https://hooks.example.com/cm2',
			events: ['lead.created'],
		});
		expect(other.secret).not.toBe(hook.secret);
		const answers = [
			await sandbox.api.get(`/v1/webhooks/${hook.id}`),
			await sandbox.api.get('/v1/webhooks'),
			await sandbox.api.patch(`/v1/webhooks/${hook.id}`, { description: 'changed' }),
			await sandbox.api.post(`/v1/webhooks/${hook.id}/test`),
			await sandbox.api.delete(`/v1/webhooks/${hook.id}`),
		];
		for (const answer of answers)
			expect(JSON.stringify(answer.body)).not.toMatch(/"secret"|whsec_/);
	});

	test('GET list filters url, event, active; PATCH changes a subset; DELETE removes', async () => {
		const a = await createEndpoint({ url: 'https://a.example/h', events: ['lead.created'] });
		const b = await createEndpoint({
			url: 'https://b.example/h',
			events: ['lead.status_updated'],
			active: false,
		});
		const ids = async (query: string) =>
			(await sandbox.api.get<ListPage<WebhookEndpoint>>(`/v1/webhooks?${query}`)).body.data.map(
				(e) => e.id,
			);
		expect(await ids('')).toEqual([b.id, a.id]);
		expect(await ids('url=https://a.example/h')).toEqual([a.id]);
		expect(await ids('event=lead.status_updated')).toEqual([b.id]);
		expect(await ids('active=false')).toEqual([b.id]);
		expectError(
			await sandbox.api.get('/v1/webhooks?active=maybe'),
			400,
			'invalid_params',
			'active',
		);
		expectError(
			await sandbox.api.get('/v1/webhooks?event=lead.deleted'),
			400,
			'invalid_params',
			'event',
		);
		const patched = await sandbox.api.patch<WebhookEndpoint>(`/v1/webhooks/${a.id}`, {
			events: ['lead.created', 'lead.status_updated'],
			active: false,
		});
		expect(patched.body).toMatchObject({
			url: a.url,
			events: ['lead.created', 'lead.status_updated'],
			active: false,
		});
		expectError(await sandbox.api.patch(`/v1/webhooks/${a.id}`, {}), 400, 'invalid_params', 'body');
		expectError(
			await sandbox.api.patch(`/v1/webhooks/${a.id}`, { status: 'normal' }),
			400,
			'invalid_params',
			'status',
		);
		expect((await sandbox.api.delete(`/v1/webhooks/${a.id}`)).status).toBe(200);
		expectError(await sandbox.api.get(`/v1/webhooks/${a.id}`), 404, 'not_found');
	});

	test('URL rules: https with a host; http only for loopback hosts while allow_http_webhooks is true', async () => {
		const post = (url: string) =>
			sandbox.api.post('/v1/webhooks', { url, events: ['lead.created'] });
		expect((await post('https://hooks.example.com/x')).status).toBe(201);
		expect((await post('http://127.0.0.1:9/x')).status).toBe(201);
		expect((await post('http://localhost:9/x')).status).toBe(201);
		expect((await post('http://[::1]:9/x')).status).toBe(201);
		expectError(await post('http://hooks.example.com/x'), 400, 'invalid_params', 'url');
		expectError(await post('ftp://hooks.example.com/x'), 400, 'invalid_params', 'url');
		expectError(await post('not a url'), 400, 'invalid_params', 'url');
		await sandbox.config({ allow_http_webhooks: false });
		expectError(await post('http://127.0.0.1:9/x'), 400, 'invalid_params', 'url');
		expect((await post('https://hooks.example.com/y')).status).toBe(201);
	});

	test('body rules: events 1..10 unique known types, description ≤ 500, active boolean, nothing else', async () => {
		const before = await sandbox.snapshot();
		const post = (fields: object) =>
			sandbox.api.post('/v1/webhooks', {
				url: 'https://hooks.example.com/x',
				events: ['lead.created'],
				...fields,
			});
		expectError(await post({ events: [] }), 400, 'invalid_params', 'events');
		expectError(await post({ events: ['lead.deleted'] }), 400, 'invalid_params', 'events.0');
		expectError(await post({ events: ['webhook.test'] }), 400, 'invalid_params', 'events.0');
		expectError(
			await post({ events: ['lead.created', 'lead.created'] }),
			400,
			'invalid_params',
			'events.1',
		);
		expectError(await post({ events: 'lead.created' }), 400, 'invalid_params', 'events');
		expectError(await post({ description: 'x'.repeat(501) }), 400, 'invalid_params', 'description');
		expectError(await post({ active: 'yes' }), 400, 'invalid_params', 'active');
		expectError(await post({ secret: 'whsec_mine' }), 400, 'invalid_params', 'secret');
		expectError(await post({ status: 'normal' }), 400, 'invalid_params', 'status');
		expectError(
			await sandbox.api.post('/v1/webhooks', { events: ['lead.created'] }),
			400,
			'invalid_params',
			'url',
		);
		expect(await sandbox.snapshot()).toBe(before);
	});

	test('GET /v1/webhooks/event-types lists the two event types', async () => {
		const answer = await sandbox.readOnly.get('/v1/webhooks/event-types');
		expect(answer.body).toEqual({
			object: 'list',
			data: [
				{ type: 'lead.created', description: expect.any(String) },
				{ type: 'lead.status_updated', description: expect.any(String) },
			],
			has_more: false,
			next_cursor: null,
		});
	});
});
