/**
 * Static-data saves in order per endpoint in this process. n8n saves a call's whole static data once
 * the call is done (last write wins), and two saves in flight can reach the database in either order:
 * an older journal landing last would drop a newer call's entry. A call that changes the journal
 * therefore waits until the calls before it have been answered, which n8n does only after their saves
 * (docs/triggers.md, "De-duplication").
 */

/** What the wait needs of the call's HTTP response (Node's ServerResponse). */
export interface CallResponse {
	readonly writableEnded: boolean;
	/** True once its connection closed: 'close' was emitted then, and nothing is emitted after it. */
	readonly destroyed?: boolean;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Beyond this many unanswered calls of one endpoint, a call goes ahead without waiting, so that a
 * burst is still answered within the service's 5 s however long n8n takes to store each execution. A
 * call that waited saves after every call before it, with their entries and those of the calls that
 * went ahead meanwhile.
 */
export const MAX_WAITING_CALLS = 8;

/**
 * A new event that waited longer than this for the earlier saves is answered 503 and not run. Its answer would
 * likely reach the service after its 5 s, which then counts the attempt as failed and sends it again,
 * perhaps to a process that cannot see this call's entry yet: the retry runs the event instead, once.
 */
export const DEFER_AFTER_WAIT_MS = 1500;

interface SaveLine {
	/** Settles once every call in the line has been answered. */
	tail: Promise<void>;
	unanswered: number;
}

const lines = new Map<string, SaveLine>();

/** Resolves once `response` was sent (n8n saved static data before) or its connection closed. */
export function answered(response: CallResponse): Promise<void> {
	return new Promise((resolve) => {
		// A connection the service closed (its 5 s) emits no 'finish' or 'close' again, even when n8n
		// ends the response later: a wait that starts then would never end.
		if (response.writableEnded || response.destroyed === true) return resolve();
		response.once('finish', resolve);
		response.once('close', resolve);
	});
}

/**
 * Joins the line of `scope`'s calls that change static data in this process, and waits until every
 * call before it has been answered (or lost its connection), unless the line is longer than
 * MAX_WAITING_CALLS. Resolves to the milliseconds it waited.
 */
export async function waitForEarlierSaves(scope: string, response: CallResponse): Promise<number> {
	const line = lines.get(scope) ?? { tail: Promise.resolve(), unanswered: 0 };
	lines.set(scope, line);
	const before = line.tail;
	const waits = line.unanswered < MAX_WAITING_CALLS;
	const done = answered(response).then(() => {
		line.unanswered--;
		if (line.unanswered === 0 && lines.get(scope) === line) lines.delete(scope);
	});
	line.unanswered++;
	line.tail = Promise.all([before, done]).then(() => undefined);
	if (!waits) return 0;
	const since = Date.now();
	await before;
	return Date.now() - since;
}
