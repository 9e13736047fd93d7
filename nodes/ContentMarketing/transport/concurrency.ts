/** Default of Options › Max Parallel Requests: enough to hide 25–50 ms of latency also on a busy host. */
export const DEFAULT_MAX_PARALLEL = 100;
/** Highest value the option accepts. */
export const MAX_PARALLEL_LIMIT = 200;
/** Uploads hold a file's bytes while they are sent: never more than this many at once. */
export const MAX_PARALLEL_UPLOADS = 2;

/** The limit starts low and doubles each round trip while answers are 2xx and quick (slow start). */
const INITIAL_LIMIT = 2;
/** An answer is "slow" when it took more than this factor times the fastest recent answer, plus the slack. */
const SLOW_FACTOR = 2;
const SLOW_SLACK_MS = 100;
/** The fastest answer is forgotten after this many answers, so the limit follows a service that slowed down. */
const MIN_RTT_WINDOW = 500;
/** Multiplicative decrease on a 429, on a 5xx or broken connection, and on a slow answer. */
const DECREASE_RATE_LIMITED = 0.5;
const DECREASE_ERROR = 0.75;
const DECREASE_SLOW = 0.9;

export type AnswerKind = 'ok' | 'rate_limited' | 'error';

/** A request as the limiter sees it: when it was sent, in the order of all requests of the execution. */
export interface Sent {
	sequence: number;
	at: number;
}

/** A request waiting for a slot of the limit. */
interface Waiter {
	signal?: AbortSignal;
	grant(): void;
	cancel(reason: unknown): void;
}

/**
 * The number of requests in flight, adapted to the service's answers (AIMD with a latency signal, like
 * TCP congestion control): +1 per quick 2xx answer until the first decrease (doubling per round trip),
 * then +1 per round trip; × 0.5 on a 429, × 0.75 on a 5xx or broken connection, × 0.9 after a round trip
 * whose fastest 2xx answer was slower than 2 × the fastest recent one + 100 ms. One decrease per round
 * trip: answers to requests sent before the last decrease do not decrease again. Never above the cap,
 * never below 1. The pace of the API key itself, and the pause after a 429, are the key's (keyPace.ts).
 */
export class AdaptiveLimit {
	private limit = INITIAL_LIMIT;
	private slowStartUntil = Number.POSITIVE_INFINITY;
	private inFlight = 0;
	/** Items that gave their slot back while they wait for other items (`idleWhile`): still counted by the cap. */
	private idle = 0;
	private readonly waiters: Waiter[] = [];
	/** Idle items whose wait is over: they take the next slots, before any item starts. */
	private readonly returning: Array<() => void> = [];
	/** The signals this limit listens to: one abort listener each, however many requests wait. */
	private readonly watched = new WeakSet<AbortSignal>();
	private sequence = 0;
	private lastDecreaseSequence = -1;
	private minRtt = Number.POSITIVE_INFINITY;
	private windowMinRtt = Number.POSITIVE_INFINITY;
	private windowCount = 0;
	/** The round trip being timed ends with the first answer to a request sent from this sequence on. */
	private roundEndSequence = 0;
	private roundFastest = Number.POSITIVE_INFINITY;

	constructor(private cap = DEFAULT_MAX_PARALLEL) {
		this.limit = Math.min(INITIAL_LIMIT, cap);
	}

	/** The cap (Max Parallel Requests); 1 makes the loop run one item at a time. */
	setCap(cap: number): void {
		this.cap = Math.max(1, Math.floor(cap));
		this.limit = Math.min(this.limit, this.cap);
		this.wake();
	}

	/** How many slots are open now (for tests and benchmarks). */
	get current(): number {
		return Math.max(1, Math.floor(this.limit));
	}

	get active(): number {
		return this.inFlight;
	}

	/** Waits for a free slot; rejects when `signal` aborts. */
	async acquire(signal?: AbortSignal): Promise<void> {
		signal?.throwIfAborted();
		if (this.inFlight < this.current && this.inFlight + this.idle < this.cap) {
			this.inFlight++;
			return;
		}
		// Adding and removing an abort listener for each waiting request costs more than the rest of
		// its wait, and every item waits once the limit is reached.
		if (signal !== undefined && !this.watched.has(signal)) {
			this.watched.add(signal);
			signal.addEventListener('abort', () => this.cancelWaiters(signal), { once: true });
		}
		// `wake` takes the slot for the waiter before it resolves, so no other caller can take it first.
		await new Promise<void>((resolve, reject) => {
			this.waiters.push({
				signal,
				grant: () => {
					this.inFlight++;
					resolve();
				},
				cancel: reject,
			});
		});
	}

	release(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.wake();
	}

	/**
	 * Awaits `waiting`, work of other items, with the caller's slot given back meanwhile, then takes a slot
	 * again ahead of items not yet started. An item that sends nothing while it waits does not narrow what
	 * the limit lets through: as many items share one read under faults as without, and an item that waits
	 * for another item never holds the slot that one needs to go on. Only for a caller that holds a slot.
	 */
	async idleWhile<T>(waiting: Promise<T>): Promise<T> {
		this.idle++;
		this.release();
		try {
			return await waiting;
		} finally {
			await new Promise<void>((resolve) => {
				this.returning.push(resolve);
				this.wake();
			});
		}
	}

	/** Marks a request as sent; hand the result to `answered`. */
	sent(): Sent {
		return { sequence: this.sequence++, at: Date.now() };
	}

	/** Adapts the limit to one answer. */
	answered(request: Sent, kind: AnswerKind): void {
		const latency = Date.now() - request.at;
		if (kind === 'ok') {
			this.observeRtt(latency);
			const slow = SLOW_FACTOR * this.minRtt + SLOW_SLACK_MS;
			// Judged on a round trip's fastest answer: a service that slows down delays every answer, while
			// a pause of this process (garbage collection, a busy host) delays only the answers it holds up.
			if (request.sequence >= this.roundEndSequence) {
				if (Number.isFinite(this.roundFastest) && this.roundFastest > slow)
					this.decrease(request, DECREASE_SLOW);
				this.roundEndSequence = this.sequence;
				this.roundFastest = Number.POSITIVE_INFINITY;
			}
			this.roundFastest = Math.min(this.roundFastest, latency);
			if (latency <= slow) this.increase();
			return;
		}
		this.decrease(request, kind === 'rate_limited' ? DECREASE_RATE_LIMITED : DECREASE_ERROR);
	}

	private observeRtt(latency: number): void {
		this.windowMinRtt = Math.min(this.windowMinRtt, latency);
		this.minRtt = Math.min(this.minRtt, latency);
		if (++this.windowCount >= MIN_RTT_WINDOW) {
			this.minRtt = this.windowMinRtt;
			this.windowMinRtt = Number.POSITIVE_INFINITY;
			this.windowCount = 0;
		}
	}

	private increase(): void {
		const step = this.limit < this.slowStartUntil ? 1 : 1 / this.limit;
		this.limit = Math.min(this.cap, this.limit + step);
		this.wake();
	}

	private decrease(request: Sent, factor: number): void {
		if (request.sequence <= this.lastDecreaseSequence) return;
		this.lastDecreaseSequence = this.sequence - 1;
		this.limit = Math.max(1, this.limit * factor);
		this.slowStartUntil = this.limit;
	}

	private wake(): void {
		while (this.returning.length > 0 && this.inFlight < this.current) {
			this.idle--;
			this.inFlight++;
			this.returning.shift()?.();
		}
		while (
			this.waiters.length > 0 &&
			this.inFlight < this.current &&
			this.inFlight + this.idle < this.cap
		) {
			this.waiters.shift()?.grant();
		}
	}

	private cancelWaiters(signal: AbortSignal): void {
		const reason: unknown = signal.reason ?? new Error('aborted');
		for (const waiter of this.waiters.filter((w) => w.signal === signal)) {
			this.waiters.splice(this.waiters.indexOf(waiter), 1);
			waiter.cancel(reason);
		}
	}
}

/** A plain counting semaphore (uploads). */
export class Semaphore {
	private used = 0;
	private readonly waiters: Array<() => void> = [];

	constructor(private readonly size: number) {}

	async acquire(): Promise<void> {
		while (this.used >= this.size) await new Promise<void>((resolve) => this.waiters.push(resolve));
		this.used++;
	}

	release(): void {
		this.used--;
		this.waiters.shift()?.();
	}
}

/** The outcome of one task of `runWithinLimit`; `undefined` for a task that was never started. */
export type TaskOutcome<T> = { value: T } | { error: unknown } | undefined;

/**
 * Runs `task(0)` … `task(count - 1)`, started in order, as many at once as `limit` allows. With
 * `stopOnError`, no task starts after one failed; tasks already running finish. When `signal` aborts
 * while a task waits for a slot, no task starts after it; `cancelled` then holds the abort's reason, once
 * the started tasks have ended.
 */
export async function runWithinLimit<T>(
	limit: AdaptiveLimit,
	signal: AbortSignal | undefined,
	count: number,
	task: (index: number) => Promise<T>,
	stopOnError: boolean,
): Promise<{ outcomes: Array<TaskOutcome<T>>; cancelled?: { reason: unknown } }> {
	const outcomes: Array<TaskOutcome<T>> = new Array<TaskOutcome<T>>(count).fill(undefined);
	const running = new Set<Promise<void>>();
	let failed = false;
	let cancelled: { reason: unknown } | undefined;
	for (let index = 0; index < count && !failed; index++) {
		try {
			await limit.acquire(signal);
		} catch (reason) {
			cancelled = { reason };
			break;
		}
		if (failed) {
			limit.release();
			break;
		}
		const run = (async () => {
			try {
				outcomes[index] = { value: await task(index) };
			} catch (error) {
				outcomes[index] = { error };
				if (stopOnError) failed = true;
			} finally {
				limit.release();
			}
		})();
		running.add(run);
		void run.finally(() => running.delete(run));
	}
	await Promise.all(running);
	return { outcomes, cancelled };
}
