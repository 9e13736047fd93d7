/**
 * The one owner of "has this event run?" (docs/api-contract.md §10: "Receivers must de-duplicate by
 * event id"), answered without ever losing an event: an id counts as run only once n8n has stored its
 * execution. It keeps, per endpoint, the ids this process accepted (memory, for the retry horizon) and
 * a journal of fingerprints in static data (eventJournal.ts, for a restarted process and the other
 * webhook processors), saved in order (saveOrder.ts) by the webhook calls (and by an activation, for
 * re-runs without a call), never by an execution; and, per trigger node, which execution of this
 * process claimed each event (n8n 2.41's re-runs of killed executions). receiveDelivery asks decideEvent; the trigger's execute() asks
 * passUnclaimedItems. docs/triggers.md explains the design, what it guarantees per mode and the cases
 * it does not cover.
 */

import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { EndpointRecord } from './endpointStore';
import { readJournal, writeJournal } from './endpointStore';
import type { JournalSegments } from './eventJournal';
import { EventJournal, fingerprint } from './eventJournal';
import { eventIdOfItem } from '../leadEvents/event';
import type { CallResponse } from './saveOrder';
import { DEFER_AFTER_WAIT_MS, answered, waitForEarlierSaves } from './saveOrder';

/** The service stops retrying about 7 h 11 min after the first attempt (§10); ids are remembered 8 h. */
export const DEDUPE_HORIZON_SECONDS = 8 * 3600;

/**
 * Ids one process remembers per map: accepted and pending ids per endpoint, claimed ids per trigger
 * node (about 5 MB each when full; 8 h at up to 1.7 events a second).
 */
export const MEMORY_MAX_IDS = 50_000;

/** Journal entries kept in static data per endpoint (8 characters each: about 32 kB). */
export const JOURNAL_MAX_IDS = 4096;

/** docs/api-contract.md §10: the gaps before attempts 2 to 6, and how long an answer may take. */
const RETRY_GAPS_SECONDS = [10, 60, 600, 3600, 21_600];
const ANSWER_SECONDS = 5;

/** Beyond the contract's gap: time for the service's own delays and for a webhook processor to restart. */
export const JOURNAL_SLACK_SECONDS = 45;

/**
 * Endpoints (workflow x node x endpoint) whose ids one process remembers, and as many trigger nodes
 * (workflow x node) whose claims it remembers; the least recently used goes first.
 */
const MAX_MEMORY_SCOPES = 20;

/** The attempt assumed for an event run without a call of this process: the last gap, the longest. */
const LAST_ATTEMPT_WITH_A_GAP = RETRY_GAPS_SECONDS.length;

/** The later of two attempts (CM-Delivery-Attempt), undefined when neither is known. */
function laterAttempt(a: number | undefined, b: number | undefined): number | undefined {
	return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** How long an event accepted (or seen again) at `attempt` stays in the journal. */
export function journalSeconds(attempt: number | undefined): number {
	const gap = RETRY_GAPS_SECONDS[(attempt ?? 1) - 1] ?? 0;
	return gap + ANSWER_SECONDS + JOURNAL_SLACK_SECONDS;
}

/**
 * A new event handed to n8n whose execution is not stored yet. `response` is the call's HTTP response:
 * n8n ends it when it is done with the call, so an ended response without acceptance means n8n failed
 * to store the execution.
 */
interface PendingEvent {
	since: number;
	response: { writableEnded: boolean };
	/**
	 * The latest CM-Delivery-Attempt of the event seen here (its retries answered `in progress` move the
	 * service's schedule on): the journal entry made when it is accepted must cover the attempt after it.
	 */
	attempt: number | undefined;
}

/**
 * After this long a retry no longer defers to a pending earlier attempt and runs the event itself:
 * n8n takes this long to store an execution only when its database has stopped answering.
 */
export const PENDING_STALE_SECONDS = 60;

interface ScopeMemory {
	/** Event id -> unix seconds accepted, oldest first. */
	accepted: Map<string, number>;
	pending: Map<string, PendingEvent>;
	journal: EventJournal;
	/** Event id -> settles once n8n answered the call that handed it over (after saving its static data). */
	answering: Map<string, Promise<void>>;
}

const memory = new Map<string, ScopeMemory>();

/** In-memory de-duplication scope: one per workflow, trigger node and endpoint. */
export function dedupeScope(this: IHookFunctions | IWebhookFunctions, endpointId: string): string {
	return `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}\u0000${endpointId}`;
}

function memoryFor(scope: string): ScopeMemory {
	const found = memory.get(scope) ?? {
		accepted: new Map(),
		pending: new Map(),
		journal: new EventJournal(),
		answering: new Map(),
	};
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

/** What a call loaded from static data for its endpoint. */
export interface StoredDedupe {
	/** The journal (eventJournal's segments), as loaded from static data. */
	recent: unknown;
}

export type Verdict = CheckResult['verdict'];

/**
 * A retry of an event this process has no record of, sent sooner than this after the event was created,
 * waits for the service's next attempt: another process may have accepted an earlier attempt whose
 * journal n8n saves only after storing the execution, which a slow database delays past the service's
 * 5 s. The contract's gaps (§10) put attempt 3 past it, so only attempt 2 can wait.
 */
export const RETRY_SETTLE_SECONDS = 30;

/**
 * `new`: run it, and call acceptEvent once n8n has stored the execution. `duplicate`: this process
 * accepted it, an execution of this process claimed it, or (for a retry) the journal holds its
 * fingerprint. `in progress`: an earlier attempt is still being stored by this process; `settling`: a
 * retry this process has no record of, sent within RETRY_SETTLE_SECONDS of the event; nothing to save.
 */
export type CheckResult =
	| {
			verdict: 'new' | 'duplicate';
			/**
			 * The journal to put into static data, or undefined when the stored one already holds every
			 * live entry. It is this process's live copy: later calls keep adding to it.
			 */
			store: JournalSegments | undefined;
	  }
	| { verdict: 'in progress' }
	| { verdict: 'settling' };

/** Pending events older than this are dropped from memory (their retries have long run or stopped). */
const PENDING_FORGET_SECONDS = 3600;

function forgetPending(pending: Map<string, PendingEvent>, nowSeconds: number): void {
	for (const [id, { since }] of pending) {
		if (since >= nowSeconds - PENDING_FORGET_SECONDS && pending.size <= MEMORY_MAX_IDS) return;
		pending.delete(id);
	}
}

/**
 * Takes the stored journal and the node's runs without a call (none for `nodeScope` undefined) into an
 * endpoint's memory; true when the stored journal lacks a live entry of it, which must then be saved.
 */
function takeIn(
	known: ScopeMemory,
	stored: unknown,
	nodeScope: string | undefined,
	nowSeconds: number,
): boolean {
	let changed = known.journal.merge(stored, nowSeconds);
	if (nodeScope !== undefined)
		changed = journalRunsWithoutCall(nodeScope, known, nowSeconds) || changed;
	known.journal.prune(nowSeconds, JOURNAL_MAX_IDS);
	return changed;
}

/**
 * Whether `eventId` is new (see the header). `attempt` is the delivery's CM-Delivery-Attempt, undefined
 * when missing or unreadable; `response` the call's HTTP response; `nodeScope` the node's claims
 * (claimScope), undefined for a test call; `sentAfterSeconds` how long after the event's creation the
 * service signed this attempt (both by its clock), undefined when unknown. A new event is pending until
 * acceptEvent. Synchronous on purpose: no other call of this process can run between check and mark.
 */
export function checkEvent(
	scope: string,
	stored: StoredDedupe,
	eventId: string,
	attempt: number | undefined,
	nowSeconds: number,
	response: PendingEvent['response'],
	nodeScope?: string,
	sentAfterSeconds?: number,
): CheckResult {
	const known = memoryFor(scope);
	forgetOld(known.accepted, nowSeconds);
	forgetPending(known.pending, nowSeconds);
	let changed = takeIn(known, stored.recent, nodeScope, nowSeconds);

	const print = fingerprint(eventId);
	const mayBeRetry = attempt === undefined || attempt > 1;
	const claimed = nodeScope !== undefined && claimsOf(nodeScope, nowSeconds).has(eventId);
	const ran = known.accepted.has(eventId) || claimed;
	if (ran || (mayBeRetry && known.journal.has(print, nowSeconds))) {
		// A repeat extends its entry to cover the attempt after it.
		if (known.journal.add(print, nowSeconds + journalSeconds(attempt))) changed = true;
		known.journal.prune(nowSeconds, JOURNAL_MAX_IDS);
		return { verdict: 'duplicate', store: changed ? known.journal.segments : undefined };
	}
	const earlier = known.pending.get(eventId);
	if (
		earlier === undefined &&
		attempt !== undefined &&
		attempt > 1 &&
		sentAfterSeconds !== undefined &&
		// A `created_at` after the signing is not the service's clock: no wait rests on it.
		sentAfterSeconds >= 0 &&
		sentAfterSeconds < RETRY_SETTLE_SECONDS
	)
		return { verdict: 'settling' };
	if (
		earlier !== undefined &&
		!earlier.response.writableEnded &&
		earlier.since > nowSeconds - PENDING_STALE_SECONDS
	) {
		earlier.attempt = laterAttempt(earlier.attempt, attempt);
		return { verdict: 'in progress' };
	}
	known.pending.delete(eventId);
	known.pending.set(eventId, {
		since: nowSeconds,
		response,
		attempt: laterAttempt(earlier?.attempt, attempt),
	});
	return { verdict: 'new', store: changed ? known.journal.segments : undefined };
}

/**
 * Marks a new event as accepted once n8n has stored its execution, and returns the journal to put
 * into static data (this process's live copy, now holding the event).
 */
export function acceptEvent(
	scope: string,
	eventId: string,
	attempt: number | undefined,
	nowSeconds: number,
): JournalSegments {
	const known = memoryFor(scope);
	const latest = laterAttempt(attempt, known.pending.get(eventId)?.attempt);
	known.pending.delete(eventId);
	if (!known.accepted.has(eventId)) {
		known.accepted.set(eventId, nowSeconds);
		forgetOld(known.accepted, nowSeconds);
	}
	known.journal.add(fingerprint(eventId), nowSeconds + journalSeconds(latest));
	known.journal.prune(nowSeconds, JOURNAL_MAX_IDS);
	return known.journal.segments;
}

/** An execution of this process that claimed an event's items, and when (unix seconds). */
interface Claim {
	executionId: string;
	at: number;
}

/**
 * Per trigger node (workflow x node, whatever the endpoint): event id -> the claim on its items, in
 * claim order. Keyed by node because an execution n8n re-runs carries no static data, so no endpoint.
 * Claims are forgotten after DEDUPE_HORIZON_SECONDS, as accepted ids are.
 */
const claims = new Map<string, Map<string, Claim>>();

/** The claims of a node, most recently used, without those beyond the horizon. */
function claimsOf(nodeScope: string, nowSeconds: number): Map<string, Claim> {
	const found = claims.get(nodeScope) ?? new Map<string, Claim>();
	claims.delete(nodeScope);
	claims.set(nodeScope, found);
	if (claims.size > MAX_MEMORY_SCOPES) claims.delete(claims.keys().next().value as string);
	for (const [id, { at }] of found) {
		if (at >= nowSeconds - DEDUPE_HORIZON_SECONDS && found.size <= MEMORY_MAX_IDS) break;
		found.delete(id);
	}
	return found;
}

/**
 * The claims' key of a node, or undefined where items pass unclaimed: a test run (the editor's "Listen
 * for test event", mode `manual`) gets every event its production runs get, and they get every event
 * it gets; a retry from n8n's Executions list (mode `retry`) runs the trigger's step again on purpose.
 */
export function claimScope(
	this: IExecuteFunctions | IWebhookFunctions | IHookFunctions,
): string | undefined {
	const mode = this.getMode();
	if (mode === 'manual' || mode === 'retry') return undefined;
	return `${this.getWorkflow().id ?? ''}\u0000${this.getNode().id}`;
}

/**
 * Claims `eventId`'s items for the execution `executionId` of this process. False when another
 * execution claimed them first (passUnclaimedItems says when that happens).
 */
export function claimRun(
	nodeScope: string,
	eventId: string,
	executionId: string,
	nowSeconds: number,
): boolean {
	const found = claimsOf(nodeScope, nowSeconds);
	const claimed = found.get(eventId);
	if (claimed !== undefined) return claimed.executionId === executionId;
	found.set(eventId, { executionId, at: nowSeconds });
	if (found.size > MEMORY_MAX_IDS) found.delete(found.keys().next().value as string);
	return true;
}

/**
 * Per trigger node: events run in this process without a call of it (event id -> unix seconds), such as
 * n8n 2.41's re-run of a killed execution, whose static data is the snapshot's. The next call of the
 * node puts them into its endpoint's journal, which that call saves (checkEvent). A queue-mode worker
 * runs every event so and never sees a call or an activation: its runs are forgotten after
 * DEDUPE_HORIZON_SECONDS, as claims are.
 */
const runsWithoutCall = new Map<string, Map<string, number>>();

export function noteRunWithoutCall(nodeScope: string, eventId: string, nowSeconds: number): void {
	const found = runsWithoutCall.get(nodeScope) ?? new Map<string, number>();
	runsWithoutCall.delete(nodeScope);
	runsWithoutCall.set(nodeScope, found);
	if (runsWithoutCall.size > MAX_MEMORY_SCOPES)
		runsWithoutCall.delete(runsWithoutCall.keys().next().value as string);
	for (const [id, at] of found) {
		if (at >= nowSeconds - DEDUPE_HORIZON_SECONDS) break;
		found.delete(id);
	}
	found.delete(eventId);
	found.set(eventId, nowSeconds);
	if (found.size > MEMORY_MAX_IDS) found.delete(found.keys().next().value as string);
}

/** How many runs without a call the process holds for a node. */
export function runsWithoutCallHeld(nodeScope: string): number {
	return runsWithoutCall.get(nodeScope)?.size ?? 0;
}

/**
 * Moves the node's runs without a call into an endpoint's memory and journal, each entry covering the
 * longest retry gap (their attempt is unknown); true when the journal changed.
 */
function journalRunsWithoutCall(
	nodeScope: string,
	known: ScopeMemory,
	nowSeconds: number,
): boolean {
	const found = runsWithoutCall.get(nodeScope);
	if (found === undefined) return false;
	runsWithoutCall.delete(nodeScope);
	let changed = false;
	for (const [eventId, at] of found) {
		if (at < nowSeconds - DEDUPE_HORIZON_SECONDS) continue;
		if (!known.accepted.has(eventId)) known.accepted.set(eventId, at);
		const expiresAt = at + journalSeconds(LAST_ATTEMPT_WITH_A_GAP);
		changed = known.journal.add(fingerprint(eventId), expiresAt) || changed;
	}
	return changed;
}

/** The endpoint scope of `nodeScope` whose calls this process handed `eventId` over, if any. */
function scopeHolding(nodeScope: string, eventId: string): string | undefined {
	for (const [scope, known] of memory)
		if (
			scope.startsWith(`${nodeScope}\u0000`) &&
			(known.pending.has(eventId) || known.accepted.has(eventId))
		)
			return scope;
	return undefined;
}

/** Until n8n answered the call of a new event, the event's execution waits for it (passUnclaimedItems). */
function noteAnswer(known: ScopeMemory, eventId: string, response: CallResponse): void {
	const done: Promise<void> = answered(response).then(() => {
		if (known.answering.get(eventId) === done) known.answering.delete(eventId);
	});
	known.answering.set(eventId, done);
}

/**
 * The run of `eventId` in this process. If this process received its call, the run goes on once n8n
 * answered that call, which it does after saving the call's static data (the journal holding the
 * event): so a run that n8n counts as done is in the saved journal, unless that save failed. Else it is
 * a run without a call (noteRunWithoutCall). Writes no static data: n8n would save the copy it loaded
 * when the run started, undoing whatever an activation or another call saved meanwhile.
 */
async function recordRun(nodeScope: string, eventId: string, nowSeconds: number): Promise<void> {
	const scope = scopeHolding(nodeScope, eventId);
	if (scope === undefined) return noteRunWithoutCall(nodeScope, eventId, nowSeconds);
	const known = memoryFor(scope);
	const answer = known.answering.get(eventId);
	if (answer !== undefined) await answer;
	// The call ended (or lost its connection) before n8n read `webhookResponse`, though n8n stored this
	// run: the service retries the event, and the retry must find it run.
	if (!known.accepted.has(eventId))
		acceptEvent(scope, eventId, known.pending.get(eventId)?.attempt, nowSeconds);
}

/**
 * What receiveDelivery does with a verified, wanted event: run it (`new`; `remember` once n8n has
 * stored its execution), acknowledge it (`duplicate`), or answer 503 (`in progress`: an earlier attempt
 * is still being stored here; `deferred`: it waited long for the earlier saves, so its answer would
 * likely come after the service's 5 s and its retry could reach a process that cannot see its entry, or
 * it is an early retry this process has no record of, `settling` in checkEvent).
 */
export type Decision =
	| { verdict: 'new'; remember: () => void }
	| { verdict: 'duplicate' }
	| { verdict: 'in progress' }
	| { verdict: 'deferred' };

/**
 * Decides on `eventId` delivered to `endpoint` (attempt `attempt`, CM-Delivery-Attempt, signed
 * `sentAfterSeconds` after the event's creation). The journal
 * goes into static data whenever the stored one lacks some of this process's entries, on a duplicate
 * too (a save another call overwrote), so that the other processes see them again; a call that will
 * save it first waits for the earlier such calls' saves, so that none lands last with fewer entries.
 */
export async function decideEvent(
	this: IWebhookFunctions,
	staticData: IDataObject,
	endpoint: EndpointRecord,
	eventId: string,
	attempt: number | undefined,
	nowSeconds: number,
	sentAfterSeconds?: number,
): Promise<Decision> {
	const scope = dedupeScope.call(this, endpoint.id);
	const response = this.getResponseObject();
	const stored = { recent: readJournal(staticData, endpoint.url) };
	const nodeScope = claimScope.call(this);
	const check = checkEvent(
		scope,
		stored,
		eventId,
		attempt,
		nowSeconds,
		response,
		nodeScope,
		sentAfterSeconds,
	);
	if (check.verdict === 'in progress') return { verdict: 'in progress' };
	if (check.verdict === 'settling') return { verdict: 'deferred' };
	const waitedMs =
		check.verdict === 'new' || check.store !== undefined
			? await waitForEarlierSaves(scope, response)
			: 0;
	if (check.store !== undefined) writeJournal(staticData, endpoint.url, check.store);
	if (check.verdict === 'duplicate') return { verdict: 'duplicate' };
	if (waitedMs > DEFER_AFTER_WAIT_MS) return { verdict: 'deferred' };
	noteAnswer(memoryFor(scope), eventId, response);
	return {
		verdict: 'new',
		remember: () => {
			const journal = acceptEvent(scope, eventId, attempt, Math.floor(Date.now() / 1000));
			writeJournal(staticData, endpoint.url, journal);
		},
	};
}

/**
 * The trigger's step in an execution of its workflow: its items pass through, claimed for this
 * execution, each once its call was answered (recordRun). An item whose event another execution of
 * this process claimed first goes no further: n8n 2.41 re-runs at start the executions a kill left
 * stored (EnqueuedExecutionRecoveryService), whose webhook call never saved the journal, and the
 * service's retry of such an event can start a second.
 */
export async function passUnclaimedItems(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const scope = claimScope.call(this);
	const items = this.getInputData();
	if (scope === undefined) return items;
	const executionId = this.getExecutionId();
	const nowSeconds = Math.floor(Date.now() / 1000);
	const passed: INodeExecutionData[] = [];
	for (const item of items) {
		const eventId = eventIdOfItem(item.json);
		if (eventId !== undefined) {
			if (!claimRun(scope, eventId, executionId, nowSeconds)) continue;
			await recordRun(scope, eventId, nowSeconds);
		}
		passed.push(item);
	}
	return passed;
}

/**
 * At the activation of an adopted endpoint: puts the node's runs without a call into its journal in
 * static data, which n8n saves once the workflow is active. n8n 2.41 starts its re-runs of killed
 * executions just before it activates workflows, so a re-run that passed the trigger by then is in the
 * journal even when the process is killed again before a call of the node.
 */
export function journalOnActivation(
	this: IHookFunctions,
	staticData: IDataObject,
	endpoint: EndpointRecord,
): void {
	const nodeScope = claimScope.call(this);
	if (nodeScope === undefined) return;
	const nowSeconds = Math.floor(Date.now() / 1000);
	const known = memoryFor(dedupeScope.call(this, endpoint.id));
	const stored = readJournal(staticData, endpoint.url);
	if (takeIn(known, stored, nodeScope, nowSeconds))
		writeJournal(staticData, endpoint.url, known.journal.segments);
}

/** Forgets the in-memory ids of an endpoint (called when it is deleted). */
export function forgetScope(scope: string): void {
	memory.delete(scope);
}
