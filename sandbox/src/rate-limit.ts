// docs/api-contract.md §9: a rolling window per API key (a log of the accepted requests' times).
export interface RateLimitSetting {
	requests: number;
	window_seconds: number;
}

export interface RateDecision {
	allowed: boolean;
	limit: number;
	remaining: number;
	/** Unix seconds when the oldest counted request leaves the window. */
	reset: number;
	retryAfterSeconds: number;
}

export class RateLimiter {
	private readonly hits = new Map<string, number[]>();

	/** Counts the request if it is allowed; a refused request is not counted (it has no effect). */
	take(key: string, nowMs: number, setting: RateLimitSetting): RateDecision {
		const windowMs = setting.window_seconds * 1000;
		const times = (this.hits.get(key) ?? []).filter((t) => t > nowMs - windowMs);
		const allowed = times.length < setting.requests;
		if (allowed) times.push(nowMs);
		this.hits.set(key, times);
		const oldest = times[0] ?? nowMs;
		return {
			allowed,
			limit: setting.requests,
			remaining: Math.max(0, setting.requests - times.length),
			reset: Math.ceil((oldest + windowMs) / 1000),
			retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000)),
		};
	}

	reset(): void {
		this.hits.clear();
	}
}
