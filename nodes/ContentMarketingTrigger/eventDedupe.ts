/**
 * Bounded de-duplication of event ids (contract §10: "Receivers must de-duplicate by event id").
 *
 * Two layers, because neither alone is enough in n8n:
 * - the node's static data survives restarts and is shared by every process that loads the
 *   workflow, but a production webhook call loads it from the database and n8n writes it back
 *   only after the call has been answered; two concurrent calls therefore both read the old list,
 *   and the later save wins (a lost update);
 * - process memory is checked and updated synchronously (no `await` in between), which closes
 *   that race for calls reaching the same process, but it is lost on restart.
 * An id counts as seen if either layer has it. Both keep the most recent ids only (by count, oldest
 * dropped first), so both stay bounded.
 */

/** Ids kept per endpoint. The service retries one event for about 7 hours (contract §10). */
export const DEDUPE_MAX_IDS = 1000;
/** Endpoints (workflow x node x endpoint) remembered in memory by one process. */
const MAX_MEMORY_SCOPES = 500;

const memory = new Map<string, Set<string>>();

/** Reads a persisted list defensively (static data is JSON from the database). */
export function toSeenIds(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
}

function memoryFor(scope: string): Set<string> {
	const ids = memory.get(scope) ?? new Set<string>();
	memory.delete(scope);
	memory.set(scope, ids);
	if (memory.size > MAX_MEMORY_SCOPES) memory.delete(memory.keys().next().value as string);
	return ids;
}

function rememberInMemory(ids: Set<string>, eventId: string): void {
	ids.add(eventId);
	if (ids.size > DEDUPE_MAX_IDS) ids.delete(ids.values().next().value as string);
}

export type ClaimResult = { duplicate: true } | { duplicate: false; persisted: string[] };

/**
 * Marks `eventId` as accepted unless either layer has seen it. Synchronous on purpose.
 * On success the caller stores `persisted` (the new list, oldest first) in static data.
 */
export function claimEvent(scope: string, persisted: string[], eventId: string): ClaimResult {
	const ids = memoryFor(scope);
	if (ids.has(eventId)) return { duplicate: true };
	if (persisted.includes(eventId)) {
		rememberInMemory(ids, eventId);
		return { duplicate: true };
	}
	rememberInMemory(ids, eventId);
	const next = [...persisted, eventId];
	return { duplicate: false, persisted: next.length > DEDUPE_MAX_IDS ? next.slice(next.length - DEDUPE_MAX_IDS) : next };
}

/** Forgets the in-memory ids of an endpoint (called when it is deleted). */
export function forgetScope(scope: string): void {
	memory.delete(scope);
}
