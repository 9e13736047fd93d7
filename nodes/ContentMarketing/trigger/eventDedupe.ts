/**
 * De-duplication of event ids (docs/api-contract.md §10: "Receivers must de-duplicate by event id").
 *
 * How n8n keeps static data decides the design. For every production webhook call, the process
 * that receives it (the main, or a webhook processor in queue mode) loads the workflow's static
 * data afresh from the database, runs `webhook()`, and saves the WHOLE object back when it answers:
 * no merge, no lock, last write wins. Two calls that overlap (on one process or on two) therefore
 * both start from the same stored ids, and the later save erases what the earlier one added.
 *
 * So each process keeps, per endpoint, one set of ids in memory: `{ "<event id>": <unix seconds
 * first seen> }`. Every call first merges what it loaded into that set, and whenever the stored ids
 * lack something the set has (a new event, or a save of ours another call overwrote), the call puts
 * the set itself into static data. n8n serializes static data only when it saves, so the save
 * carries every id this process has seen up to that moment, including ids of calls that overlapped
 * it. A lost save is thereby repaired by the next call of the process that made it, and a restart
 * starts again from everything stored.
 *
 * What is left: ids a process accepted while another process's save was in flight can be missing
 * from the database until the first process's next call; a retry of such an event that reaches the
 * other process first (the service waits 10 s before the first retry) runs again. Two copies of one
 * delivery that arrive at the same instant on two processes cannot be caught without a shared lock.
 *
 * Kept small: ids expire after the service's retry horizon and the newest `DEDUPE_MAX_IDS` are kept.
 */

import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** Ids are kept per endpoint, newest first, up to this many (about 200 kB of static data). */
export const DEDUPE_MAX_IDS = 5000;

/**
 * The service stops retrying an event about 7 h 11 min after its first attempt (docs/api-contract.md §10:
 * retries after 10 s, 1 min, 10 min, 1 h and 6 h, each attempt at most 5 s); 8 h covers that.
 */
export const DEDUPE_HORIZON_SECONDS = 8 * 3600;

/** Endpoints (workflow x node x endpoint) remembered in memory by one process. */
const MAX_MEMORY_SCOPES = 200;

/** Event id -> unix seconds when it was first seen. Null prototype: ids are arbitrary strings. */
export type SeenIds = Record<string, number>;

const memory = new Map<string, SeenIds>();

/** In-memory de-duplication scope: one per workflow, trigger node and endpoint. */
export function dedupeScope(this: IHookFunctions | IWebhookFunctions, endpointId: string): string {
	return `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}\u0000${endpointId}`;
}

function emptySeen(): SeenIds {
	return Object.create(null) as SeenIds;
}

/**
 * Reads stored ids defensively (static data is JSON from the database). The object form is
 * `{ id: seconds }`; a plain list of ids (what earlier versions stored) counts as seen `now`.
 */
export function toSeenIds(value: unknown, nowSeconds: number): SeenIds {
	const seen = emptySeen();
	if (Array.isArray(value)) {
		for (const id of value) if (typeof id === 'string' && id !== '') seen[id] = nowSeconds;
	} else if (typeof value === 'object' && value !== null) {
		for (const [id, at] of Object.entries(value as Record<string, unknown>)) {
			if (id !== '' && typeof at === 'number' && Number.isFinite(at)) seen[id] = at;
		}
	}
	return seen;
}

function memoryFor(scope: string): SeenIds {
	const ids = memory.get(scope) ?? emptySeen();
	memory.delete(scope);
	memory.set(scope, ids);
	if (memory.size > MAX_MEMORY_SCOPES) memory.delete(memory.keys().next().value as string);
	return ids;
}

/**
 * Drops expired ids, then the oldest beyond the bound. Mutates `seen` in place: a static data
 * object that holds it must keep seeing the same set.
 */
function pruneSeen(seen: SeenIds, nowSeconds: number): void {
	const oldest = nowSeconds - DEDUPE_HORIZON_SECONDS;
	const kept: Array<[string, number]> = [];
	for (const id of Object.keys(seen)) {
		if (seen[id] < oldest) delete seen[id];
		else kept.push([id, seen[id]]);
	}
	if (kept.length <= DEDUPE_MAX_IDS) return;
	kept.sort((a, b) => a[1] - b[1]);
	for (const [id] of kept.slice(0, kept.length - DEDUPE_MAX_IDS)) delete seen[id];
}

/** Adds what was loaded; an id seen on both sides keeps its earliest time (expiry counts from it). */
function merge(into: SeenIds, loaded: SeenIds): void {
	for (const id of Object.keys(loaded)) {
		const at = loaded[id];
		if (!(id in into) || at < into[id]) into[id] = at;
	}
}

function lacksAny(stored: SeenIds, known: SeenIds): boolean {
	for (const id of Object.keys(known)) if (!(id in stored)) return true;
	return false;
}

export interface ClaimResult {
	duplicate: boolean;
	/**
	 * The set to put into static data, or undefined when the stored ids already hold everything.
	 * It is this process's live set for the endpoint: later calls keep adding to it.
	 */
	store: SeenIds | undefined;
}

/**
 * Marks `eventId` as accepted unless this process or the stored ids have seen it. Synchronous on
 * purpose: no other call of this process can run between the check and the mark.
 */
export function claimEvent(
	scope: string,
	stored: SeenIds,
	eventId: string,
	nowSeconds: number,
): ClaimResult {
	const known = memoryFor(scope);
	merge(known, stored);
	pruneSeen(known, nowSeconds);
	const duplicate = eventId in known;
	if (!duplicate) {
		known[eventId] = nowSeconds;
		pruneSeen(known, nowSeconds);
	}
	return { duplicate, store: lacksAny(stored, known) ? known : undefined };
}

/** Forgets the in-memory ids of an endpoint (called when it is deleted). */
export function forgetScope(scope: string): void {
	memory.delete(scope);
}
