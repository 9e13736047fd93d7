// Lead writes shared by POST/PATCH /v1/leads, the behaviour host (form submissions) and the seed.
import type { BehaviorSummary, LeadStatus, Utm } from './behaviour/host';
import type { CustomFieldValue, StoredLead } from './model';
import type { Sandbox } from './sandbox';
import { leadView } from './views';

export interface NewLead {
	email: string;
	name?: string | null;
	company?: string | null;
	job_title?: string | null;
	phone?: string | null;
	source_channel: string;
	custom_fields?: Record<string, CustomFieldValue>;
	source_resource_id?: string | null;
	utm?: Utm;
	behavior_summary?: BehaviorSummary;
	visitor_id?: string | null;
	/** Seed only: the lead's status, score, assignee and creation time. */
	status?: LeadStatus;
	score?: number;
	assigned_to?: string | null;
	created_at?: string;
}

export interface LeadPatch {
	status?: LeadStatus;
	assigned_to?: string | null;
	notes?: string | null;
	custom_fields?: Record<string, CustomFieldValue>;
}

/** A key set to null removes it (docs/api-contract.md §5). */
export function mergeCustomFields(
	stored: Record<string, CustomFieldValue>,
	patch: Record<string, CustomFieldValue>,
): Record<string, CustomFieldValue> {
	const merged = { ...stored };
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) delete merged[key];
		else merged[key] = value;
	}
	return merged;
}

export function createLead(sandbox: Sandbox, accountId: string, input: NewLead): StoredLead {
	const createdAt = input.created_at ?? sandbox.nowIso();
	const status = input.status ?? 'new';
	const lead: StoredLead = {
		id: sandbox.ids.next('lead'),
		account_id: accountId,
		email: input.email,
		name: input.name ?? null,
		company: input.company ?? null,
		job_title: input.job_title ?? null,
		phone: input.phone ?? null,
		status,
		score: input.score ?? 0,
		source_resource_id: input.source_resource_id ?? null,
		source_channel: input.source_channel,
		utm: input.utm ? { ...input.utm } : { source: null, medium: null, campaign: null },
		behavior_summary: input.behavior_summary
			? { ...input.behavior_summary }
			: { total_page_views: 0, avg_dwell_seconds: 0, max_scroll_depth: 0, cta_clicks: 0 },
		custom_fields: mergeCustomFields({}, input.custom_fields ?? {}),
		notes: null,
		assigned_to: input.assigned_to ?? null,
		created_at: createdAt,
		updated_at: createdAt,
		status_history: [{ status, at: createdAt }],
		visitor_id: input.visitor_id ?? null,
	};
	sandbox.store.leads.set(lead.id, lead);
	sandbox.store.leadOrder.add(lead);
	if (!sandbox.quiet) {
		sandbox.crm.autoPush(lead, 'created');
		sandbox.webhooks.emit(accountId, 'lead.created', { lead: leadView(lead) });
	}
	return lead;
}

/** Applies a validated PATCH; a changed status fires lead.status_updated and a CRM push. */
export function updateLead(sandbox: Sandbox, lead: StoredLead, patch: LeadPatch): StoredLead {
	const now = sandbox.nowIso();
	const previousStatus = lead.status;
	const statusChanged = patch.status !== undefined && patch.status !== previousStatus;
	sandbox.store.leadOrder.update(lead, () => {
		if (patch.assigned_to !== undefined) lead.assigned_to = patch.assigned_to;
		if (patch.notes !== undefined) lead.notes = patch.notes;
		if (patch.custom_fields !== undefined)
			lead.custom_fields = mergeCustomFields(lead.custom_fields, patch.custom_fields);
		if (patch.status !== undefined && statusChanged) {
			lead.status = patch.status;
			lead.status_history.push({ status: patch.status, at: now });
		}
		lead.updated_at = now;
	});
	if (statusChanged && !sandbox.quiet) {
		sandbox.crm.autoPush(lead, 'status_changed');
		sandbox.webhooks.emit(lead.account_id, 'lead.status_updated', {
			lead: leadView(lead),
			previous_status: previousStatus,
		});
	}
	return lead;
}
