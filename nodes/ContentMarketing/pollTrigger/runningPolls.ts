import type { IPollFunctions } from 'n8n-workflow';

/**
 * One poll of a node at a time in this n8n process (docs/api-contract.md §14, "Overlaps"). n8n starts a
 * poll at its time even when the previous one of the same node still runs (2.8 and 2.41 keep no in-flight
 * guard; the durable scheduler also goes on after abandoning a poll at its timeout), and both would read
 * the same saved position and emit the same events. A poll that finds another one running skips: it
 * returns nothing and writes nothing, and the next poll reads on from whatever the running one saved.
 * Across n8n processes, polls of one node never overlap while each ends within its budget (budget.ts):
 * the durable scheduler runs each occurrence once and the budget is below the interval between them.
 */
const running = new Map<string, number>();

/** A claim older than this is from a poll n8n lost track of (each ends within its budget, far sooner). */
const STALE_AFTER_MS = 10 * 60_000;

function pollKey(context: IPollFunctions): string {
	const node = context.getNode();
	return `${String(context.getWorkflow().id)}\u0000${node.id ?? node.name}`;
}

/** Runs `poll` unless a poll of the same node is running; then answers `skipped`. */
export async function unlessPollRunning<T, S>(
	context: IPollFunctions,
	skipped: S,
	poll: () => Promise<T>,
): Promise<T | S> {
	const key = pollKey(context);
	const now = Date.now();
	const since = running.get(key);
	if (since !== undefined && now - since < STALE_AFTER_MS) return skipped;
	running.set(key, now);
	try {
		return await poll();
	} finally {
		if (running.get(key) === now) running.delete(key);
	}
}
