import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readDedupe, readEndpoints, setRecent } from './endpointStore';
import type { DeliveredEvent } from '../leadEvents/event';
import { leadOf, parseEvent, passesFilters, toOutput } from '../leadEvents/event';
import { acceptEvent, checkEvent, claimScope, dedupeScope } from './eventDedupe';
import { leadFilters, simplifyOutput, subscribedEvents } from '../leadEvents/params';
import { LATE_TURN_MS, takeSaveTurn } from './saveTurns';
import { readSignatureHeader, verifySignature } from './signature';

/** Writes the answer itself; with `noWebhookResponse` n8n then sends nothing. */
function respond(this: IWebhookFunctions, status: number, body: IDataObject): void {
	const res = this.getResponseObject();
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

/** Answers 400/401 itself and starts no execution. */
function refuse(this: IWebhookFunctions, status: number, error: string): IWebhookResponseData {
	respond.call(this, status, { error });
	return { noWebhookResponse: true };
}

type Reason =
	| 'new event'
	| 'duplicate'
	| 'filtered out'
	| 'event type not subscribed'
	| 'test event';

/**
 * The 200 body of every verified event, so that the service's log (and whoever reads it) sees what
 * became of it: `{ received: true, emitted, reason, event_id }`.
 */
function answer(event: DeliveredEvent, reason: Reason): IDataObject {
	return { received: true, emitted: reason === 'new event', reason, event_id: event.id };
}

/** 200 with the answer; no execution. */
function acknowledge(
	event: DeliveredEvent,
	reason: Exclude<Reason, 'new event'>,
): IWebhookResponseData {
	return { webhookResponse: answer(event, reason) };
}

/** `CM-Delivery-Attempt` (1-based, docs/api-contract.md §10), or undefined when missing or unreadable. */
function deliveryAttempt(this: IWebhookFunctions): number | undefined {
	const raw = this.getHeaderData()['cm-delivery-attempt'];
	const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
	return text !== undefined && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : undefined;
}

async function rawBodyOf(this: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = this.getRequestObject();
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw: unknown = req.rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : undefined;
}

/**
 * The result of a new event. n8n reads `webhookResponse` of an `onReceived` webhook once it has stored
 * the execution (in queue mode: enqueued it), then saves static data and answers (executeWebhook in
 * n8n 2.8 and 2.41). So `onStored` runs exactly when the event can no longer be lost, and what it puts
 * into static data is saved before the service hears 200; a failure to store answers 500 and the
 * service retries. n8n 2.41 resets static data's change mark while storing the execution
 * (`establishContextForPersistence`): a change made here, after that, is still saved.
 */
function runOnceStored(
	workflowData: IWebhookResponseData['workflowData'],
	body: IDataObject,
	onStored: () => void,
): IWebhookResponseData {
	let stored = false;
	return {
		workflowData,
		get webhookResponse() {
			if (!stored) {
				stored = true;
				onStored();
			}
			return body;
		},
	};
}

/**
 * One delivery: signature (over the raw bytes, with the secrets this node holds), then payload,
 * event type, filters and de-duplication. Only a new, wanted event starts an execution, and it is
 * answered 200 only once n8n has stored it (runOnceStored). Every other verified event gets its 200 at
 * once; refusals get 400/401 with `{ error }`, and a retry of an event this process is still storing,
 * or a new event that waited long for its save turn, gets 503 (the service retries it later).
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const nowSeconds = Math.floor(Date.now() / 1000);
	const staticData = this.getWorkflowStaticData('node');
	const endpoints = readEndpoints(staticData);
	const rawBody = await rawBodyOf.call(this);
	const verdict = verifySignature({
		header: readSignatureHeader(this.getHeaderData()),
		rawBody,
		secrets: endpoints.map((record) => record.secret),
		nowSeconds,
	});
	if (!verdict.ok || rawBody === undefined) return refuse.call(this, 401, 'invalid_signature');
	const endpoint = endpoints[verdict.secretIndex];

	const event = parseEvent(rawBody);
	if (event === undefined) return refuse.call(this, 400, 'invalid_payload');
	if (event.type === 'webhook.test') return acknowledge(event, 'test event');
	if (!subscribedEvents.call(this).includes(event.type))
		return acknowledge(event, 'event type not subscribed');
	const lead = leadOf(event);
	if (lead === undefined) return refuse.call(this, 400, 'invalid_payload');
	if (!passesFilters(lead, leadFilters.call(this), event.data.previous_status))
		return acknowledge(event, 'filtered out');

	// Also on a duplicate: the journal goes back into static data when the stored one lacks some of
	// it (a save another call overwrote), so that the other processes see it again.
	const scope = dedupeScope.call(this, endpoint.id);
	const attempt = deliveryAttempt.call(this);
	const response = this.getResponseObject();
	const check = checkEvent(
		scope,
		readDedupe(staticData, endpoint.url),
		event.id,
		attempt,
		nowSeconds,
		response,
		claimScope.call(this),
	);
	if (check.verdict === 'in progress') return refuse.call(this, 503, 'event_in_progress');
	// A call that will save the journal waits for the earlier such calls' saves, so that none lands last
	// with fewer entries (saveTurns).
	const waitedMs =
		check.verdict === 'new' || check.store !== undefined ? await takeSaveTurn(scope, response) : 0;
	if (check.store !== undefined) setRecent(staticData, endpoint.url, check.store);
	if (check.verdict === 'duplicate') return acknowledge(event, 'duplicate');
	if (waitedMs > LATE_TURN_MS) return refuse.call(this, 503, 'event_deferred');

	return runOnceStored(
		[[{ json: toOutput(event, lead, simplifyOutput.call(this)) }]],
		answer(event, 'new event'),
		() => {
			const journal = acceptEvent(scope, event.id, attempt, Math.floor(Date.now() / 1000));
			setRecent(staticData, endpoint.url, journal);
		},
	);
}
