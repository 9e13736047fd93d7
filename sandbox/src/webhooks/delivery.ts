// docs/api-contract.md §10: asynchronous, signed deliveries with retries, the console status, and the test operation.
import { performance } from 'node:perf_hooks';
import type { Clock } from '../behaviour/host';
import type { SandboxConfig } from '../config';
import type { Faults } from '../faults';
import type { IdFactory } from '../ids';
import type { WebhookEndpoint, WebhookEventType } from '../model';
import type { Store } from '../store';
import { isoSeconds, unixSeconds } from '../time';
import { postJson } from './post';
import { signatureHeader } from './signature';

export interface WebhookEvent {
	id: string;
	type: WebhookEventType | 'webhook.test';
	created_at: string;
	api_version: 'v1';
	account_id: string;
	data: Record<string, unknown>;
}

export interface AttemptResult {
	ok: boolean;
	status_code: number | null;
	duration_ms: number;
	error: string | null;
	/** The answer's first bytes: whether the receiver or something in front of it answered. */
	response_excerpt: string | null;
}

export interface DispatcherDeps {
	store: Store;
	clock: Clock;
	ids: IdFactory;
	faults: Faults;
	config(): SandboxConfig;
}

export const USER_AGENT = 'ContentMarketing-Webhooks/1.0';

export class WebhookDispatcher {
	/** Scheduled attempts: timer -> its attempt number and what it runs. */
	private readonly timers = new Map<
		NodeJS.Timeout,
		{ attempt: number; dueAt: number; run: () => void }
	>();
	private readonly inFlight = new Set<AbortController>();
	/** Bumped by cancelAll; attempts of an older generation leave no trace. */
	private generation = 0;

	constructor(private readonly deps: DispatcherDeps) {}

	/**
	 * Records the event in the events list (docs/api-contract.md §14: one event model for deliveries and the list) and
	 * queues it for every active endpoint of the account that subscribes to its type.
	 */
	emit(accountId: string, type: WebhookEventType, data: Record<string, unknown>): void {
		const event = this.event(accountId, type, data);
		this.deps.store.events.push(event);
		const endpoints = [...this.deps.store.webhooks.values()].filter(
			(e) => e.account_id === accountId && e.active && e.events.includes(type),
		);
		if (endpoints.length === 0) return;
		const body = JSON.stringify(event);
		for (const endpoint of endpoints) this.schedule(endpoint.id, event, body, 1, 0);
	}

	/** One `webhook.test` attempt, awaited, regardless of `events` and `active`; no retries. */
	async test(endpoint: WebhookEndpoint): Promise<AttemptResult> {
		const event = this.event(endpoint.account_id, 'webhook.test', { test: true });
		const generation = this.generation;
		const result = await this.attempt(endpoint, event, JSON.stringify(event), 1);
		if (generation === this.generation) endpoint.status = result.ok ? 'normal' : 'unreachable';
		return result;
	}

	/**
	 * Runs every scheduled retry now, or the `max` due first (a check's stand-in for the contract's long
	 * gaps, once it knows the receiver is up again), and answers how many.
	 */
	retryNow(max = Number.POSITIVE_INFINITY): number {
		const due = [...this.timers]
			.filter(([, scheduled]) => scheduled.attempt > 1)
			.sort(([, a], [, b]) => a.dueAt - b.dueAt)
			.slice(0, max);
		for (const [timer, scheduled] of due) {
			clearTimeout(timer);
			this.timers.delete(timer);
			scheduled.run();
		}
		return due.length;
	}

	cancelAll(): void {
		this.generation++;
		for (const timer of this.timers.keys()) clearTimeout(timer);
		this.timers.clear();
		for (const controller of this.inFlight) controller.abort();
		this.inFlight.clear();
	}

	private event(
		accountId: string,
		type: WebhookEvent['type'],
		data: Record<string, unknown>,
	): WebhookEvent {
		return {
			id: this.deps.ids.next('evt'),
			type,
			created_at: isoSeconds(this.deps.clock.now()),
			api_version: 'v1',
			account_id: accountId,
			data,
		};
	}

	private schedule(
		endpointId: string,
		event: WebhookEvent,
		body: string,
		attempt: number,
		delayMs: number,
	): void {
		const run = () => void this.run(endpointId, event, body, attempt);
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run();
		}, delayMs);
		timer.unref();
		this.timers.set(timer, { attempt, dueAt: Date.now() + delayMs, run });
	}

	private async run(
		endpointId: string,
		event: WebhookEvent,
		body: string,
		attempt: number,
	): Promise<void> {
		const endpoint = this.deps.store.webhooks.get(endpointId);
		if (!endpoint || !endpoint.active) return;
		const generation = this.generation;
		const result = await this.attempt(endpoint, event, body, attempt);
		if (generation !== this.generation) return;
		if (result.ok) {
			endpoint.status = 'normal';
			return;
		}
		const delays = this.deps.config().webhook_retry_delays_ms;
		if (attempt <= delays.length)
			this.schedule(endpointId, event, body, attempt + 1, delays[attempt - 1]);
		else endpoint.status = 'unreachable';
	}

	private async attempt(
		endpoint: WebhookEndpoint,
		event: WebhookEvent,
		body: string,
		attempt: number,
	): Promise<AttemptResult> {
		const now = this.deps.clock.now();
		const generation = this.generation;
		const ignored = this.deps.faults.takeIgnoredAnswer();
		const controller = new AbortController();
		this.inFlight.add(controller);
		const started = performance.now();
		const outcome = await postJson(
			endpoint.url,
			{
				'Content-Type': 'application/json',
				'User-Agent': USER_AGENT,
				'CM-Event-Id': event.id,
				'CM-Event-Type': event.type,
				'CM-Delivery-Attempt': String(attempt),
				'CM-Signature': signatureHeader(endpoint.secret, unixSeconds(now), body),
			},
			body,
			this.deps.config().webhook_timeout_ms,
			controller.signal,
		);
		this.inFlight.delete(controller);
		const answered2xx =
			outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
		const result: AttemptResult = {
			ok: answered2xx && !ignored,
			status_code: outcome.statusCode,
			duration_ms: Math.round(performance.now() - started),
			response_excerpt: outcome.excerpt,
			error: ignored
				? 'answer ignored (sandbox webhook fault)'
				: (outcome.error ?? (answered2xx ? null : `HTTP ${outcome.statusCode}`)),
		};
		if (generation === this.generation) {
			endpoint.last_delivery_at = isoSeconds(now);
			this.deps.store.deliveries.push({
				event_id: event.id,
				type: event.type,
				endpoint_id: endpoint.id,
				url: endpoint.url,
				attempt,
				status_code: result.status_code,
				ok: result.ok,
				error: result.error,
				duration_ms: result.duration_ms,
				response_excerpt: result.response_excerpt,
				at: isoSeconds(now),
			});
		}
		return result;
	}
}
