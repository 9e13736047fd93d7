import { FIXED_CTAS, FIXED_USERS, fixedAccounts } from './fixtures';
import { LeadOrder } from './lead-order';
import type {
	Account,
	CrmPush,
	Cta,
	DeliveryLogEntry,
	Plan,
	RequestLogEntry,
	StoredLead,
	StoredResource,
	User,
	WebhookEndpoint,
} from './model';
import type { WebhookEvent } from './webhooks/delivery';

/** The in-memory state of the simulated service. Maps keep insertion order. */
export class Store {
	readonly accounts = new Map<string, Account>();
	readonly users = new Map<string, User>();
	readonly ctas = new Map<string, Cta>();
	readonly leads = new Map<string, StoredLead>();
	/** The leads in the order of each list sort (docs/api-contract.md §4); changed together with `leads`. */
	readonly leadOrder = new LeadOrder();
	readonly resources = new Map<string, StoredResource>();
	readonly webhooks = new Map<string, WebhookEndpoint>();
	/** Lead id → record id in the simulated CRM (stable across syncs). */
	readonly crmRecords = new Map<string, string>();
	readonly crmPushes: CrmPush[] = [];
	readonly deliveries: DeliveryLogEntry[] = [];
	/** Every lead event recorded, oldest first (docs/api-contract.md §14); pruned to the retention on read. */
	readonly events: WebhookEvent[] = [];
	readonly requests: RequestLogEntry[] = [];

	constructor(private readonly initialPlan: Plan) {
		this.reset();
	}

	/** Back to the state after start: fixed accounts (with their start plan and CRM), users and CTAs only. */
	reset(): void {
		for (const map of [
			this.accounts,
			this.users,
			this.ctas,
			this.leads,
			this.resources,
			this.webhooks,
			this.crmRecords,
		]) {
			map.clear();
		}
		this.leadOrder.clear();
		this.crmPushes.length = 0;
		this.deliveries.length = 0;
		this.events.length = 0;
		this.requests.length = 0;
		for (const account of fixedAccounts(this.initialPlan)) this.accounts.set(account.id, account);
		for (const user of FIXED_USERS) this.users.set(user.id, { ...user });
		for (const cta of FIXED_CTAS) this.ctas.set(cta.id, { ...cta });
	}

	account(id: string): Account {
		const account = this.accounts.get(id);
		if (!account) throw new Error(`unknown account ${id}`);
		return account;
	}
}
