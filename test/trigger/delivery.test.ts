import { request } from 'node:http';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Delivery, Harness, StaticDataStore, TriggerHarness } from '../harness';
import {
	FAST_RETRIES,
	useTriggerSandbox,
	eventBody,
	harnessFor,
	journalHolds,
	leadFixture,
	recordFor,
	sign,
	signedHeaders,
	nextCallStarted,
	triggerOf,
	unixNow,
} from './trigger-bed';

const sandbox = useTriggerSandbox(FAST_RETRIES);
let harness: Harness;

beforeEach(async () => {
	harness = await harnessFor(sandbox, { serve: true });
});

afterEach(async () => {
	await sandbox.control.post('/_sandbox/reset');
	await harness.close();
});

async function activeTrigger(
	parameters: INodeParameters = { events: ['lead.created'] },
): Promise<TriggerHarness> {
	const trigger = triggerOf(harness, parameters);
	await trigger.activate('trigger');
	return trigger;
}

function secretOf(trigger: TriggerHarness, mode: 'trigger' | 'manual' = 'trigger'): string {
	const record = recordFor(trigger, trigger.webhookUrl(mode));
	if (record === undefined) throw new Error('The trigger holds no endpoint');
	return record.secret;
}

/** A POST whose headers and first bytes go out now and whose body is completed by `finish()`. */
function startSlowPost(
	url: string,
	headers: Record<string, string>,
	body: string,
): { finish(): Promise<number> } {
	const req = request(url, {
		method: 'POST',
		headers: { ...headers, 'content-length': Buffer.byteLength(body) },
	});
	const answer = new Promise<number>((resolve, reject) => {
		req.on('response', (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
	});
	req.write(body.slice(0, 10));
	return {
		async finish() {
			req.end(body.slice(10));
			return await answer;
		},
	};
}

const emitted = (deliveries: Delivery[]) => deliveries.flatMap((delivery) => delivery.items);
const reasonOf = (delivery: Delivery) =>
	(delivery.response?.webhookResponse as IDataObject | undefined)?.reason;

describe('Content Marketing Trigger: deliveries from the service', () => {
	test('a lead created through the API reaches the trigger signed and is emitted once', async () => {
		const trigger = await activeTrigger();
		const next = trigger.nextDelivery();

		const lead = await sandbox.createLead({ company: 'Analytical Engines' });
		const delivery = await next;

		expect(delivery.headers['cm-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		expect(delivery.items).toHaveLength(1);
		const output = delivery.items[0].json;
		expect(output).toMatchObject({
			id: lead.id,
			email: lead.email,
			company: 'Analytical Engines',
			status: 'new',
			event_type: 'lead.created',
			previous_status: null,
		});
		expect(output.event_id).toMatch(/^evt_/);
		expect(output.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		const attempts = await sandbox.waitForDeliveries((all) =>
			all.some((a) => a.event_id === output.event_id && a.ok),
		);
		expect(attempts.filter((a) => a.event_id === output.event_id)).toHaveLength(1);
		expect(emitted(trigger.deliveries)).toHaveLength(1);
	});

	test('status updates are emitted with the previous status, and the status filter drops other statuses', async () => {
		const trigger = await activeTrigger({
			events: ['lead.status_updated'],
			options: { statuses: ['qualified'] },
		});
		const lead = await sandbox.createLead();

		let next = trigger.nextDelivery();
		await sandbox.setLeadStatus(String(lead.id), 'contacted');
		const filtered = await next;
		expect(filtered.items).toHaveLength(0);
		expect(reasonOf(filtered)).toBe('filtered out');

		next = trigger.nextDelivery();
		await sandbox.setLeadStatus(String(lead.id), 'qualified');
		const delivery = await next;
		expect(delivery.items).toHaveLength(1);
		expect(delivery.items[0].json).toMatchObject({
			id: lead.id,
			status: 'qualified',
			previous_status: 'contacted',
			event_type: 'lead.status_updated',
		});
		expect(emitted(trigger.deliveries)).toHaveLength(1);
	});

	test('the source resource filter drops leads from other resources and keeps matching ones', async () => {
		const resourceId = 'res_wantedresource01';
		const trigger = await activeTrigger({
			events: ['lead.created'],
			options: { sourceResource: { __rl: true, mode: 'id', value: resourceId } },
		});

		const next = trigger.nextDelivery();
		await sandbox.createLead();
		const fromApi = await next;
		expect(fromApi.items).toHaveLength(0);
		expect(reasonOf(fromApi)).toBe('filtered out');

		const body = eventBody('lead.created', leadFixture({ source_resource_id: resourceId }));
		const matching = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body)),
		});
		expect(matching.status).toBe(200);
		expect(matching.items).toHaveLength(1);
		expect(matching.items[0].json.source_resource_id).toBe(resourceId);
	});

	test('raw output (Simplify off) is the whole event payload', async () => {
		const trigger = await activeTrigger({ events: ['lead.created'], simple: false });
		const next = trigger.nextDelivery();

		const lead = await sandbox.createLead();
		const delivery = await next;

		expect(delivery.items).toHaveLength(1);
		const output = delivery.items[0].json;
		expect(output).toMatchObject({
			type: 'lead.created',
			api_version: 'v1',
			data: { lead: { id: lead.id } },
		});
		expect(output.id).toMatch(/^evt_/);
	});

	test('the same event reaches the test URL and the production URL and is emitted once by each', async () => {
		const trigger = triggerOf(harness, { events: ['lead.created'] });
		await trigger.activate('manual');
		await trigger.activate('trigger');

		await sandbox.createLead();
		const attempts = await sandbox.waitForDeliveries((all) => all.filter((a) => a.ok).length === 2);

		expect(new Set(attempts.map((a) => a.event_id)).size).toBe(1);
		expect(trigger.deliveries.map((d) => d.mode).sort()).toEqual(['manual', 'trigger']);
		expect(emitted(trigger.deliveries)).toHaveLength(2);
	});

	test('the webhook.test event is acknowledged with 200 and not emitted', async () => {
		const trigger = await activeTrigger();
		const [endpoint] = await sandbox.endpoints();

		const answer = await sandbox.api.post<IDataObject>(`/v1/webhooks/${endpoint.id}/test`);

		expect(answer.body).toMatchObject({ delivered: true, status_code: 200 });
		expect(trigger.deliveries).toHaveLength(1);
		expect(trigger.deliveries[0].items).toHaveLength(0);
		expect(reasonOf(trigger.deliveries[0])).toBe('test event');
	});

	test("the service's retry after a lost acknowledgement is emitted once", async () => {
		const trigger = await activeTrigger();
		await sandbox.control.put('/_sandbox/webhook-faults', { ignore_answers: 1 });

		await sandbox.createLead();
		const attempts = await sandbox.waitForDeliveries((all) =>
			all.some((a) => a.attempt === 2 && a.ok),
		);

		expect(attempts.map((a) => [a.attempt, a.ok])).toEqual([
			[1, false],
			[2, true],
		]);
		expect(trigger.deliveries).toHaveLength(2);
		expect(emitted(trigger.deliveries)).toHaveLength(1);
		expect(reasonOf(trigger.deliveries[1])).toBe('duplicate');
	});
});

describe('Content Marketing Trigger: an accepted event is answered once n8n stored its execution', () => {
	/** Holds the trigger's execution stores until `release()`; `started` settles once one began. */
	function heldStore(trigger: TriggerHarness): { release(): void; started: Promise<void> } {
		let release!: () => void;
		let began!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const started = new Promise<void>((resolve) => (began = resolve));
		trigger.storeExecution = async () => {
			began();
			await held;
		};
		return { release, started };
	}

	test('the 200 goes out only after the execution is stored, with the event already in the saved journal', async () => {
		const trigger = await activeTrigger();
		const url = trigger.webhookUrl('trigger');
		const store = heldStore(trigger);
		const body = eventBody('lead.created', leadFixture());
		const { id } = JSON.parse(body) as { id: string };

		let answered = false;
		const delivering = trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body)),
		});
		void delivering.then(() => (answered = true));
		await store.started;
		expect(answered).toBe(false);
		expect(journalHolds(recordFor(trigger, url), [id])).toEqual([]);

		store.release();
		const result = await delivering;
		expect(result.status).toBe(200);
		expect(result.items).toHaveLength(1);
		expect(journalHolds(recordFor(trigger, url), [id])).toEqual([id]);
	});

	test('when n8n cannot store the execution (its database refuses the write), the service hears 500 and its retry runs the event once', async () => {
		const trigger = await activeTrigger();
		let refusals = 1;
		trigger.storeExecution = () => {
			if (refusals-- > 0) throw new Error('SQLITE_BUSY: database is locked');
		};

		await sandbox.createLead();
		const attempts = await sandbox.waitForDeliveries((all) =>
			all.some((a) => a.attempt === 2 && a.ok),
		);

		expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
			[1, 500],
			[2, 200],
		]);
		expect(emitted(trigger.deliveries)).toHaveLength(1);
		expect(
			journalHolds(recordFor(trigger, trigger.webhookUrl('trigger')), [attempts[0].event_id]),
		).toHaveLength(1);
	});

	test('a retry that arrives while the first attempt is still being stored starts nothing (503); the next one is a duplicate', async () => {
		const trigger = await activeTrigger();
		const store = heldStore(trigger);
		const body = eventBody('lead.created', leadFixture());
		const secret = secretOf(trigger);
		const attempt = (n: number) => ({
			body,
			headers: { ...signedHeaders(sign(secret, body)), 'CM-Delivery-Attempt': String(n) },
		});

		const first = trigger.deliver(attempt(1));
		await store.started;
		const second = await trigger.deliver(attempt(2));
		expect(second.status).toBe(503);
		expect(JSON.parse(second.responseBody)).toEqual({ error: 'event_in_progress' });
		expect(second.items).toHaveLength(0);

		store.release();
		expect((await first).status).toBe(200);
		const third = await trigger.deliver(attempt(3));
		expect(third.status).toBe(200);
		expect(reasonOf(third)).toBe('duplicate');
		expect(emitted(trigger.deliveries)).toHaveLength(1);
	});
});

describe("Content Marketing Trigger: an execution never writes static data (n8n saves the copy loaded at the run's start)", () => {
	test('the workflow re-activated during a long execution keeps its new endpoint: the deliveries after the execution verify', async () => {
		const trigger = await activeTrigger();
		let next = trigger.nextDelivery();
		await sandbox.createLead();
		const first = await next;
		expect(first.items).toHaveLength(1);
		const [before] = await sandbox.endpoints();

		await trigger.runExecution(first.items, {
			meanwhile: async () => {
				await trigger.deactivate('trigger');
				await trigger.activate('trigger');
			},
		});
		const [after] = await sandbox.endpoints();
		expect(after.id).not.toBe(before.id);
		expect(recordFor(trigger, trigger.webhookUrl('trigger'))?.id).toBe(after.id);

		next = trigger.nextDelivery();
		const lead = await sandbox.createLead();
		const delivery = await next;
		expect(delivery.items.map((item) => item.json.id)).toEqual([lead.id]);
		const attempts = await sandbox.waitForDeliveries((all) =>
			all.some((a) => a.endpoint_id === after.id && a.ok),
		);
		expect(attempts.filter((a) => a.endpoint_id === after.id).map((a) => a.status_code)).toEqual([
			200,
		]);
	});

	test("another node's static data saved during an execution is still there after it", async () => {
		const store: StaticDataStore = { data: {} };
		const trigger = triggerOf(harness, { events: ['lead.created'] }, { staticDataStore: store });
		await trigger.activate('trigger');
		const next = trigger.nextDelivery();
		await sandbox.createLead();
		const { items } = await next;

		const otherNode = { cursor: 'lead_after_the_run_started' };
		const output = await trigger.runExecution(items, {
			meanwhile: async () => {
				// Another trigger of the workflow (a poll) saves its state while this run goes on.
				store.data = { ...store.data, 'node:Poll Trigger': otherNode };
			},
		});
		expect(output).toHaveLength(1);
		expect(store.data['node:Poll Trigger']).toEqual(otherNode);
	});
});

describe('Content Marketing Trigger: deliveries that start nothing', () => {
	test('a forged delivery (signed with a made-up secret) is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign('whsec_forged', body)),
		});

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('an unsigned delivery is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({ body, headers: { 'content-type': 'application/json' } });

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('a malformed signature header is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({ body, headers: signedHeaders('v1=abc,t=yesterday') });

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('a stale delivery (timestamp more than 300 s old) is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body, unixNow() - 301)),
		});

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('a delivery timestamped more than 300 s in the future is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body, unixNow() + 301)),
		});

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test("a delivery signed with another endpoint's secret is refused with 401", async () => {
		const trigger = await activeTrigger();
		const other = await sandbox.api.post<{ secret: string }>('/v1/webhooks', {
			url: 'https://elsewhere.example/hook',
			events: ['lead.created'],
		});
		const body = eventBody('lead.created', leadFixture());

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(other.body.secret, body)),
		});

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('a body altered after signing is refused with 401', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());
		const signature = sign(secretOf(trigger), body);

		const result = await trigger.deliver({
			body: body.replace('Grace Hopper', 'Mallory'),
			headers: signedHeaders(signature),
		});

		expect(result.status).toBe(401);
		expect(result.items).toHaveLength(0);
	});

	test('a replayed delivery (same event id) is acknowledged with 200 and not emitted', async () => {
		const trigger = await activeTrigger();
		const next = trigger.nextDelivery();
		await sandbox.createLead();
		const original = await next;
		expect(original.items).toHaveLength(1);

		const replay = await trigger.deliver({
			body: original.rawBody,
			headers: signedHeaders(String(original.headers['cm-signature'])),
		});

		expect(replay.status).toBe(200);
		expect(replay.items).toHaveLength(0);
		expect(reasonOf(replay)).toBe('duplicate');
		expect(JSON.parse(replay.responseBody)).toEqual({
			received: true,
			emitted: false,
			reason: 'duplicate',
			event_id: String(original.headers['cm-event-id']),
		});
	});

	test("an accepted event is answered with a JSON body naming it (not n8n's default text)", async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());
		const { id } = JSON.parse(body) as { id: string };

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body)),
		});

		expect(result.status).toBe(200);
		expect(result.items).toHaveLength(1);
		expect(result.responseHeaders['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(result.responseBody)).toEqual({
			received: true,
			emitted: true,
			reason: 'new event',
			event_id: id,
		});
	});

	test('a replay is still recognised after a restart, from the ids kept in static data', async () => {
		const trigger = await activeTrigger();
		const secret = secretOf(trigger);
		const body = eventBody('lead.created', leadFixture());
		const first = await trigger.deliver({ body, headers: signedHeaders(sign(secret, body)) });
		expect(first.items).toHaveLength(1);
		const eventId = (JSON.parse(body) as { id: string }).id;
		expect(journalHolds(recordFor(trigger, trigger.webhookUrl('trigger')), [eventId])).toEqual([
			eventId,
		]);

		// A new process would have an empty memory; a new node id gives this instance its own memory scope.
		const restarted = await harnessFor(sandbox, { serve: true });
		try {
			const again = triggerOf(
				restarted,
				{ events: ['lead.created'] },
				{
					webhookId: trigger.node.webhookId,
					staticData: trigger.staticData,
				},
			);
			const replay = await again.deliver({ body, headers: signedHeaders(sign(secret, body)) });
			expect(replay.status).toBe(200);
			expect(replay.items).toHaveLength(0);
			expect(reasonOf(replay)).toBe('duplicate');
		} finally {
			await restarted.close();
		}
	});

	test('a duplicate received while the first delivery is still being handled is not emitted twice', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());
		const headers = signedHeaders(sign(secretOf(trigger), body));

		// The slow request reaches webhook() with the static data loaded before the fast one saved its
		// event id, like two concurrent webhook calls in n8n that both load the workflow from the database.
		const slowStarted = nextCallStarted(trigger);
		const slow = startSlowPost(trigger.webhookUrl('trigger'), headers, body);
		await slowStarted;
		const fast = await trigger.deliver({ body, headers });
		const slowStatus = await slow.finish();

		expect([fast.status, slowStatus]).toEqual([200, 200]);
		expect(trigger.deliveries).toHaveLength(2);
		expect(emitted(trigger.deliveries)).toHaveLength(1);
	});

	test('an unsubscribed event type is acknowledged with 200 and not emitted', async () => {
		const trigger = await activeTrigger({ events: ['lead.created'] });
		const body = eventBody('lead.status_updated', leadFixture({ status: 'lost' }), {
			previous_status: 'new',
		});

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body)),
		});

		expect(result.status).toBe(200);
		expect(result.items).toHaveLength(0);
		expect(reasonOf(result)).toBe('event type not subscribed');
	});

	test('a signed body that is not an event is refused with 400', async () => {
		const trigger = await activeTrigger();
		const body = JSON.stringify({ hello: 'world' });

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(sign(secretOf(trigger), body)),
		});

		expect(result.status).toBe(400);
		expect(result.items).toHaveLength(0);
	});
});

describe('Content Marketing Trigger: tolerated signature header forms (contract §10/§11)', () => {
	test('X-CM-Signature with ";" separators, spaces and several v1 entries is accepted', async () => {
		const trigger = await activeTrigger();
		const body = eventBody('lead.created', leadFixture());
		const timestamp = unixNow();
		const valid = sign(secretOf(trigger), body, timestamp).split(',')[1];
		const header = `t=${timestamp}; v1=${'0'.repeat(64)} ; ${valid}`;

		const result = await trigger.deliver({
			body,
			headers: signedHeaders(header, 'X-CM-Signature'),
		});

		expect(result.status).toBe(200);
		expect(result.items).toHaveLength(1);
	});
});
