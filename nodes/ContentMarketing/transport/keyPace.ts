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
/**
 * A probe (the one turn of a spent key) that has not answered after this long no longer holds the key:
 * the next turn goes as a probe of its own, so an upload or a request hanging to its timeout stalls no one.
 */
export const PROBE_HOLD_MS = 2_000;

/** The pace's time: monotonic, so a clock stepped by NTP neither stalls nor rushes a key. */
export interface PaceClock {
	/** Monotonic milliseconds. */
	now(): number;
	/** Epoch milliseconds: only to read X-RateLimit-Reset (Unix seconds) once, on arrival. */
	wallNow(): number;
	sleep(ms: number): Promise<void>;
}

const systemClock: PaceClock = {
	now: () => performance.now(),
	wallNow: () => Date.now(),
	sleep: async (ms) => await sleep(ms),
};

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
	/** The pace's time after which the waiter gives up; Infinity when never. */
	expiresAt: number;
}

/** What the service said of the key in an answer's headers. */
interface KeyState {
	limit: number;
	remaining: number;
	/** The pace's time when the oldest counted request leaves the window. */
	resetAt: number;
	/** X-RateLimit-Reset when it is Unix seconds: it never goes back as the service counts (the oldest request only leaves). */
	resetMark?: number;
}

function headerNumber(headers: IDataObject | undefined, name: string): number | undefined {
	const raw = headers?.[name] ?? headers?.[name.toLowerCase()];
	const value = Number(Array.isArray(raw) ? raw[0] : raw);
	return typeof raw === 'undefined' || raw === '' || !Number.isFinite(value) ? undefined : value;
}

/**
 * X-RateLimit-Limit, -Remaining and -Reset (Unix seconds, or seconds from now as some services send),
 * the reset turned into the monotonic time `now` counts in.
 */
export function readKeyState(
	headers: IDataObject | undefined,
	now = performance.now(),
	wallNow = Date.now(),
): KeyState | undefined {
	const limit = headerNumber(headers, 'X-RateLimit-Limit');
	const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
	if (limit === undefined || remaining === undefined || limit <= 0) return undefined;
	const reset = headerNumber(headers, 'X-RateLimit-Reset') ?? 0;
	const inMs = reset > 1e9 ? reset * 1000 - wallNow : reset * 1000;
	// No reset is further away than the window (a clock that differs from ours).
	const resetAt = now + Math.min(LIMIT_WINDOW_MS, Math.max(0, inMs));
	return {
		limit,
		remaining: Math.max(0, remaining),
		resetAt,
		resetMark: reset > 1e9 ? reset : undefined,
	};
}

/**
 * The budget of one key: requests the service still accepts now (`tokens`, from the latest
 * X-RateLimit-Remaining less the requests sent since; in flight at most one more than the answers that
 * told it, `answers`). Once that is spent, one request (a probe) goes and its answer tells how much the
 * window has freed; other turns wait for it at most PROBE_HOLD_MS. A spent key's probe goes at the
 * window's X-RateLimit-Reset, or at the key's steady pace while the window has room this process's share
 * (`share`) left to others. A 429 pauses every turn until its Retry-After. Waiting requests are served
 * round-robin by execution, so a big import does not starve a trigger's one call. Only a success without
 * X-RateLimit-* headers says the key is no longer limited: then only its 429s pause it. All waiting
 * requests share the key's one timer.
 */
export class KeyPace {
	/** Unknown until an answer carries the headers (`heard`). */
	private tokens = Number.POSITIVE_INFINITY;
	/** Whether an answer told the key's state, or that it is not limited. */
	private heard = false;
	/**
	 * Answers that told the key's state. Requests in flight are at most one more, so a new pace spends by
	 * doubling per round trip: other processes on the key (queue-mode workers) show in its answers only a
	 * round trip after they spend, and the window may be theirs already.
	 */
	private answers = 0;
	private limit = 0;
	private resetAt = 0;
	/**
	 * What the window holds beyond this process's requests: the latest remainder less those sent since.
	 * Each process takes its share of a remainder the others already took from, so the shares leave room:
	 * while there is, a spent share looks again at the key's steady pace rather than waiting for the reset.
	 */
	private room = 0;
	private lastPacedAt = Number.NEGATIVE_INFINITY;
	/** The probe on its way, if one is, and when it went. */
	private probe: { sequence: number; at: number } | undefined;
	private sequence = 0;
	/** The latest state the service told, by the order it counted in (`isNewer`). */
	private latest:
		| {
				sequence: number;
				sentAt: number;
				remaining: number;
				resetMark?: number;
				readAt: number;
		  }
		| undefined;
	/** The turns on their way, and when each went. */
	private readonly inFlight = new Map<number, number>();
	/**
	 * Requests the service counted for this process and for others on the same key (other queue-mode
	 * workers), decayed by half every window (`share`).
	 */
	private counted = { mine: 0, others: 0, at: 0 };
	private readonly queues = new Map<Turntaker, Waiter[]>();
	/** The signals this pace listens to: one abort listener each, however many requests wait. */
	private readonly watched = new WeakSet<AbortSignal>();
	/** Executions with waiting requests, in the order they are served. */
	private ring: Turntaker[] = [];
	private pauseEnds = Number.NEGATIVE_INFINITY;
	/** When each sleep on its way ends: one, and one more for each wake wanted before all of them. */
	private readonly armed = new Set<number>();
	/** The latest end of a finished sleep: its time has come, also when `sleep` ran faster than the clock. */
	private reached = Number.NEGATIVE_INFINITY;
	lastUsed: number;

	constructor(private readonly clock: PaceClock = systemClock) {
		this.lastUsed = clock.now();
	}

	/** The pace's time (monotonic milliseconds). */
	now(): number {
		return Math.max(this.clock.now(), this.reached);
	}

	get idle(): boolean {
		return this.inFlight.size === 0 && this.ring.length === 0 && this.pauseEnds <= this.now();
	}

	/**
	 * Waits for this request's turn. `first` puts it ahead of its execution's other waiting requests (a
	 * retry). Rejects with n8n's cancellation error when `signal` aborts, and with TurnExpiredError at
	 * `expiresAt` (the pace's time, `now()`).
	 */
	async take(
		who: Turntaker,
		options: { signal?: AbortSignal; expiresAt?: number; first?: boolean } = {},
	): Promise<Turn> {
		const { signal, first = false } = options;
		if (signal?.aborted) throw new ManualExecutionCancelledError('');
		const now = this.now();
		this.lastUsed = now;
		if (this.ring.length === 0 && this.pauseEnds <= now && this.turnWait(now) === 0)
			return this.grant(now);
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
			this.dispatch();
		});
	}

	/** What the answer to a turn said of the key; `status` undefined when the attempt got no answer. */
	answered(turn: Turn, status: number | undefined, headers?: IDataObject): void {
		const sentAt = this.inFlight.get(turn.sequence) ?? Number.NEGATIVE_INFINITY;
		this.inFlight.delete(turn.sequence);
		if (this.probe?.sequence === turn.sequence) this.probe = undefined;
		const now = this.now();
		this.lastUsed = now;
		if (status !== undefined) this.learn(turn, sentAt, status, headers, now);
		this.dispatch();
	}

	/** Every turn waits `ms` (a 429's Retry-After); a later end extends the pause, an earlier one is inside it. */
	pauseFor(ms: number): void {
		const now = this.now();
		this.pauseEnds = Math.max(this.pauseEnds, now + ms);
		// The pause's end is set now, so the key sleeps the pause as long as the service said.
		this.arm(this.pauseEnds, now);
		this.dispatch();
	}

	private learn(
		turn: Turn,
		sentAt: number,
		status: number,
		headers: IDataObject | undefined,
		now: number,
	): void {
		const state = readKeyState(headers, now, this.clock.wallNow());
		if (state !== undefined || (status >= 200 && status < 300)) this.heard = true;
		if (state !== undefined) this.answers++;
		if (state === undefined) {
			// The service's every answer past its limiter carries the headers (docs/api-contract.md §9): only
			// a success without them says the limit was lifted. A proxy's 502/504, a 401 or an answer from
			// before the limiter says nothing of the window, so the last known limit stands.
			if (status >= 200 && status < 300) {
				this.limit = 0;
				this.tokens = Number.POSITIVE_INFINITY;
			}
		} else {
			this.limit = state.limit;
			if (this.isNewer(turn, state, now)) {
				this.countOthers(turn, state, now);
				this.latest = { sequence: turn.sequence, sentAt, readAt: now, ...state };
				this.resetAt = state.resetAt;
			}
			// Requests in flight that went with the latest counted one or after it may be counted after it:
			// they are spent already (those sent before it were counted before it, as a rule). Counted anew at
			// every answer, as the requests sent with it come back.
			const latest = this.latest ?? { sentAt, remaining: state.remaining };
			let later = 0;
			for (const at of this.inFlight.values()) if (at >= latest.sentAt) later++;
			// Beside other processes, half its share at a time: what it reads of their spending is a round trip
			// old, so the processes together leave the window room; the rest goes by halves, a round trip each.
			const share = this.share(now);
			this.tokens = Math.floor(latest.remaining * (share < 1 ? share / 2 : 1)) - later;
			this.room = latest.remaining - later;
			// A 429 with the headers is the service's limiter: nothing is left until its window frees. One
			// without them came from before the limiter (a proxy's), so its Retry-After pause is all it costs.
			if (status === 429) this.tokens = Math.min(this.tokens, 0);
		}
	}

	/**
	 * Learns what other processes spend from how X-RateLimit-Remaining falls between two answers beyond
	 * this process's own requests. Only while the window's oldest request stays (the same
	 * X-RateLimit-Reset) is nothing leaving it, so the fall is requests counted.
	 */
	private countOthers(turn: Turn, state: KeyState, now: number): void {
		// The first answer compares with an empty window: what it holds beyond this process's requests
		// is others'.
		const previous = this.latest ?? {
			sequence: -1,
			remaining: state.limit,
			resetMark: state.resetMark,
		};
		if (previous.resetMark === undefined || previous.resetMark !== state.resetMark) return;
		// Own requests sent between the two and still in flight may be counted after this one.
		let mine = turn.sequence - previous.sequence;
		for (const sequence of this.inFlight.keys())
			if (sequence > previous.sequence && sequence < turn.sequence) mine--;
		const others = Math.max(0, previous.remaining - state.remaining - mine);
		this.decay(now);
		this.counted.mine += mine;
		this.counted.others += others;
	}

	private decay(now: number): void {
		const factor = 2 ** (-(now - this.counted.at) / LIMIT_WINDOW_MS);
		this.counted = {
			mine: this.counted.mine * factor,
			others: this.counted.others * factor,
			at: now,
		};
	}

	/**
	 * The part of X-RateLimit-Remaining this process spends: all of it alone on the key, else its part of
	 * what the key's processes were counted lately, so N workers that read the same remainder do not each
	 * spend it.
	 */
	private share(now: number): number {
		this.decay(now);
		const { mine, others } = this.counted;
		return others < 1 ? 1 : Math.max(mine, 1) / (Math.max(mine, 1) + others);
	}

	/**
	 * Whether the service counted this answer's request after the latest one read. Requests sent together
	 * reach it in any order; its window only fills until its oldest request leaves, which moves
	 * X-RateLimit-Reset on: a later reset, or the same with less remaining, is newer. Without a Unix reset
	 * to tell, the order the requests were sent in. A state read a window ago says nothing of now (a
	 * service whose clock went back).
	 */
	private isNewer(turn: Turn, state: KeyState, now: number): boolean {
		const latest = this.latest;
		if (latest === undefined || now - latest.readAt > LIMIT_WINDOW_MS) return true;
		if (state.resetMark === undefined || latest.resetMark === undefined)
			return turn.sequence > latest.sequence;
		return (
			state.resetMark > latest.resetMark ||
			(state.resetMark === latest.resetMark && state.remaining <= latest.remaining)
		);
	}

	private grant(now: number): Turn {
		const sequence = this.sequence++;
		this.room--;
		if (this.tokens > 0) this.tokens--;
		else if (this.limit > 0) {
			this.lastPacedAt = now;
			this.probe = { sequence, at: now };
		}
		this.inFlight.set(sequence, now);
		return { sequence };
	}

	/** Milliseconds until the next turn may go (0: now), pauses aside. */
	private turnWait(now: number): number {
		const probeHeldUntil =
			this.probe === undefined ? Number.NEGATIVE_INFINITY : this.probe.at + PROBE_HOLD_MS;
		if (this.heard && this.limit <= 0) return 0;
		// A request that has not answered after PROBE_HOLD_MS no longer holds the others, as a probe.
		let oldest = Number.POSITIVE_INFINITY;
		for (const at of this.inFlight.values()) oldest = Math.min(oldest, at);
		const rampHeldUntil =
			this.inFlight.size > this.answers ? oldest + PROBE_HOLD_MS : Number.NEGATIVE_INFINITY;
		if (!this.heard || this.tokens > 0) return Math.max(0, rampHeldUntil - now);
		const openAt =
			this.resetAt > this.lastPacedAt && this.room <= 0
				? this.resetAt
				: this.lastPacedAt + LIMIT_WINDOW_MS / this.limit;
		return Math.max(0, probeHeldUntil - now, openAt - now, rampHeldUntil - now);
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

	/**
	 * Rejects the waiters whose time ran out (a turn due at the very deadline still goes); returns the
	 * earliest expiry of the others.
	 */
	private expire(now: number): number {
		let earliest = Number.POSITIVE_INFINITY;
		for (const [who, queue] of [...this.queues]) {
			for (const waiter of [...queue]) {
				if (waiter.expiresAt < now) {
					this.remove(who, waiter);
					waiter.reject(new TurnExpiredError());
				} else earliest = Math.min(earliest, waiter.expiresAt);
			}
		}
		return earliest;
	}

	/**
	 * Hands out the turns that may go now, then sets the one timer for the next thing to happen: a turn's
	 * time, the end of a pause, or a waiter's expiry. Runs on every event (a new waiter, an answer, a
	 * pause, the timer), so nothing waits on a sleep that no longer matters.
	 */
	private dispatch(): void {
		for (;;) {
			const now = this.now();
			const earliestExpiry = this.expire(now);
			if (this.ring.length === 0) return;
			const openAt = this.pauseEnds > now ? this.pauseEnds : now + this.turnWait(now);
			// Wakes just after the earliest deadline, when it has passed.
			if (openAt > now) return this.arm(Math.min(openAt, earliestExpiry + 1), now);
			this.next()?.grant(this.grant(now));
		}
	}

	/**
	 * Wakes the dispatcher at `at`, unless a sleep on its way wakes it by then (it then sets the next one).
	 * `sleep` cannot be cancelled, so a sleep whose wake no longer matters runs out, at most until the
	 * longest pause; waking it costs one dispatch.
	 */
	private arm(at: number, now = this.now()): void {
		for (const end of this.armed) if (end <= at) return;
		this.armed.add(at);
		// Whole milliseconds, as timers count (the difference of two large times is not exact).
		void this.clock.sleep(Math.max(0, Math.round(at - now))).then(() => {
			this.armed.delete(at);
			this.reached = Math.max(this.reached, at);
			this.dispatch();
		});
	}
}

const paces = new Map<string, KeyPace>();

/** The registry's name of a key: a hash of the Base URL and the credential's header, never the key itself. */
export function keyId(base: string, authorization: string): string {
	return createHash('sha256').update(`${base}\n${authorization}`).digest('hex');
}

/** The pace of the key `id` (keyId) in this process; keys idle for 10 minutes are dropped. */
export function paceOf(id: string): KeyPace {
	for (const [other, pace] of paces) {
		if (other !== id && pace.idle && pace.now() - pace.lastUsed > IDLE_MS) paces.delete(other);
	}
	let pace = paces.get(id);
	if (pace === undefined) {
		pace = new KeyPace();
		paces.set(id, pace);
	}
	return pace;
}
