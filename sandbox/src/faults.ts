// Injected faults for /v1 requests and webhook deliveries (docs/api-contract.md §13).
import { z } from 'zod';
import { Prng } from './prng';

const rate = z.number().min(0).max(1);

/**
 * `repeat_cursor`: the page's next_cursor is the cursor the request sent; `empty_page`: no items, but
 * has_more and a next_cursor; `not_a_list`: the answer is the JSON text "unavailable"; `server_error`: a
 * 500, `rate_limited`: a 429 with Retry-After: 1, both before the request is processed.
 */
export const PAGE_FAULTS = [
	'repeat_cursor',
	'empty_page',
	'not_a_list',
	'server_error',
	'rate_limited',
] as const;
const BEFORE_PROCESSING: readonly PageFault[] = ['server_error', 'rate_limited'];
export type PageFault = (typeof PAGE_FAULTS)[number];

export const faultSettingsSchema = z
	.object({
		rate_429: rate.default(0),
		/** The Retry-After (seconds) of the 429s of `rate_429`. */
		retry_after_seconds: z.number().int().min(0).max(3600).default(1),
		rate_500: rate.default(0),
		latency_ms: z.number().int().min(0).max(60_000).default(0),
		drop_rate: rate.default(0),
		methods: z
			.array(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']))
			.min(1)
			.optional(),
		path_prefix: z.string().startsWith('/').max(500).optional(),
		/** A list page the client cannot follow, answered to list requests that carry a cursor (pages 2 on). */
		page_fault: z.enum(PAGE_FAULTS).optional(),
		/** How many pages get the page fault (then none); every matching page when left out. */
		page_fault_times: z.number().int().min(1).max(100_000).optional(),
		seed: z.number().int().default(1),
	})
	.strict()
	.refine((s) => s.rate_429 + s.rate_500 + s.drop_rate <= 1, {
		message: 'rate_429 + rate_500 + drop_rate must not exceed 1',
		path: ['rate_429'],
	});

export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export type FaultOutcome = 'pass' | 'drop' | 'rate_429' | 'rate_500';

export interface FaultDecision {
	latencyMs: number;
	retryAfterSeconds: number;
	outcome: FaultOutcome;
}

export const webhookFaultsSchema = z
	.object({ ignore_answers: z.number().int().min(0).max(1000) })
	.strict();

export class Faults {
	private settings: FaultSettings | null = null;
	private prng = new Prng(1);
	/** Pages that still get the page fault (page_fault_times); undefined: every one. */
	private pageFaultsLeft: number | undefined;
	/** The next N webhook attempts count as failed whatever the receiver answered. */
	private ignoreAnswers = 0;

	set(settings: FaultSettings): void {
		this.settings = settings;
		this.prng = new Prng(settings.seed);
		this.pageFaultsLeft = settings.page_fault_times;
	}

	get current(): FaultSettings | null {
		return this.settings;
	}

	clearRequestFaults(): void {
		this.settings = null;
	}

	clear(): void {
		this.settings = null;
		this.ignoreAnswers = 0;
	}

	private matches(method: string, path: string): FaultSettings | null {
		const s = this.settings;
		if (!s) return null;
		if (s.methods && !(s.methods as string[]).includes(method)) return null;
		if (s.path_prefix !== undefined && !path.startsWith(s.path_prefix)) return null;
		return s;
	}

	/**
	 * The page fault for a list request with a cursor, if any (no draw: every matching page has it, up to
	 * page_fault_times). `server_error` is asked before the request is processed, the others after.
	 */
	pageFault(
		method: string,
		path: string,
		hasCursor: boolean,
		when: 'before' | 'after',
	): PageFault | null {
		if (!hasCursor) return null;
		const fault = this.matches(method, path)?.page_fault;
		if (fault === undefined || BEFORE_PROCESSING.includes(fault) !== (when === 'before'))
			return null;
		if (this.pageFaultsLeft !== undefined) {
			if (this.pageFaultsLeft <= 0) return null;
			this.pageFaultsLeft--;
		}
		return fault;
	}

	/** Decided before the request is processed; one draw per matching request keeps it deterministic. */
	decide(method: string, path: string): FaultDecision | null {
		const s = this.matches(method, path);
		if (!s) return null;
		const draw = this.prng.next();
		let outcome: FaultOutcome = 'pass';
		if (draw < s.drop_rate) outcome = 'drop';
		else if (draw < s.drop_rate + s.rate_429) outcome = 'rate_429';
		else if (draw < s.drop_rate + s.rate_429 + s.rate_500) outcome = 'rate_500';
		return { latencyMs: s.latency_ms, retryAfterSeconds: s.retry_after_seconds, outcome };
	}

	setIgnoreAnswers(count: number): void {
		this.ignoreAnswers = count;
	}

	get pendingIgnoredAnswers(): number {
		return this.ignoreAnswers;
	}

	/** True (and one fewer left) when this webhook attempt's answer is to be ignored. */
	takeIgnoredAnswer(): boolean {
		if (this.ignoreAnswers <= 0) return false;
		this.ignoreAnswers--;
		return true;
	}
}
