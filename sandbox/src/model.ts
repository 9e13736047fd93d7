// Records the sandbox stores, and the enumerations of the contract.
import type { LeadRecord, ResourceRecord } from './behaviour/host';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export const SOURCE_CHANNELS = [
	'direct',
	'organic_search',
	'paid_search',
	'social',
	'email',
	'referral',
	'api',
	'import',
	'other',
] as const;
export const RESOURCE_TYPES = [
	'article',
	'pdf',
	'video',
	'ebook',
	'whitepaper',
	'webinar',
	'infographic',
] as const;
export const FILE_TYPES: readonly ResourceType[] = [
	'pdf',
	'video',
	'ebook',
	'whitepaper',
	'infographic',
];
export const RESOURCE_STATUSES = ['draft', 'published', 'archived'] as const;
export const CRM_TYPES = ['salesforce', 'hubspot', 'pipedrive', 'zoho'] as const;
export const PLANS = ['free', 'paid'] as const;
export const USER_ROLES = ['owner', 'admin', 'member'] as const;
export const CTA_TYPES = ['form', 'button', 'banner'] as const;
export const WEBHOOK_EVENT_TYPES = ['lead.created', 'lead.status_updated'] as const;
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
	'lead.created': 'A lead was created',
	'lead.status_updated': "A lead's status changed",
};

export type SourceChannel = (typeof SOURCE_CHANNELS)[number];
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export type CrmType = (typeof CRM_TYPES)[number];
export type Plan = (typeof PLANS)[number];
export type UserRole = (typeof USER_ROLES)[number];
export type CtaType = (typeof CTA_TYPES)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookStatus = 'active' | 'normal' | 'unreachable';
export type CustomFieldValue = string | number | boolean | null;

export const UPLOAD_LIMIT_BYTES: Record<Plan, number> = { free: 52_428_800, paid: 524_288_000 };

export function isFileType(type: string): boolean {
	return (FILE_TYPES as readonly string[]).includes(type);
}

export interface Account {
	id: string;
	name: string;
	plan: Plan;
	crm: { crm_type: CrmType } | null;
}

export interface User {
	id: string;
	account_id: string;
	name: string;
	email: string;
	role: UserRole;
}

export interface Cta {
	id: string;
	account_id: string;
	name: string;
	type: CtaType;
	url: string;
}

export interface FileInfo {
	name: string;
	size: number;
	mime_type: string;
	sha256: string;
}

export interface StoredResource extends ResourceRecord {
	type: ResourceType;
	description: string | null;
	tags: string[];
	preview_token: string;
	file: FileInfo | null;
	updated_at: string;
	published_at: string | null;
	archived_at: string | null;
}

export type StoredLead = LeadRecord;

export interface WebhookEndpoint {
	id: string;
	account_id: string;
	url: string;
	description: string | null;
	events: WebhookEventType[];
	active: boolean;
	status: WebhookStatus;
	secret: string;
	created_at: string;
	updated_at: string;
	last_delivery_at: string | null;
}

export interface CrmPush {
	account_id: string;
	lead_id: string;
	crm_record_id: string;
	crm_type: CrmType;
	reason: 'created' | 'status_changed' | 'manual' | 'batch';
	at: string;
}

export interface DeliveryLogEntry {
	event_id: string;
	type: string;
	endpoint_id: string;
	url: string;
	attempt: number;
	status_code: number | null;
	ok: boolean;
	error: string | null;
	duration_ms: number;
	/** The answer's first 120 bytes (UTF-8), null without an answer. */
	response_excerpt: string | null;
	at: string;
}

export interface RequestLogEntry {
	request_id: string;
	method: string;
	path: string;
	query: string;
	status: number | null;
	key_role: string | null;
	at: string;
}
