/**
 * De-duplication of event ids (docs/api-contract.md §10: "Receivers must de-duplicate by event id"),
 * at a cost per delivery that does not grow with the events seen.
 *
 * How n8n keeps static data decides the design. For every production webhook call, the process that
 * receives it (the main, or a webhook processor in queue mode) loads the workflow row with ALL its
 * static data, parses it and wraps it in its change tracking, runs `webhook()`, and when something
 * changed saves the WHOLE object back before it answers: no merge, no lock, last write wins. Whatever
 * the trigger keeps there is therefore read on every call and written on every call that accepts an
 * event. Keeping every id of the retry horizon there (as this trigger did, up to 5,000 ids, 186 kB)
 * made each delivery cost more the more events came before, until n8n could not answer within 5 s.
 *
 * What the contract gives us: every attempt carries `CM-Delivery-Attempt` (1-based), and the service
 * retries a failed attempt after 10 s, 1 min, 10 min, 1 h and 6 h, an attempt failing when it is not
 * answered 2xx within 5 s. So an attempt 1 is never a repeat of an event the service already delivered,
 * and the next attempt of an event arrives at most (the gap for this attempt + 5 s) after this one.
 *
 * So the trigger keeps two things per endpoint:
 * - in each process's memory, the exact ids it accepted, for the whole retry horizon (8 h), at most
 *   MEMORY_MAX_IDS (the oldest forgotten first): a repeat that reaches the same process is caught;
 * - in static data, a journal of fingerprints of recently accepted events (eventJournal.ts), each kept
 *   until its next retry can no longer be on its way: the retry gap for its attempt + 5 s + a slack of
 *   JOURNAL_SLACK_SECONDS (60 s after an attempt 1, 110 s after an attempt 2, ... see journalSeconds).
 *   A retry refreshes its entry for the attempt after it. This is what a restarted process, or another
 *   webhook processor in queue mode, sees. It holds at most JOURNAL_MAX_IDS entries (32 kB), dropping
 *   those that expire first beyond that: above JOURNAL_MAX_IDS / 60 s, about 68 events a second
 *   sustained, an attempt-1 entry stays JOURNAL_MAX_IDS / rate seconds (41 s at 100/s), still more than
 *   the 15 s by which its first retry arrives.
 * An attempt 1 is a duplicate only if this process accepted the same id (a copy of one request, e.g.
 * from a proxy); any other attempt, or a delivery without a readable attempt number, is a duplicate
 * if this process accepted the id or the journal holds its fingerprint. A fingerprint shared by two ids
 * (48 bits: at most 4,096 x 2^-48, about 1.5e-11 per look-up) can therefore only ever make a retry
 * count as seen, never a first attempt.
 *
 * Concurrent saves: each process's journal copy is the object it puts into static data, and it merges
 * every journal it loads, so a save carries everything the process knows up to the moment n8n writes
 * it, and a save another call overwrote is repaired by the next call of the process that made it
 * (duplicates included). What is left, as before: entries a process accepted while another process's
 * save was in flight can be missing from the database until the first process's next call; two copies
 * of one delivery that arrive at the same instant on two processes cannot be caught without a shared lock.
 *
 * The guarantee, and what is weaker than keeping every id in static data: a retry that reaches n8n runs
 * nothing if an earlier attempt of the event was accepted (by this process at any time within the horizon
 * and MEMORY_MAX_IDS; by any process or before a restart while the journal entry lives). A retry that
 * comes after the journal entry expired - because the attempts in between never reached n8n (it was down
 * or unreachable for more than the retry gap plus the slack) - and lands on a process that did not accept
 * the event (another webhook processor, or after a restart) runs again.
 */

import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { JournalSegments } from './eventJournal';
import { EventJournal, fingerprint } from './eventJournal';

/** The service stops retrying about 7 h 11 min after the first attempt (§10); ids are remembered 8 h. */
export const DEDUPE_HORIZON_SECONDS = 8 * 3600;

/** Ids one process remembers per endpoint (about 5 MB; 8 h at up to 1.7 events a second). */
export const MEMORY_MAX_IDS = 50_000;

/** Journal entries kept in static data per endpoint (8 characters each: about 32 kB). */
export const JOURNAL_MAX_IDS = 4096;

/** docs/api-contract.md §10: the gaps before attempts 2 to 6, and how long an answer may take. */
const RETRY_GAPS_SECONDS = [10, 60, 600, 3600, 21_600];
const ANSWER_SECONDS = 5;

/**
 * Beyond the contract's gap: time for the service's own delays and for a webhook processor to restart
 * (the queue check's restart scenario gives its first retry 30 s).
 */
export const JOURNAL_SLACK_SECONDS = 45;

/** Endpoints (workflow x node x endpoint) remembered in memory by one process. */
const MAX_MEMORY_SCOPES = 20;

/** How long an event accepted (or seen again) at `attempt` stays in the journal. */
export function journalSeconds(attempt: number | undefined): number {
	const gap = RETRY_GAPS_SECONDS[(attempt ?? 1) - 1] ?? 0;
	return gap + ANSWER_SECONDS + JOURNAL_SLACK_SECONDS;
}

interface ScopeMemory {
	/** Event id -> unix seconds first accepted, oldest first. */
	accepted: Map<string, number>;
	journal: EventJournal;
}

const memory = new Map<string, ScopeMemory>();

/** In-memory de-duplication scope: one per workflow, trigger node and endpoint. */
export function dedupeScope(this: IHookFunctions | IWebhookFunctions, endpointId: string): string {
	return `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}\u0000${endpointId}`;
}

function memoryFor(scope: string): ScopeMemory {
	const found = memory.get(scope) ?? { accepted: new Map(), journal: new EventJournal() };
	memory.delete(scope);
	memory.set(scope, found);
	if (memory.size > MAX_MEMORY_SCOPES) memory.delete(memory.keys().next().value as string);
	return found;
}

/** Forgets ids beyond the horizon: the map is in acceptance order, so this stops at the first kept. */
function forgetOld(accepted: Map<string, number>, nowSeconds: number): void {
	for (const [id, at] of accepted) {
		if (at >= nowSeconds - DEDUPE_HORIZON_SECONDS && accepted.size <= MEMORY_MAX_IDS) return;
		accepted.delete(id);
	}
}

/**
 * Ids stored by earlier versions (`seen: { id: unix seconds }`, or a plain list, read as seen now):
 * taken into this process's memory, and into the journal while their first retry may still come.
 */
function takeLegacy(scope: ScopeMemory, legacy: unknown, nowSeconds: number): void {
	const entries: Array<[unknown, unknown]> = Array.isArray(legacy)
		? legacy.map((id) => [id, nowSeconds])
		: typeof legacy === 'object' && legacy !== null
			? Object.entries(legacy)
			: [];
	const sorted = entries
		.filter((entry): entry is [string, number] => typeof entry[0] === 'string' && entry[0] !== '')
		.filter(([, at]) => typeof at === 'number' && Number.isFinite(at))
		.sort((a, b) => a[1] - b[1]);
	for (const [id, at] of sorted) {
		if (at >= nowSeconds - DEDUPE_HORIZON_SECONDS && !scope.accepted.has(id))
			scope.accepted.set(id, at);
		scope.journal.add(fingerprint(id), at + journalSeconds(1));
	}
}

/** What a call loaded from static data for its endpoint. */
export interface StoredDedupe {
	/** The journal (eventJournal's segments), as loaded. */
	recent: unknown;
	/** `seen`, what versions before the journal stored; undefined once rewritten. */
	legacySeen?: unknown;
}

export interface ClaimResult {
	duplicate: boolean;
	/**
	 * The journal to put into static data, or undefined when the stored one already holds every live
	 * entry. It is this process's live copy: later calls keep adding to it.
	 */
	store: JournalSegments | undefined;
}

/**
 * Marks `eventId` as accepted unless it is a repeat (see the header). `attempt` is the delivery's
 * CM-Delivery-Attempt, undefined when missing or unreadable. Synchronous on purpose: no other call
 * of this process can run between the check and the mark.
 */
export function claimEvent(
	scope: string,
	stored: StoredDedupe,
	eventId: string,
	attempt: number | undefined,
	nowSeconds: number,
): ClaimResult {
	const known = memoryFor(scope);
	forgetOld(known.accepted, nowSeconds);
	let changed = known.journal.merge(stored.recent, nowSeconds);
	if (stored.legacySeen !== undefined) {
		takeLegacy(known, stored.legacySeen, nowSeconds);
		changed = true;
	}

	known.journal.prune(nowSeconds, JOURNAL_MAX_IDS);

	const print = fingerprint(eventId);
	const mayBeRetry = attempt === undefined || attempt > 1;
	const duplicate =
		known.accepted.has(eventId) || (mayBeRetry && known.journal.has(print, nowSeconds));
	if (!known.accepted.has(eventId)) {
		known.accepted.set(eventId, nowSeconds);
		forgetOld(known.accepted, nowSeconds);
	}
	// A repeat extends its entry to cover the attempt after it.
	if (known.journal.add(print, nowSeconds + journalSeconds(attempt))) changed = true;
	known.journal.prune(nowSeconds, JOURNAL_MAX_IDS);
	return { duplicate, store: changed ? known.journal.segments : undefined };
}

/** Forgets the in-memory ids of an endpoint (called when it is deleted). */
export function forgetScope(scope: string): void {
	memory.delete(scope);
}
