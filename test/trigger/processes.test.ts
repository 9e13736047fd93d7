import { request } from 'node:http';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	DEFER_AFTER_WAIT_MS,
	MAX_WAITING_CALLS,
} from '../../dist/nodes/ContentMarketing/trigger/saveOrder';
import { RETRY_SETTLE_SECONDS } from '../../dist/nodes/ContentMarketing/trigger/eventLedger';
import type { DeliveryResult, Harness, StaticDataStore, TriggerHarness } from '../harness';
import type { EndpointRecord } from './trigger-bed';
import {
	FAST_RETRIES,
	journalHolds,
	journalPrints,
	useTriggerSandbox,
	eventBody,
	harnessFor,
	leadFixture,
	recordFor,
	sign,
	nextCallStarted,
	signedHeaders,
	sleep,
	triggerOf,
	unixNow,
} from './trigger-bed';

/**
 * Several n8n processes (queue mode's webhook processors, or one process before and after a
 * restart) on one database row of static data. The harness plays n8n's semantics: each call loads
 * the row afresh and, after `webhook()`, saves the whole object back (last write wins). Each
 * process is a harness of its own, so its trigger has its own node id and thus its own in-memory
 * ids, as a separate process would.
 */
const sandbox = useTriggerSandbox(FAST_RETRIES);
const PARAMETERS = { events: ['lead.created'] };
const opened: Harness[] = [];

afterEach(async () => {
	await sandbox.control.post('/_sandbox/reset');
	for (const harness of opened.splice(0)) await harness.close();
});

interface Cluster {
	store: StaticDataStore;
	secret: string;
	/** The production URL the endpoint was registered for (the record's key in static data). */
	url: string;
	webhookId: string;
	/** Starts one more process on the same row (a webhook processor, or a restart). */
	start(): Promise<TriggerHarness>;
}

async function cluster(): Promise<Cluster> {
	const store: StaticDataStore = { data: {} };
	const main = await harnessFor(sandbox, { serve: true });
	opened.push(main);
	const activator = triggerOf(main, PARAMETERS, { staticDataStore: store });
	await activator.activate('trigger');
	const url = activator.webhookUrl('trigger');
	const secret = recordFor(activator, url)?.secret;
	if (secret === undefined) throw new Error('activation stored no endpoint');
	const webhookId = activator.node.webhookId ?? '';
	return {
		store,
		secret,
		url,
		webhookId,
		async start() {
			const harness = await harnessFor(sandbox, { serve: true });
			opened.push(harness);
			return harness.trigger({
				type: harness.typeName('contentMarketingTrigger'),
				parameters: PARAMETERS,
				webhookId,
				staticDataStore: store,
			});
		},
	};
}

interface SignedEvent {
	id: string;
	body: string;
}

/**
 * Events created RETRY_SETTLE_SECONDS ago unless `createdSecondsAgo` says otherwise: their retries are
 * those the service sends once another process has had time to save (the settling test is about the
 * earlier ones).
 */
function events(count: number, createdSecondsAgo = RETRY_SETTLE_SECONDS): SignedEvent[] {
	return Array.from({ length: count }, () => {
		const body = eventBody('lead.created', leadFixture(), {}, createdSecondsAgo);
		return { id: (JSON.parse(body) as { id: string }).id, body };
	});
}

/** A signed delivery; `attempt` sets CM-Delivery-Attempt (docs/api-contract.md §10), absent by default. */
async function deliver(
	trigger: TriggerHarness,
	secret: string,
	event: SignedEvent,
	attempt?: number,
) {
	const headers: Record<string, string> = signedHeaders(sign(secret, event.body));
	if (attempt !== undefined) headers['CM-Delivery-Attempt'] = String(attempt);
	return await trigger.deliver({ body: event.body, headers });
}

/**
 * A delivery whose request reaches the process (which loads the static data then) but whose body
 * is held back until `finish()`: its save comes after whatever other calls save meanwhile.
 */
function heldDelivery(
	trigger: TriggerHarness,
	secret: string,
	event: SignedEvent,
): { finish(): Promise<number> } {
	const headers = {
		...signedHeaders(sign(secret, event.body)),
		'content-length': String(Buffer.byteLength(event.body)),
	};
	const req = request(trigger.webhookUrl('trigger'), { method: 'POST', headers });
	const answer = new Promise<number>((resolve, reject) => {
		req.on('response', (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
	});
	req.write(event.body.slice(0, 10));
	return {
		async finish() {
			req.end(event.body.slice(10));
			return await answer;
		},
	};
}

/** The database row's record of the endpoint now. */
function storedRecord(cluster: Cluster): EndpointRecord | undefined {
	const node = cluster.store.data['node:Trigger'] as {
		endpoints?: Record<string, EndpointRecord>;
	};
	return node.endpoints?.[cluster.url];
}

/** The events of `batch` whose fingerprints the row's journal holds now. */
function storedIds(cluster: Cluster, batch: SignedEvent[]): string[] {
	return journalHolds(
		storedRecord(cluster),
		batch.map((event) => event.id),
	);
}
/** Holds `processor`'s first execution store (a stalled database) until `release()`. */
function holdFirstStore(processor: TriggerHarness): { release(): void; started(): Promise<void> } {
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	let stores = 0;
	processor.storeExecution = async () => {
		if (stores++ === 0) await held;
	};
	return {
		release,
		async started() {
			while (stores === 0) await sleep(10);
		},
	};
}

/**
 * A process killed right after n8n stored each execution (`stored`, in order): its calls save no static
 * data and never answer.
 */
async function killedOnceStored(
	cluster: Cluster,
): Promise<{ killed: TriggerHarness; stored: INodeExecutionData[][] }> {
	const killed = await cluster.start();
	const stored: INodeExecutionData[][] = [];
	killed.storeExecution = (items) => {
		stored.push(items);
		throw new Error('n8n was killed');
	};
	return { killed, stored };
}

const executions = (trigger: TriggerHarness) =>
	trigger.deliveries.filter((delivery) => delivery.items.length > 0).length;
const bodyOf = (result: { responseBody: string }) => JSON.parse(result.responseBody) as IDataObject;

describe('Content Marketing Trigger: one event, one execution across processes and restarts', () => {
	test('an early retry this process has no record of is answered 503 and runs nothing; signed after the settle window, it runs once, and a saved one is a duplicate at once', async () => {
		const shared = await cluster();
		const [first, second] = await Promise.all([shared.start(), shared.start()]);
		const [unseen, accepted] = events(2, 0);

		// An attempt 2 of an event no process accepted, signed just after the event: it waits.
		const early = await deliver(second, shared.secret, unseen, 2);
		expect(early.status).toBe(503);
		expect(bodyOf(early)).toEqual({ error: 'event_deferred' });
		expect(executions(second)).toBe(0);

		// The service's next attempt, signed once the window has passed, runs it, once.
		const late = await second.deliver({
			body: unseen.body,
			headers: {
				...signedHeaders(sign(shared.secret, unseen.body, unixNow() + RETRY_SETTLE_SECONDS)),
				'CM-Delivery-Attempt': '3',
			},
		});
		expect(bodyOf(late).reason).toBe('new event');
		expect(executions(second)).toBe(1);

		// An early retry of an event another process accepted and saved is a duplicate, not held back.
		expect(bodyOf(await deliver(first, shared.secret, accepted, 1)).reason).toBe('new event');
		expect(bodyOf(await deliver(second, shared.secret, accepted, 2)).reason).toBe('duplicate');
		expect(executions(first) + executions(second)).toBe(2);

		// A `created_at` after the signing is no clock to wait by: the retry runs at once.
		const [future] = events(1, -3600);
		expect(bodyOf(await deliver(second, shared.secret, future, 2)).reason).toBe('new event');
		expect(executions(first) + executions(second)).toBe(3);
	});

	test('an execution n8n re-runs after a kill (n8n 2.41) makes the retry of its event a duplicate, also after one more restart', async () => {
		const shared = await cluster();
		const { killed, stored } = await killedOnceStored(shared);
		const [recovered, notRecovered] = events(2);
		for (const event of [recovered, notRecovered]) await deliver(killed, shared.secret, event, 1);
		expect(stored).toHaveLength(2);
		expect(storedIds(shared, [recovered, notRecovered])).toEqual([]);

		// At start n8n re-runs the first execution; the second stays unrun (n8n 2.8 never re-runs one).
		const restarted = await shared.start();
		const output = await restarted.runExecution(stored[0], { recovered: true });
		expect(output.map((item) => item.json)).toEqual(stored[0].map((item) => item.json));

		const retry = await deliver(restarted, shared.secret, recovered, 2);
		expect(bodyOf(retry).reason).toBe('duplicate');
		const otherRetry = await deliver(restarted, shared.secret, notRecovered, 2);
		expect(bodyOf(otherRetry).reason).toBe('new event');
		expect(executions(restarted)).toBe(1);

		const again = await shared.start();
		const late = await deliver(again, shared.secret, recovered, 3);
		expect(bodyOf(late).reason).toBe('duplicate');
		expect(executions(again)).toBe(0);
	});

	test('a killed execution n8n re-ran is saved by the next call, so its retry is a duplicate after one more kill', async () => {
		const shared = await cluster();
		const { killed, stored } = await killedOnceStored(shared);
		const [recovered, later] = events(2);
		await deliver(killed, shared.secret, recovered, 1);

		// The restarted process re-runs it (no static data), serves another event, and is killed again.
		const restarted = await shared.start();
		expect(await restarted.runExecution(stored[0], { recovered: true })).toHaveLength(1);
		expect(bodyOf(await deliver(restarted, shared.secret, later, 1)).reason).toBe('new event');
		expect(storedIds(shared, [recovered])).toEqual([recovered.id]);

		const again = await shared.start();
		expect(bodyOf(await deliver(again, shared.secret, recovered, 5)).reason).toBe('duplicate');
		expect(executions(again)).toBe(0);
	});

	test('a killed execution n8n re-ran before it activated the workflow is saved by the activation, so its retry is a duplicate after one more kill', async () => {
		const shared = await cluster();
		const { killed, stored } = await killedOnceStored(shared);
		const [recovered] = events(1);
		await deliver(killed, shared.secret, recovered, 1);

		// n8n 2.41 starts its re-runs, then activates; the process is killed again before any call. It
		// serves no call, so its webhook URL keeps the cluster's origin (the URL the endpoint is kept by).
		const processAfterKill = await harnessFor(sandbox, { origin: new URL(shared.url).origin });
		opened.push(processAfterKill);
		const restarted = triggerOf(processAfterKill, PARAMETERS, {
			staticDataStore: shared.store,
			webhookId: shared.webhookId,
		});
		expect(await restarted.runExecution(stored[0], { recovered: true })).toHaveLength(1);
		expect(storedIds(shared, [recovered])).toEqual([]);
		await restarted.activate('trigger');
		expect(storedIds(shared, [recovered])).toEqual([recovered.id]);

		const again = await shared.start();
		expect(bodyOf(await deliver(again, shared.secret, recovered, 5)).reason).toBe('duplicate');
		expect(executions(again)).toBe(0);
	});

	test('when the retry of its event runs before n8n re-runs a killed execution, the re-run passes nothing on', async () => {
		const shared = await cluster();
		const { killed, stored } = await killedOnceStored(shared);
		const [event] = events(1);
		await deliver(killed, shared.secret, event, 1);

		const restarted = await shared.start();
		const retry = await deliver(restarted, shared.secret, event, 2);
		expect(bodyOf(retry).reason).toBe('new event');
		const retried = restarted.deliveries.at(-1)?.items ?? [];
		expect(await restarted.runExecution(retried)).toHaveLength(1);
		// The execution n8n stored before the kill, re-run after the retry's: its items go no further.
		expect(await restarted.runExecution(stored[0], { recovered: true })).toEqual([]);
	});

	test("an execution goes past the trigger only once n8n answered its call, after saving the call's journal: a run n8n counts as done is in the saved journal", async () => {
		const shared = await cluster();
		const process = await shared.start();
		const [event] = events(1);
		let savedWhenRunEnded: Promise<string[]> | undefined;
		// WorkflowRunner.run starts the execution as it stores it, and n8n goes on with the call: here the
		// call's save comes many turns of the event loop after the run could have ended.
		process.storeExecution = (items) => {
			savedWhenRunEnded = process
				.runExecution(items)
				.then((output) => (output.length === 1 ? storedIds(shared, [event]) : []));
		};
		shared.store.saveLatency = async () => {
			for (let turn = 0; turn < 100; turn++) await new Promise((resolve) => setImmediate(resolve));
		};

		expect(bodyOf(await deliver(process, shared.secret, event, 1)).reason).toBe('new event');
		expect(await savedWhenRunEnded).toEqual([event.id]);

		const restarted = await shared.start();
		expect(bodyOf(await deliver(restarted, shared.secret, event, 2)).reason).toBe('duplicate');
		expect(executions(restarted)).toBe(0);
	});

	test("a retry from n8n's Executions list (mode retry) passes the event on again", async () => {
		const shared = await cluster();
		const process = await shared.start();
		const [event] = events(1);
		expect(bodyOf(await deliver(process, shared.secret, event, 1)).reason).toBe('new event');
		const items = process.deliveries.at(-1)?.items ?? [];
		expect(await process.runExecution(items)).toHaveLength(1);
		expect(await process.runExecution(items, { mode: 'retry' })).toHaveLength(1);
	});

	test('an execution run by a process that did not receive its call (a queue-mode worker) leaves static data as it is', async () => {
		const shared = await cluster();
		const processor = await shared.start();
		const [event] = events(1);
		let items: INodeExecutionData[] = [];
		processor.storeExecution = (stored) => {
			items = stored;
			throw new Error('n8n was killed');
		};
		await deliver(processor, shared.secret, event, 1);
		const before = structuredClone(shared.store.data);

		const worker = await shared.start();
		expect(await worker.runExecution(items)).toHaveLength(1);
		expect(shared.store.data).toEqual(before);
	});

	test('while the editor listens for a test event, the test run and the production run each get the event, in either order', async () => {
		const shared = await cluster();
		const process = await shared.start();
		await process.activate('manual');
		const testSecret = recordFor(process, process.webhookUrl('manual'))?.secret ?? '';
		const toTest = async (event: SignedEvent) =>
			await process.deliver({
				mode: 'manual',
				body: event.body,
				headers: signedHeaders(sign(testSecret, event.body)),
			});
		const [productionFirst, testFirst] = events(2);

		expect(bodyOf(await deliver(process, shared.secret, productionFirst)).reason).toBe('new event');
		expect(await process.runExecution(process.deliveries.at(-1)?.items ?? [])).toHaveLength(1);
		expect(bodyOf(await toTest(productionFirst)).reason).toBe('new event');
		const testRun = process.deliveries.at(-1)?.items ?? [];
		expect(await process.runExecution(testRun, { mode: 'manual' })).toHaveLength(1);

		expect(bodyOf(await toTest(testFirst)).reason).toBe('new event');
		const firstTestRun = process.deliveries.at(-1)?.items ?? [];
		expect(await process.runExecution(firstTestRun, { mode: 'manual' })).toHaveLength(1);
		expect(bodyOf(await deliver(process, shared.secret, testFirst)).reason).toBe('new event');
		expect(await process.runExecution(process.deliveries.at(-1)?.items ?? [])).toHaveLength(1);
	});

	test('20 concurrent deliveries, then a restart: every re-delivery is answered "duplicate"', async () => {
		const shared = await cluster();
		const before = await shared.start();
		const batch = events(20);

		const first = await Promise.all(
			batch.map(async (event) => await deliver(before, shared.secret, event)),
		);
		expect(first.map((result) => result.status)).toEqual(batch.map(() => 200));
		expect(executions(before)).toBe(20);
		expect(storedIds(shared, batch).sort()).toEqual(batch.map((event) => event.id).sort());
		expect(journalPrints(storedRecord(shared))).toHaveLength(batch.length);

		const after = await shared.start();
		const again = await Promise.all(
			batch.map(async (event) => await deliver(after, shared.secret, event)),
		);
		expect(executions(after)).toBe(0);
		expect(again.map((result) => bodyOf(result).reason)).toEqual(batch.map(() => 'duplicate'));
	});

	test('20 concurrent deliveries whose saves take the longer the earlier they start, then a restart: nothing runs twice', async () => {
		const shared = await cluster();
		const before = await shared.start();
		const batch = events(20);
		// Left to land in any order, the first save (the fewest entries) would land last.
		let saves = 0;
		shared.store.saveLatency = async () => {
			await sleep(Math.max(0, 100 - 5 * saves++));
		};

		const first = await Promise.all(
			batch.map(async (event) => await deliver(before, shared.secret, event)),
		);
		expect(first.map((result) => result.status)).toEqual(batch.map(() => 200));
		expect(executions(before)).toBe(20);
		expect(saves).toBe(20);
		expect(storedIds(shared, batch).sort()).toEqual(batch.map((event) => event.id).sort());

		const after = await shared.start();
		for (const event of batch) await deliver(after, shared.secret, event, 2);
		expect(executions(after)).toBe(0);
	});

	test(`a stalled store holds up at most ${MAX_WAITING_CALLS} calls in line: the calls beyond it are answered meanwhile`, async () => {
		const shared = await cluster();
		const processor = await shared.start();
		const store = holdFirstStore(processor);
		const batch = events(MAX_WAITING_CALLS + 4);
		let released = false;
		const answeredWhileHeld: number[] = [];
		let all: DeliveryResult[] = [];
		const first = deliver(processor, shared.secret, batch[0]);
		await store.started();
		// The clock stands still while the store is held: the calls in line wait for their turn, not
		// for the time that would have them answered 503 (the next test), however slow the machine.
		const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
		try {
			const rest = batch.slice(1).map(async (event, index) => {
				const result = await deliver(processor, shared.secret, event);
				if (!released) answeredWhileHeld.push(index + 1);
				return result;
			});
			while (answeredWhileHeld.length < 4) await sleep(10);
			await sleep(200); // no other call is answered while the first one's store is held
			released = true;
			store.release();
			all = await Promise.all([first, ...rest]);
		} finally {
			clock.mockRestore();
		}
		// Calls 1 to MAX_WAITING_CALLS - 1 wait in line behind the held one; the rest go ahead.
		expect(answeredWhileHeld.sort((a, b) => a - b)).toEqual(
			[0, 1, 2, 3].map((i) => MAX_WAITING_CALLS + i),
		);
		expect(all.map((result) => result.status)).toEqual(batch.map(() => 200));
		expect(executions(processor)).toBe(batch.length);
		expect(storedIds(shared, batch).sort()).toEqual(batch.map((event) => event.id).sort());
	});

	test(`calls that wait longer than ${DEFER_AFTER_WAIT_MS} ms for their turn are answered 503 and run nothing; their retries run once`, async () => {
		const shared = await cluster();
		const processor = await shared.start();
		const store = holdFirstStore(processor);
		const batch = events(4);
		const first = deliver(processor, shared.secret, batch[0]);
		await store.started();
		const inLine = batch
			.slice(1)
			.map(async (event) => await deliver(processor, shared.secret, event));
		await sleep(DEFER_AFTER_WAIT_MS + 300);
		store.release();

		expect((await first).status).toBe(200);
		const deferred = await Promise.all(inLine);
		expect(deferred.map((result) => result.status)).toEqual([503, 503, 503]);
		expect(deferred.map((result) => bodyOf(result).error)).toEqual(
			batch.slice(1).map(() => 'event_deferred'),
		);
		expect(executions(processor)).toBe(1);
		expect(storedIds(shared, batch)).toEqual([batch[0].id]);

		// The service's retries, one on this process and two on another: each runs once.
		const other = await shared.start();
		const retried = [
			await deliver(processor, shared.secret, batch[1], 2),
			await deliver(other, shared.secret, batch[2], 2),
			await deliver(other, shared.secret, batch[3], 2),
		];
		expect(retried.map((result) => bodyOf(result).reason)).toEqual([
			'new event',
			'new event',
			'new event',
		]);
		expect(executions(processor) + executions(other)).toBe(batch.length);
		expect(storedIds(shared, batch).sort()).toEqual(batch.map((event) => event.id).sort());
	});

	test('two processes whose saves overwrite each other: re-deliveries on the other process and after a restart run nothing', async () => {
		const shared = await cluster();
		const [a, b] = [await shared.start(), await shared.start()];
		const batch = events(12);

		// Pairs of overlapping calls: the held one loaded the row before the other saved, and saves
		// last (last write wins), as two webhook processors answering at the same moment.
		let overwritten = 0;
		for (let i = 0; i < batch.length; i += 2) {
			const [slow, fast] = i % 4 === 0 ? [a, b] : [b, a];
			const slowStarted = nextCallStarted(slow);
			const held = heldDelivery(slow, shared.secret, batch[i]);
			await slowStarted;
			expect((await deliver(fast, shared.secret, batch[i + 1])).status).toBe(200);
			expect(await held.finish()).toBe(200);
			if (!storedIds(shared, batch).includes(batch[i + 1].id)) overwritten++;
		}
		expect(executions(a) + executions(b)).toBe(12);
		// The row lost ids on the way (the situation to survive), but never more than the last pair's.
		expect(overwritten).toBe(6);
		expect(batch.length - storedIds(shared, batch).length).toBeLessThanOrEqual(1);

		// The service retries each event (10 s later per docs/api-contract.md §10) through the other process.
		const ranBefore = executions(a) + executions(b);
		for (const [index, event] of batch.entries()) {
			const ownerIsA = index % 4 === 0 || index % 4 === 3;
			await deliver(ownerIsA ? b : a, shared.secret, event);
		}
		expect(executions(a) + executions(b) - ranBefore).toBe(0);
		expect(storedIds(shared, batch).sort()).toEqual(batch.map((event) => event.id).sort());

		// Both processes restart (memory gone): the row alone catches every re-delivery.
		const restarted = await shared.start();
		for (const event of batch) await deliver(restarted, shared.secret, event);
		expect(executions(restarted)).toBe(0);
	});
});

describe('Content Marketing Trigger: a burst keeps static data small', () => {
	/** 2,000 ids at 8 characters each in the journal, plus its keys and the endpoint record. */
	const BURST = 2000;
	const STATIC_DATA_LIMIT = 20 * 1024;

	test(`a burst of ${BURST} deliveries leaves static data under 20 kB, and each retry after a restart runs nothing`, async () => {
		const shared = await cluster();
		const before = await shared.start();
		const burst = events(BURST);

		for (let i = 0; i < burst.length; i += 50) {
			const answers = await Promise.all(
				burst.slice(i, i + 50).map(async (event) => await deliver(before, shared.secret, event, 1)),
			);
			expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
		}

		expect(executions(before)).toBe(BURST);
		expect(Buffer.byteLength(JSON.stringify(shared.store.data))).toBeLessThan(STATIC_DATA_LIMIT);
		expect(storedIds(shared, burst)).toHaveLength(BURST);
		// The service's first retries (attempt 2), to a restarted process: every one is a duplicate.
		const after = await shared.start();
		const retried = burst.filter((_, index) => index % 10 === 0);
		for (const event of retried) {
			const answer = await deliver(after, shared.secret, event, 2);
			expect(bodyOf(answer).reason).toBe('duplicate');
		}
		expect(executions(after)).toBe(0);
	});
});
