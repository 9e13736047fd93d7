import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readEndpoints, readSeen, setSeen } from './endpointStore';
import { leadOf, parseEvent, passesFilters, toOutput } from './event';
import { claimEvent } from './eventDedupe';
import { dedupeScope, leadFilters, simplifyOutput, subscribedEvents } from './params';
import { readSignatureHeader, verifySignature } from './signature';

/** Answers the request itself (n8n then sends nothing) and starts no execution. */
function refuse(this: IWebhookFunctions, status: number, error: string): IWebhookResponseData {
	const res = this.getResponseObject();
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify({ error }));
	return { noWebhookResponse: true };
}

/** 200 with a short note; no execution. */
function acknowledge(reason: string): IWebhookResponseData {
	const webhookResponse: IDataObject = { received: true, emitted: false, reason };
	return { webhookResponse };
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
 * event type, filters and de-duplication. Only a new, wanted event starts an execution; n8n
 * answers it at once (`responseMode: 'onReceived'`).
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
	if (event.type === 'webhook.test') return acknowledge('test event');
	if (!subscribedEvents.call(this).includes(event.type)) return acknowledge('event type not subscribed');
	const lead = leadOf(event);
	if (lead === undefined) return refuse.call(this, 400, 'invalid_payload');
	if (!passesFilters(lead, leadFilters.call(this))) return acknowledge('filtered out');

	const claim = claimEvent(dedupeScope.call(this, endpoint.id), readSeen(staticData, endpoint.url), event.id);
	if (claim.duplicate) return acknowledge('duplicate');
	setSeen(staticData, endpoint.url, claim.persisted);

	return { workflowData: [[{ json: toOutput(event, lead, simplifyOutput.call(this)) }]] };
}
