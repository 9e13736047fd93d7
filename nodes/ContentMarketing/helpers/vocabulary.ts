// The service's wire vocabulary, declared once for all nodes of the package (the action node, the
// triggers). test/vocabulary.test.ts holds every list equal to the sandbox's own declarations, which
// implement docs/api-contract.md; the package itself imports nothing from the sandbox.

/** docs/api-contract.md §5: a lead's status. */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** docs/api-contract.md §5: where a lead came from. */
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
export type SourceChannel = (typeof SOURCE_CHANNELS)[number];

/** docs/api-contract.md §6: content resource types; the file types are those that may carry a file. */
export const RESOURCE_TYPES = [
	'article',
	'pdf',
	'video',
	'ebook',
	'whitepaper',
	'webinar',
	'infographic',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const FILE_TYPES = [
	'pdf',
	'video',
	'ebook',
	'whitepaper',
	'infographic',
] as const satisfies readonly ResourceType[];

/** docs/api-contract.md §6: a content resource's lifecycle states. */
export const RESOURCE_STATUSES = ['draft', 'published', 'archived'] as const;

/** docs/api-contract.md §4: sort fields of GET /v1/leads and GET /v1/resources, and the sort orders. */
export const LEAD_SORT_FIELDS = ['created_at', 'updated_at', 'score', 'email', 'name'] as const;
export const RESOURCE_SORT_FIELDS = ['created_at', 'updated_at', 'title'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** docs/api-contract.md §7: what the resource ranking sorts by, and the trend buckets. */
export const RANKING_SORT_FIELDS = [
	'page_views',
	'unique_visitors',
	'leads',
	'conversion_rate',
	'avg_dwell_seconds',
] as const;
export const GRANULARITIES = ['day', 'week', 'month'] as const;

/** docs/api-contract.md §10: the event types an endpoint can subscribe to (`webhook.test` is not one). */
export const WEBHOOK_EVENT_TYPES = ['lead.created', 'lead.status_updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The value of Lead › Assigned To that removes the assignment (not sent: it becomes `null`). */
export const UNASSIGN = '__unassign__';
