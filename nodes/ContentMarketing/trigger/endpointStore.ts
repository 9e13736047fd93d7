import type { IDataObject } from 'n8n-workflow';

import type { JournalSegments } from './eventJournal';
import { isObject } from '../helpers/values';

/**
 * What the node keeps in its static data, per webhook URL:
 * `{ endpoints: { "<url>": { id, secret, recent: { "<unix second>": "<fingerprints>", ... } } } }`
 * (`recent`: the journal of recently accepted events, see eventLedger and eventJournal).
 *
 * Keyed by URL because the test URL and the production URL each get their own endpoint (and
 * secret). n8n gives test webhooks a separate, unsaved static data object, so in n8n one object
 * normally holds one URL; the map keeps both apart if they ever share one.
 *
 * Written by replacing the top-level `endpoints` value: n8n's change tracking (ObservableObject)
 * only sees assignments on objects that existed when the static data was loaded.
 */
export interface EndpointRecord {
	url: string;
	id: string;
	/** `whsec_...`, returned only by `POST /v1/webhooks` (docs/api-contract.md §10). */
	secret: string;
}

function endpointsOf(data: IDataObject): IDataObject {
	return isObject(data.endpoints) ? data.endpoints : {};
}

function toRecord(url: string, value: unknown): EndpointRecord | undefined {
	if (!isObject(value)) return undefined;
	const { id, secret } = value;
	if (typeof id !== 'string' || typeof secret !== 'string' || id === '' || secret === '')
		return undefined;
	return { url, id, secret };
}

export function readEndpoints(data: IDataObject): EndpointRecord[] {
	return Object.entries(endpointsOf(data))
		.map(([url, value]) => toRecord(url, value))
		.filter((record): record is EndpointRecord => record !== undefined);
}

export function getRecord(data: IDataObject, url: string): EndpointRecord | undefined {
	return toRecord(url, endpointsOf(data)[url]);
}

/** The journal this URL's endpoint keeps (see eventLedger), as stored. */
export function readJournal(data: IDataObject, url: string): unknown {
	const value = endpointsOf(data)[url];
	return isObject(value) ? value.recent : undefined;
}

/** Stores a new endpoint (and forgets the ids seen by any earlier one for this URL). */
export function setRecord(data: IDataObject, { url, id, secret }: EndpointRecord): void {
	data.endpoints = { ...endpointsOf(data), [url]: { id, secret } };
}

/** Puts the journal in (the process's live copy, see eventJournal). */
export function writeJournal(data: IDataObject, url: string, recent: JournalSegments): void {
	const endpoints = endpointsOf(data);
	const current = endpoints[url];
	if (!isObject(current)) return;
	data.endpoints = { ...endpoints, [url]: { ...current, recent } };
}

export function removeRecord(data: IDataObject, url: string): void {
	const endpoints = endpointsOf(data);
	if (!(url in endpoints)) return;
	const rest = { ...endpoints };
	delete rest[url];
	if (Object.keys(rest).length === 0) delete data.endpoints;
	else data.endpoints = rest;
}
