import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readEndpoints } from './endpointStore';
import { decideEvent } from './eventLedger';
import type { DeliveredEvent } from '../leadEvents/event';
import { leadOf, parseEvent, passesFilters, toOutput } from '../leadEvents/event';
import { leadFilters, simplifyOutput, subscribedEvents } from '../leadEvents/params';
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

/**
 * Seconds from the event's `created_at` to the signing of this attempt, both by the service's clock (so
 * n8n's clock does not matter); undefined when `created_at` is unreadable.
 */
function sentAfterCreation(event: DeliveredEvent, signedAt: number): number | undefined {
	const createdAt = event.body.created_at;
	const createdMs = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
	return Number.isNaN(createdMs) ? undefined : signedAt - Math.floor(createdMs / 1000);
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
 * One delivery, in the order it goes: receive (raw body, attempt, the endpoints in static data), verify
 * (the signature over the raw bytes, with the secrets this node holds), decide (payload, event type,
 * filters, then eventLedger's "has it run?"), emit (only a new, wanted event starts an execution), and
 * remember (once n8n has stored it, runOnceStored). A new event is answered 200 only once stored; every
 * other verified event gets its 200 at once; refusals get 400/401 with `{ error }`, and the ledger's
 * `in progress` and `deferred` get 503 (the service retries them later).
 */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const nowSeconds = Math.floor(Date.now() / 1000);
	const staticData = this.getWorkflowStaticData('node');
	const endpoints = readEndpoints(staticData);
	const rawBody = await rawBodyOf.call(this);
	const attempt = deliveryAttempt.call(this);

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
	const decision = await decideEvent.call(
		this,
		staticData,
		endpoint,
		event.id,
		attempt,
		nowSeconds,
		sentAfterCreation(event, verdict.signedAt),
	);
	if (decision.verdict === 'in progress') return refuse.call(this, 503, 'event_in_progress');
	if (decision.verdict === 'deferred') return refuse.call(this, 503, 'event_deferred');
	if (decision.verdict === 'duplicate') return acknowledge(event, 'duplicate');

	return runOnceStored(
		[[{ json: toOutput(event, lead, simplifyOutput.call(this)) }]],
		answer(event, 'new event'),
		decision.remember,
	);
}
