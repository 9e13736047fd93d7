import type { RetryWait } from './retry';
import type { Session } from './session';
import { sleepUnlessCancelled } from './wait';

/**
 * Every wait before a retry, and only here (a limit on how long retries may take belongs here): a 429
 * pauses every sender of the execution (the adaptive limit holds the pause), anything else waits alone.
 * Both end at once when the execution is cancelled.
 */
export async function waitBeforeRetry(session: Session, wait: RetryWait): Promise<void> {
	const { limit, signal } = session;
	const sleep = async (ms: number) => await sleepUnlessCancelled(ms, signal);
	if (wait.everySender) await limit.pauseFor(wait.ms, sleep);
	else await sleep(wait.ms);
}
