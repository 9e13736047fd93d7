import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { ManualExecutionCancelledError, sleep } from 'n8n-workflow';

// The pace of each API key in this n8n process (docs/performance.md, "One pace per key"): every request
// of every execution that uses the same Base URL and key takes its turn here before it is sent. The
// service limits the key, not the execution, so one budget learnt from its X-RateLimit-* headers and 429s
// lets requests wait their turn instead of probing a full window. Node code is loaded once per process,
// so this module's state is shared by all executions of the process (each queue-mode worker has its own).

/**
 * The service's limit is per minute (docs/api-contract.md §9): a full window's reset is at most this far
 * away, and without a reset to wait for, probes of a full key go one per 60 s / limit.
 */
const LIMIT_WINDOW_MS = 60_000;
/** A key unused for this long is forgotten. */
const IDLE_MS = 10 * 60_000;

/** Who waits for a turn: the requests of one execution (its session), served round-robin with the others. */
export type Turntaker = object;

/** A granted turn; hand it back to `answered` once the attempt has its answer (or none). */
export interface Turn {
	readonly sequence: number;
}

/** A wait for a turn that ran past the time the request has (its deadline, or the cap on waiting). */
export class TurnExpiredError extends Error {
	constructor() {
		super('No turn of the API key before the request ran out of time');
	}
}

interface Waiter {
	signal?: AbortSignal;
	grant(turn: Turn): void;
	reject(reason: unknown): void;
	/** Epoch ms after which the waiter gives up; Infinity when never. */
	expiresAt: number;
}

/** What the service said of the key in an answer's headers. */
interface KeyState {
	limit: number;
	remaining: number;
	/** Epoch ms when the oldest counted request leaves the window. */
	resetAt: number;
}

function headerNumber(headers: IDataObject | undefined, name: string): number | undefined {
	const raw = headers?.[name] ?? headers?.[name.toLowerCase()];
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return typeof raw === 'undefined' || raw === '' || !Number.isFinite(value) ? undefined : value;
}

/** X-RateLimit-Limit, -Remaining and -Reset (Unix seconds, or seconds from now as some services send). */
export function readKeyState(
	headers: IDataObject | undefined,
	now = Date.now(),
): KeyState | undefined {
	const limit = headerNumber(headers, 'X-RateLimit-Limit');
	const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
	if (limit === undefined || remaining === undefined || limit <= 0) return undefined;
	const reset = headerNumber(headers, 'X-RateLimit-Reset') ?? 0;
	// No reset is further away than the window (a clock that differs from ours).
	const resetAt = Math.min(now + LIMIT_WINDOW_MS, reset > 1e9 ? reset * 1000 : now + reset * 1000);
	return { limit, remaining: Math.max(0, remaining), resetAt };
}

/**
 * The budget of one key: requests the service still accepts now (`tokens`, from the latest
 * X-RateLimit-Remaining less the requests sent since). Once that is spent, one request (a probe) goes at
 * the window's X-RateLimit-Reset and its answer tells how much the window has freed; no other turn goes
 * while a probe is on its way. A 429 pauses every turn until its Retry-After. Waiting
 * requests are served round-robin by execution, so a big import does not starve a trigger's one call.
 * A key whose answers carry no X-RateLimit-* headers is not paced: only its 429s pause it.
 */
export class KeyPace {
	/** Unknown until an answer carries the headers: every request goes. */
	private tokens = Number.POSITIVE_INFINITY;
	private limit = 0;
	private resetAt = 0;
	private lastPacedAt = Number.NEGATIVE_INFINITY;
	/** The turn of the probe on its way, if one is. */
	private probe: number | undefined;
	/** Set when a wait for the next probe ran its full length: that turn is due. */
	private turnDue = false;
	private sequence = 0;
	private lastStateSequence = -1;
	private readonly inFlight = new Set<number>();
	private readonly queues = new Map<Turntaker, Waiter[]>();
	/** The signals this pace listens to: one abort listener each, however many requests wait. */
	private readonly watched = new WeakSet<AbortSignal>();
	/** Executions with waiting requests, in the order they are served. */
	private ring: Turntaker[] = [];
	private dispatching = false;
	private wakeDispatcher: (() => void) | undefined;
	private pause: Promise<void> | undefined;
	private pauseEnds = 0;
	lastUsed = Date.now();

	get idle(): boolean {
		return this.inFlight.size === 0 && this.ring.length === 0 && this.pause === undefined;
	}

	/**
	 * Waits for this request's turn. `first` puts it ahead of its execution's other waiting requests (a
	 * retry). Rejects with n8n's cancellation error when `signal` aborts, and with TurnExpiredError after
	 * `expiresAt` (epoch ms).
	 */
	async take(
		who: Turntaker,
		options: { signal?: AbortSignal; expiresAt?: number; first?: boolean } = {},
	): Promise<Turn> {
		const { signal, first = false } = options;
		if (signal?.aborted) throw new ManualExecutionCancelledError('');
		this.lastUsed = Date.now();
		if (this.ring.length === 0 && this.pause === undefined && this.turnWait(Date.now()) === 0)
			return this.grant();
		// One abort listener per execution's signal: one per waiting request would pass Node's limit of
		// listeners (and its warning) once an execution has more than 10 requests waiting.
		if (signal !== undefined && !this.watched.has(signal)) {
			this.watched.add(signal);
			signal.addEventListener('abort', () => this.cancelWaiters(signal), { once: true });
		}
		return await new Promise<Turn>((resolve, reject) => {
			this.enqueue(
				who,
				{
					signal,
					expiresAt: options.expiresAt ?? Number.POSITIVE_INFINITY,
					grant: resolve,
					reject,
				},
				first,
			);
			void this.dispatch();
		});
	}

	/** What the answer to a turn said of the key; `status` undefined when the attempt got no answer. */
	answered(turn: Turn, status: number | undefined, headers?: IDataObject): void {
		this.inFlight.delete(turn.sequence);
		if (this.probe === turn.sequence) this.probe = undefined;
		this.lastUsed = Date.now();
		if (status === undefined) return this.wakeDispatcher?.();
		const state = readKeyState(headers);
		if (state === undefined && status !== 429 && status !== 401) {
			// The service no longer says how much is left (its limit was lifted): nothing to pace by.
			this.limit = 0;
			this.tokens = Number.POSITIVE_INFINITY;
		}
		if (state !== undefined) {
			this.limit = state.limit;
			this.resetAt = state.resetAt;
			// Requests still in flight may be counted after this answer: they are spent already.
			const tokens = state.remaining - this.inFlight.size;
			// An answer overtaken by a later one says less about now: it may only lower the budget.
			this.tokens = turn.sequence > this.lastStateSequence ? tokens : Math.min(this.tokens, tokens);
			this.lastStateSequence = Math.max(this.lastStateSequence, turn.sequence);
		}
		if (status === 429 && this.limit > 0) this.tokens = Math.min(this.tokens, 0);
		this.wakeDispatcher?.();
	}

	/**
	 * Every turn waits `ms` (a 429's Retry-After), waited by `sleep`; a later end extends the pause, an
	 * earlier one is inside it.
	 */
	async pauseFor(ms: number): Promise<void> {
		const ends = Date.now() + ms;
		if (this.pause !== undefined && ends <= this.pauseEnds) return await this.pause;
		const extra = this.pause === undefined ? ms : ends - this.pauseEnds;
		const previous = this.pause ?? Promise.resolve();
		this.pauseEnds = ends;
		const pause: Promise<void> = previous
			.then(async () => await sleep(extra))
			.finally(() => {
				if (this.pause === pause) this.pause = undefined;
				this.wakeDispatcher?.();
			});
		this.pause = pause;
		void this.dispatch();
		return await pause;
	}

	private grant(): Turn {
		const sequence = this.sequence++;
		if (this.tokens > 0) this.tokens--;
		else if (this.limit > 0) {
			this.turnDue = false;
			this.lastPacedAt = Date.now();
			this.probe = sequence;
		}
		this.inFlight.add(sequence);
		return { sequence };
	}

	/** Milliseconds until the next turn may go (0: now; Infinity: when the probe's answer comes). */
	private turnWait(now: number): number {
		if (this.tokens > 0 || this.limit <= 0) return 0;
		if (this.probe !== undefined) return Number.POSITIVE_INFINITY;
		if (this.turnDue) return 0;
		const openAt =
			this.resetAt > this.lastPacedAt
				? this.resetAt
				: this.lastPacedAt + LIMIT_WINDOW_MS / this.limit;
		return Math.max(0, openAt - now);
	}

	private enqueue(who: Turntaker, waiter: Waiter, first: boolean): void {
		const queue = this.queues.get(who);
		if (queue === undefined) {
			this.queues.set(who, [waiter]);
			this.ring.push(who);
		} else if (first) queue.unshift(waiter);
		else queue.push(waiter);
	}

	private remove(who: Turntaker, waiter: Waiter): void {
		const queue = this.queues.get(who);
		const index = queue?.indexOf(waiter) ?? -1;
		if (queue === undefined || index < 0) return;
		queue.splice(index, 1);
		if (queue.length === 0) this.forget(who);
	}

	private forget(who: Turntaker): void {
		this.queues.delete(who);
		this.ring = this.ring.filter((other) => other !== who);
	}

	/** The next waiter, round-robin by execution. */
	private next(): Waiter | undefined {
		const who = this.ring.shift();
		if (who === undefined) return undefined;
		const queue = this.queues.get(who) ?? [];
		const waiter = queue.shift();
		if (queue.length > 0) this.ring.push(who);
		else this.queues.delete(who);
		return waiter;
	}

	private cancelWaiters(signal: AbortSignal): void {
		for (const [who, queue] of [...this.queues]) {
			for (const waiter of queue.filter((candidate) => candidate.signal === signal)) {
				this.remove(who, waiter);
				waiter.reject(new ManualExecutionCancelledError(''));
			}
		}
	}

	/** Rejects the waiters whose time ran out; returns the earliest expiry of the others. */
	private expire(now: number): number {
		let earliest = Number.POSITIVE_INFINITY;
		for (const [who, queue] of [...this.queues]) {
			for (const waiter of [...queue]) {
				if (waiter.expiresAt <= now) {
					this.remove(who, waiter);
					waiter.reject(new TurnExpiredError());
				} else earliest = Math.min(earliest, waiter.expiresAt);
			}
		}
		return earliest;
	}

	/** Sleeps `ms` unless woken first (an answer, the end of a pause); true when the whole wait passed. */
	private async sleepUnlessWoken(ms: number): Promise<boolean> {
		const woken = new Promise<false>((resolve) => {
			this.wakeDispatcher = () => resolve(false);
		});
		const slept = await (Number.isFinite(ms)
			? Promise.race([sleep(ms).then(() => true), woken])
			: woken);
		this.wakeDispatcher = undefined;
		return slept;
	}

	/** Hands out turns while requests wait: the one loop that waits on the key's behalf. */
	private async dispatch(): Promise<void> {
		if (this.dispatching) {
			this.wakeDispatcher?.();
			return;
		}
		this.dispatching = true;
		try {
			while (this.ring.length > 0) {
				const now = Date.now();
				const earliestExpiry = this.expire(now);
				if (this.ring.length === 0) break;
				if (this.pause !== undefined) {
					// Only a waiter whose time ends inside the pause needs the loop to wake before it ends.
					if (earliestExpiry < this.pauseEnds)
						await Promise.race([this.pause, this.sleepUnlessWoken(earliestExpiry - now)]);
					else await this.pause;
					continue;
				}
				const wait = this.turnWait(now);
				if (wait > 0) {
					const slept = await this.sleepUnlessWoken(Math.min(wait, earliestExpiry - now));
					// A full wait for the probe's time (not cut short by an expiry) makes its turn due, also
					// when the clock says otherwise (tests run `sleep` faster than the clock).
					if (slept && wait <= earliestExpiry - now) this.turnDue = true;
					continue;
				}
				this.next()?.grant(this.grant());
			}
		} finally {
			this.dispatching = false;
		}
	}
}

const paces = new Map<string, KeyPace>();

/** The registry's name of a key: a hash of the Base URL and the credential's header, never the key itself. */
export function keyId(base: string, authorization: string): string {
	return createHash('sha256').update(`${base}\n${authorization}`).digest('hex');
}

/** The pace of the key `id` (keyId) in this process; keys idle for 10 minutes are dropped. */
export function paceOf(id: string): KeyPace {
	const now = Date.now();
	for (const [other, pace] of paces) {
		if (other !== id && pace.idle && now - pace.lastUsed > IDLE_MS) paces.delete(other);
	}
	let pace = paces.get(id);
	if (pace === undefined) {
		pace = new KeyPace();
		paces.set(id, pace);
	}
	return pace;
}
