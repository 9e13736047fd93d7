// The state of one running sandbox and the services that act on it.
import type { BehaviourEngine } from './behaviour/host';
import { SandboxClock } from './clock';
import { copyConfig, DEFAULT_CONFIG, type SandboxConfig } from './config';
import { Crm } from './crm';
import { Faults } from './faults';
import { IdempotencyStore } from './idempotency';
import { IdFactory } from './ids';
import type { Plan } from './model';
import { RateLimiter } from './rate-limit';
import { Store } from './store';
import { isoSeconds } from './time';
import { WebhookDispatcher } from './webhooks/delivery';

export interface SandboxOptions {
	/** Origin of the public links (`url` of a resource); default: the address the server listens on. */
	contentHost?: string;
	/** Plan of both accounts at start (default `free`). */
	plan?: Plan;
	/** Start values of PATCH /_sandbox/config; reset returns to them. */
	config?: Partial<SandboxConfig>;
	logger?: boolean;
}

const ID_SEED = 20_261_121;

const NOOP_ENGINE: BehaviourEngine = {
	reset: () => undefined,
	simulate: () => ({ events: 0, leads: 0 }),
};

export class Sandbox {
	readonly clock = new SandboxClock();
	readonly ids = new IdFactory(ID_SEED);
	readonly store: Store;
	readonly faults = new Faults();
	readonly rateLimiter = new RateLimiter();
	readonly idempotency = new IdempotencyStore();
	readonly crm: Crm;
	readonly webhooks: WebhookDispatcher;
	config: SandboxConfig;
	engine: BehaviourEngine = NOOP_ENGINE;
	/** Origin of public links, resolved once the server listens. */
	contentHost: () => string;
	private quietDepth = 0;
	private readonly initialConfig: SandboxConfig;

	constructor(options: SandboxOptions) {
		this.initialConfig = copyConfig({ ...DEFAULT_CONFIG, ...options.config });
		this.config = copyConfig(this.initialConfig);
		this.store = new Store(options.plan ?? 'free');
		this.crm = new Crm(this.store, this.ids, this.clock);
		this.webhooks = new WebhookDispatcher({
			store: this.store,
			clock: this.clock,
			ids: this.ids,
			faults: this.faults,
			config: () => this.config,
		});
		const fixedHost = options.contentHost?.replace(/\/+$/, '');
		this.contentHost = () => fixedHost ?? 'http://127.0.0.1';
	}

	nowIso(): string {
		return isoSeconds(this.clock.now());
	}

	/** While seeding, lead creation fires no webhook events and no CRM pushes. */
	get quiet(): boolean {
		return this.quietDepth > 0;
	}

	quietly<T>(work: () => T): T {
		this.quietDepth++;
		try {
			return work();
		} finally {
			this.quietDepth--;
		}
	}

	/** POST /_sandbox/reset: the state after start (fixed accounts, users, CTAs, keys; start config). */
	reset(): void {
		this.webhooks.cancelAll();
		this.store.reset();
		this.ids.reset();
		this.faults.clear();
		this.rateLimiter.reset();
		this.idempotency.reset();
		this.config = copyConfig(this.initialConfig);
		this.engine.reset();
	}
}
