import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readDedupe, readEndpoints, setRecent } from './endpointStore';
import type { DeliveredEvent } from '../leadEvents/event';
import { leadOf, parseEvent, passesFilters, toOutput } from '../leadEvents/event';
import { claimEvent, dedupeScope } from './eventDedupe';
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

async function rawBodyOf(this: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = this.getRequestObject();
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw: unknown = req.rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : undefined;
}

/**
 * One delivery: signature (over the raw bytes, with the secrets this node holds), then payload,
 * event type, filters and de-duplication. Only a new, wanted event starts an execution, answered by
 * the trigger before n8n stores it (below). Every verified event gets a 200 within the service's
 * 5 seconds (docs/api-contract.md §10); refusals get 400/401 with `{ error }`.
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
	if (!passesFilters(lead, leadFilters.call(this))) return acknowledge(event, 'filtered out');

	// Also on a duplicate: the journal goes back into static data when the stored one lacks some of
	// it (a save another call overwrote), so that the other processes see it again (eventDedupe).
	const claim = claimEvent(
		dedupeScope.call(this, endpoint.id),
		readDedupe(staticData, endpoint.url),
		event.id,
		deliveryAttempt.call(this),
		nowSeconds,
	);
	if (claim.store !== undefined) setRecent(staticData, endpoint.url, claim.store);
	if (claim.duplicate) return acknowledge(event, 'duplicate');

	// Answered here, not through `webhookResponse`. n8n answers `webhookResponse` of an `onReceived`
	// webhook, and saves static data, only after it stored the execution (in queue mode: enqueued it).
	// Between n8n loading static data for this call and saving it, another webhook processor's save can
	// overwrite the journal entries this one adds, and this save theirs (last write wins, eventDedupe):
	// the longer that window, the more entries a retry on the other processor misses (in the queue check
	// under load: 7 and 15 of 30 retries ran again). From n8n 2.41 that save is even lost: storing the
	// execution builds a second Workflow over the same static data (`establishContextForPersistence`),
	// which clears its change mark (0 saves in 50 deliveries). With `noWebhookResponse`, n8n saves static
	// data right after `webhook()`, then stores and starts the execution. The price, in README
	// "De-duplication": an event answered here whose execution n8n then fails to store (its database or
	// Redis failing at that instant, or the process dying) is not retried by the service.
	respond.call(this, 200, answer(event, 'new event'));
	return {
		workflowData: [[{ json: toOutput(event, lead, simplifyOutput.call(this)) }]],
		noWebhookResponse: true,
	};
}
