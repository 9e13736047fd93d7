import type { ApiContext, Session } from './session';
import { sessionOf } from './session';

/**
 * A time by which every request of a session is over: a poll's budget (docs/api-contract.md §14,
 * "Budget"). The request core asks it for each attempt's timeout and before each retry wait; without a
 * deadline, the usual timeout and every wait apply.
 */

/** An attempt needs at least this long to be worth making after a wait. */
const MIN_ATTEMPT_MS = 1_000;

/** Sets (or, with undefined, clears) the deadline of this context's session, in epoch milliseconds. */
export function setDeadline(context: ApiContext, at: number | undefined): void {
	sessionOf(context).deadline = at;
}

/** Milliseconds left before the deadline (Infinity when there is none). */
function timeLeft(session: Session): number {
	return session.deadline === undefined ? Number.POSITIVE_INFINITY : session.deadline - Date.now();
}

/** The timeout of the next attempt: `usual`, cut to what is left before the deadline. */
export function attemptTimeout(session: Session, usual: number): number {
	return Math.max(1, Math.min(usual, timeLeft(session)));
}

/** Whether a retry that first waits `ms` still has time for its attempt before the deadline. */
export function retryFits(session: Session, ms: number): boolean {
	return timeLeft(session) >= ms + MIN_ATTEMPT_MS;
}
