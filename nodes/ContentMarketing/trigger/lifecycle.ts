import { randomUUID } from 'node:crypto';
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, apiRequestAllItems } from '../transport';
import { getRecord, removeRecord, setRecord } from './endpointStore';
import { dedupeScope, forgetScope, journalOnActivation } from './eventLedger';
import { selectedEvents } from '../leadEvents/params';

/** An endpoint as `GET /v1/webhooks` lists it (docs/api-contract.md §10); only what the lifecycle reads. */
interface RemoteEndpoint {
	id: string;
	url: string;
	events: string[];
	active: boolean;
}

const DESCRIPTION_MAX = 500;

function toRemoteEndpoint(value: unknown): RemoteEndpoint | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { id, url, events, active } = value as Record<string, unknown>;
	if (typeof id !== 'string' || typeof url !== 'string') return undefined;
	return {
		id,
		url,
		events: Array.isArray(events)
			? events.filter((event): event is string => typeof event === 'string')
			: [],
		active: active === true,
	};
}

function httpStatusOf(error: unknown): number | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const { httpCode, statusCode, status, response } = error as Record<string, unknown>;
	const nested =
		typeof response === 'object' && response !== null
			? (response as IDataObject).status
			: undefined;
	for (const candidate of [httpCode, statusCode, status, nested]) {
		const code = Number(candidate);
		if (Number.isInteger(code) && code >= 100 && code <= 599) return code;
	}
	return undefined;
}

function webhookUrl(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (url === undefined)
		throw new NodeOperationError(this.getNode(), 'The node has no webhook URL');
	return url;
}

/** Every endpoint of the account registered for exactly this URL (all pages). */
async function endpointsFor(this: IHookFunctions, url: string): Promise<RemoteEndpoint[]> {
	const listed = await apiRequestAllItems.call(this, '/v1/webhooks', { url });
	return listed
		.map(toRemoteEndpoint)
		.filter(
			(endpoint): endpoint is RemoteEndpoint => endpoint !== undefined && endpoint.url === url,
		);
}

/** DELETE; a 404 means it is already gone. Anything else is reported. */
async function deleteEndpoint(this: IHookFunctions, id: string): Promise<void> {
	try {
		await apiRequest.call(this, 'DELETE', `/v1/webhooks/${encodeURIComponent(id)}`);
	} catch (error) {
		if (httpStatusOf(error) === 404) return;
		throw new NodeApiError(this.getNode(), error as JsonObject);
	}
}

function sameEvents(a: string[], b: string[]): boolean {
	const left = [...new Set(a)].sort();
	const right = [...new Set(b)].sort();
	return left.length === right.length && left.every((event, index) => event === right[index]);
}

/**
 * Adopts the endpoint registered for this URL if we still hold its secret (the secret is
 * returned once, so an endpoint whose secret we lost cannot be verified and is useless):
 * every other endpoint with this URL is deleted, and `events`/`active` drift is patched.
 * Returns false (so n8n calls `create`) when nothing adoptable is left.
 */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const url = webhookUrl.call(this);
	const data = this.getWorkflowStaticData('node');
	const record = getRecord(data, url);
	const remote = await endpointsFor.call(this, url);
	const adopted =
		record === undefined ? undefined : remote.find((endpoint) => endpoint.id === record.id);

	for (const endpoint of remote) {
		if (endpoint !== adopted) await deleteEndpoint.call(this, endpoint.id);
	}
	if (adopted === undefined) {
		removeRecord(data, url);
		return false;
	}

	const events = selectedEvents.call(this);
	if (!adopted.active || !sameEvents(adopted.events, events)) {
		await apiRequest.call(this, 'PATCH', `/v1/webhooks/${encodeURIComponent(adopted.id)}`, {
			body: { events, active: true },
		});
	}
	if (record !== undefined) journalOnActivation.call(this, data, record);
	return true;
}

function describe(this: IHookFunctions): string {
	const workflow = this.getWorkflow();
	const text = `n8n: ${workflow.name ?? workflow.id} / ${this.getNode().name}`;
	return text.length > DESCRIPTION_MAX ? text.slice(0, DESCRIPTION_MAX) : text;
}

/** Registers the endpoint and keeps its id and secret (shown only now) in static data. */
export async function create(this: IHookFunctions): Promise<boolean> {
	const url = webhookUrl.call(this);
	const created: unknown = await apiRequest.call(this, 'POST', '/v1/webhooks', {
		body: {
			url,
			description: describe.call(this),
			events: selectedEvents.call(this),
			active: true,
		},
		idempotencyKey: randomUUID(),
	});
	const { id, secret } = (
		typeof created === 'object' && created !== null ? created : {}
	) as IDataObject;
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(
			this.getNode(),
			'The service did not return an id for the new webhook endpoint',
		);
	}
	if (typeof secret !== 'string' || secret === '') {
		await deleteEndpoint.call(this, id);
		throw new NodeOperationError(
			this.getNode(),
			'The service did not return a signing secret for the new webhook endpoint, so its deliveries could not be verified',
		);
	}
	setRecord(this.getWorkflowStaticData('node'), { url, id, secret });
	return true;
}

/**
 * Removes the endpoint we registered, then any other endpoint left for this URL, and clears the
 * static data. A 404 counts as already gone; any other failure is thrown (n8n reports it).
 */
export async function remove(this: IHookFunctions): Promise<boolean> {
	const url = webhookUrl.call(this);
	const data = this.getWorkflowStaticData('node');
	const record = getRecord(data, url);
	if (record !== undefined) {
		await deleteEndpoint.call(this, record.id);
		removeRecord(data, url);
		forgetScope(dedupeScope.call(this, record.id));
	}
	for (const endpoint of await endpointsFor.call(this, url))
		await deleteEndpoint.call(this, endpoint.id);
	return true;
}
