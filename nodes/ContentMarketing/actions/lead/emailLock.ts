import { ManualExecutionCancelledError } from 'n8n-workflow';

// n8n loads node code once per process, so this module's state is shared by every execution of the
// process: Create or Update items of different executions with the same e-mail on the same key take
// turns here, and the later one's look-up sees the lead the earlier one made (docs/leads-import.md).

/** One item's claim on an e-mail: waiting in its queue, then holding it until released. */
interface Ticket {
	key: string;
	signal?: AbortSignal;
	holding: boolean;
	grant(): void;
	reject(error: Error): void;
}

/** Per e-mail, the holder first, then the waiters in arrival order; the entry goes with its last ticket. */
const queues = new Map<string, Ticket[]>();
/** The tickets of each cancellable execution: one abort listener per execution, however many items wait. */
const ticketsBySignal = new WeakMap<AbortSignal, Set<Ticket>>();

/**
 * The lock's name for an e-mail: the key's registry name (transport keyPace.ts `keyId`, a hash of the
 * Base URL and the key, never the key) and the e-mail as compared (`emailKey`).
 */
export function emailLockKey(keyId: string, normalisedEmail: string): string {
	return `${keyId}\n${normalisedEmail}`;
}

/** How many items hold an e-mail lock in this process, and how many wait for one (a test's view of the queues). */
export function emailLockCounts(): { held: number; waiting: number } {
	let held = 0;
	let waiting = 0;
	for (const queue of queues.values()) {
		held += 1;
		waiting += queue.length - 1;
	}
	return { held, waiting };
}

/** Whether an item of this process holds `key` now: a `lockEmail` called at once would wait. */
export function emailHeld(key: string): boolean {
	return queues.has(key);
}

function leave(ticket: Ticket): void {
	const queue = queues.get(ticket.key);
	if (ticket.signal !== undefined) ticketsBySignal.get(ticket.signal)?.delete(ticket);
	if (queue === undefined) return;
	const index = queue.indexOf(ticket);
	if (index < 0) return;
	queue.splice(index, 1);
	if (queue.length === 0) {
		queues.delete(ticket.key);
		return;
	}
	// The holder left: the next in line holds the e-mail now.
	const next = queue[0];
	if (index === 0 && !next.holding) {
		next.holding = true;
		next.grant();
	}
}

function onAbort(signal: AbortSignal): void {
	const tickets = ticketsBySignal.get(signal);
	if (tickets === undefined) return;
	for (const ticket of [...tickets]) {
		const waiting = !ticket.holding;
		leave(ticket);
		// A holder is let go as well: its execution writes nothing more, and whatever it still has in flight
		// carries the e-mail's Idempotency-Key, so the next holder cannot create a second lead beside it.
		if (waiting) ticket.reject(new ManualExecutionCancelledError(''));
	}
	ticketsBySignal.delete(signal);
}

/**
 * Waits until this item holds `key` (first come, first served) and answers the function that lets it go
 * (calling it twice is harmless). Rejects with n8n's cancellation error when `signal` aborts while it
 * waits; a holder whose execution is cancelled lets go at once.
 */
export async function lockEmail(key: string, signal?: AbortSignal): Promise<() => void> {
	if (signal?.aborted) throw new ManualExecutionCancelledError('');
	let grant: () => void = () => undefined;
	let reject: (error: Error) => void = () => undefined;
	const granted = new Promise<void>((resolve, fail) => {
		grant = resolve;
		reject = fail;
	});
	const ticket: Ticket = { key, signal, holding: false, grant, reject };
	let queue = queues.get(key);
	if (queue === undefined) {
		queue = [];
		queues.set(key, queue);
	}
	queue.push(ticket);
	if (signal !== undefined) {
		let tickets = ticketsBySignal.get(signal);
		if (tickets === undefined) {
			tickets = new Set();
			ticketsBySignal.set(signal, tickets);
			signal.addEventListener('abort', () => onAbort(signal), { once: true });
		}
		tickets.add(ticket);
	}
	if (queue.length === 1) {
		ticket.holding = true;
		grant();
	}
	await granted;
	return () => leave(ticket);
}
