// The trigger tests' harness and signed deliveries, over the shared sandbox client.
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { fingerprint } from '../../dist/nodes/ContentMarketing/trigger/eventJournal';
import type { Harness, StaticDataStore, TriggerHarness } from '../harness';
import { createHarness } from '../harness';
import {
	ACCOUNT_A,
	useSandbox,
	type JsonObject,
	type SandboxClient,
} from '../support/sandbox-client';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const CREDENTIAL = 'contentMarketingApi';
export const TRIGGER_NAME = 'contentMarketingTrigger';

/** The sandbox settings of the trigger tests: no rate limit, webhook URLs on plain http allowed. */
export const TRIGGER_SETTINGS = { rate_limit: null, allow_http_webhooks: true };
/** Redeliveries 300 ms apart, so that retries happen within a test. */
export const FAST_RETRIES = { webhook_retry_delays_ms: [300, 300, 300, 300, 300] };

export const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The sandbox of a trigger test file: reset before each test and set to the trigger settings plus
 * `settings`. Call it at the top of the file, before the file's own hooks, which then run after these.
 */
export function useTriggerSandbox(settings: JsonObject = {}): SandboxClient {
	return useSandbox({ settings: { ...TRIGGER_SETTINGS, ...settings }, resetEachTest: true });
}

/** A harness with the built package loaded, its credential pointing at the sandbox. */
export async function harnessFor(
	sandbox: SandboxClient,
	options: { serve?: boolean; origin?: string } = {},
): Promise<Harness> {
	const harness = await createHarness({
		packageRoot: PACKAGE_ROOT,
		origin: options.origin,
		credentials: { [CREDENTIAL]: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } },
	});
	if (options.serve === true) await harness.serveWebhooks();
	return harness;
}

export function triggerOf(
	harness: Harness,
	parameters: INodeParameters,
	extra: { staticData?: IDataObject; staticDataStore?: StaticDataStore; webhookId?: string } = {},
): TriggerHarness {
	return harness.trigger({ type: harness.typeName(TRIGGER_NAME), parameters, ...extra });
}

/**
 * The node's record for one URL in its static data: `recent` is the journal of recently accepted
 * events, `{ "<unix second it expires>": "<8-character fingerprints>" }` (trigger/eventJournal.ts).
 */
export interface EndpointRecord {
	id: string;
	secret: string;
	recent?: Record<string, string>;
}

/** The fingerprints a record's journal holds. */
export function journalPrints(record: EndpointRecord | undefined): string[] {
	return Object.values(record?.recent ?? {}).flatMap((text) => text.match(/.{8}/g) ?? []);
}

/** Which of `ids` the record's journal holds. */
export function journalHolds(record: EndpointRecord | undefined, ids: string[]): string[] {
	const prints = new Set(journalPrints(record));
	return ids.filter((id) => prints.has(fingerprint(id)));
}

/** The node's record for one URL in its static data (what `create` stored). */
export function recordFor(trigger: TriggerHarness, url: string): EndpointRecord | undefined {
	const endpoints = trigger.nodeStaticData.endpoints as IDataObject | undefined;
	return endpoints?.[url] as EndpointRecord | undefined;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

/** docs/api-contract.md §10, computed here independently of the node: `t=<unix>,v1=<hex HMAC-SHA256(secret, t.body)>`. */
export function sign(secret: string, body: string, timestamp = unixNow()): string {
	const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
	return `t=${timestamp},v1=${digest}`;
}

export function eventId(): string {
	return `evt_${randomBytes(8).toString('hex')}`;
}

/**
 * A delivery body shaped like the sandbox's (docs/api-contract.md §10), the event created
 * `createdSecondsAgo` before now.
 */
export function eventBody(
	type: string,
	lead: IDataObject,
	extra: IDataObject = {},
	createdSecondsAgo = 0,
): string {
	return JSON.stringify({
		id: eventId(),
		type,
		created_at: new Date(Date.now() - createdSecondsAgo * 1000)
			.toISOString()
			.replace(/\.\d{3}Z$/, 'Z'),
		api_version: 'v1',
		account_id: ACCOUNT_A,
		data: { lead, ...extra },
	});
}

export function leadFixture(fields: IDataObject = {}): IDataObject {
	return {
		id: `lead_${randomBytes(8).toString('hex')}`,
		email: 'grace@example.com',
		name: 'Grace Hopper',
		status: 'new',
		source_resource_id: null,
		...fields,
	};
}

export const signedHeaders = (signature: string, name = 'CM-Signature') => ({
	'content-type': 'application/json',
	[name]: signature,
});

/**
 * Resolves once the harness has begun handling the next call to `trigger`: as n8n's webhook path, it has
 * loaded the workflow and its static data for that call (TriggerHarness.handle does so first thing).
 */
export async function nextCallStarted(trigger: TriggerHarness): Promise<void> {
	const handle = trigger.handle;
	await new Promise<void>((resolve) => {
		trigger.handle = async (...args) => {
			trigger.handle = handle;
			const handling = handle.apply(trigger, args);
			resolve();
			return await handling;
		};
	});
}
