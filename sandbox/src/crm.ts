// The simulated CRM of each account (docs/api-contract.md §5 "CRM sync"): an upsert per lead, recorded for /_sandbox/crm/pushes.
import type { Clock } from './behaviour/host';
import { ApiError } from './errors';
import type { IdFactory } from './ids';
import type { Account, CrmPush, CrmType, StoredLead } from './model';
import type { Store } from './store';
import { isoSeconds } from './time';

export interface CrmSyncResult {
	synced: true;
	crm_type: CrmType;
	crm_record_id: string;
	synced_at: string;
}

export class Crm {
	constructor(
		private readonly store: Store,
		private readonly ids: IdFactory,
		private readonly clock: Clock,
	) {}

	/** The automatic push on create and status change; silently nothing without a CRM. */
	autoPush(lead: StoredLead, reason: 'created' | 'status_changed'): void {
		const account = this.store.account(lead.account_id);
		if (account.crm) this.push(account, lead, reason);
	}

	/** 409 crm_not_configured unless the account has a CRM integration. */
	requireConfigured(accountId: string): Account & { crm: { crm_type: CrmType } } {
		const account = this.store.account(accountId);
		if (!account.crm) {
			throw new ApiError('crm_not_configured', 'No CRM integration is configured for this account');
		}
		return { ...account, crm: account.crm };
	}

	sync(
		account: Account & { crm: { crm_type: CrmType } },
		lead: StoredLead,
		reason: 'manual' | 'batch',
	): CrmSyncResult {
		const push = this.push(account, lead, reason);
		return {
			synced: true,
			crm_type: push.crm_type,
			crm_record_id: push.crm_record_id,
			synced_at: push.at,
		};
	}

	private push(account: Account, lead: StoredLead, reason: CrmPush['reason']): CrmPush {
		if (!account.crm) throw new Error('push without a CRM');
		let recordId = this.store.crmRecords.get(lead.id);
		if (!recordId) {
			recordId = this.ids.next('crm');
			this.store.crmRecords.set(lead.id, recordId);
		}
		const push: CrmPush = {
			account_id: account.id,
			lead_id: lead.id,
			crm_record_id: recordId,
			crm_type: account.crm.crm_type,
			reason,
			at: isoSeconds(this.clock.now()),
		};
		this.store.crmPushes.push(push);
		return push;
	}
}
