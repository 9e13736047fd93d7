// docs/api-contract.md §8: Idempotency-Key on POST. Only successful (2xx) answers are kept, so a request that failed
// (validation, 409, 5xx) may be sent again with the same key.
import { DAY_MS } from './time';

export interface StoredAnswer {
	status: number;
	body: string;
}

interface Entry {
	fingerprint: string;
	createdMs: number;
	answer?: StoredAnswer;
	pending?: Promise<void>;
}

export type Claim =
	| { kind: 'replay'; answer: StoredAnswer }
	| { kind: 'conflict' }
	| { kind: 'fresh'; complete(answer: StoredAnswer | undefined): void };

export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

export class IdempotencyStore {
	private readonly entries = new Map<string, Entry>();

	/** Waits while the same key is being processed by another request, then decides. */
	async claim(accountId: string, key: string, fingerprint: string, nowMs: number): Promise<Claim> {
		const id = `${accountId}\n${key}`;
		for (;;) {
			const entry = this.entries.get(id);
			if (!entry || nowMs - entry.createdMs > DAY_MS) {
				let release: () => void = () => undefined;
				const pending = new Promise<void>((resolve) => {
					release = resolve;
				});
				const fresh: Entry = { fingerprint, createdMs: nowMs, pending };
				this.entries.set(id, fresh);
				return {
					kind: 'fresh',
					complete: (answer) => {
						if (answer) {
							fresh.answer = answer;
							fresh.pending = undefined;
						} else if (this.entries.get(id) === fresh) {
							this.entries.delete(id);
						}
						release();
					},
				};
			}
			if (entry.fingerprint !== fingerprint) return { kind: 'conflict' };
			if (entry.answer) return { kind: 'replay', answer: entry.answer };
			await entry.pending;
		}
	}

	reset(): void {
		this.entries.clear();
	}
}

/** JSON with sorted object keys, so that key order does not make two bodies differ. */
export function canonicalJson(value: unknown): string {
	if (value === undefined) return '';
	return JSON.stringify(value, (_key, v: unknown) =>
		v && typeof v === 'object' && !Array.isArray(v)
			? Object.fromEntries(
					Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
						a < b ? -1 : a > b ? 1 : 0,
					),
				)
			: v,
	);
}
