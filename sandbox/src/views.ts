// The API's JSON forms of stored records (docs/api-contract.md §5, §6, §10).
import type { Cta, StoredLead, StoredResource, User, WebhookEndpoint } from './model';

export function leadView(lead: StoredLead) {
	return {
		id: lead.id,
		email: lead.email,
		name: lead.name,
		company: lead.company,
		job_title: lead.job_title,
		phone: lead.phone,
		status: lead.status,
		score: lead.score,
		source_resource_id: lead.source_resource_id,
		source_channel: lead.source_channel,
		utm: { ...lead.utm },
		behavior_summary: { ...lead.behavior_summary },
		custom_fields: { ...lead.custom_fields },
		notes: lead.notes,
		assigned_to: lead.assigned_to,
		created_at: lead.created_at,
		updated_at: lead.updated_at,
	};
}

export function publicLink(contentHost: string, resourceId: string): string {
	return `${contentHost}/c/${resourceId}`;
}

export function resourceView(resource: StoredResource, contentHost: string) {
	const url = publicLink(contentHost, resource.id);
	return {
		id: resource.id,
		title: resource.title,
		type: resource.type,
		description: resource.description,
		tags: [...resource.tags],
		cta_id: resource.cta_id,
		track_visitors: resource.track_visitors,
		status: resource.status,
		url,
		preview_url: resource.status === 'draft' ? `${url}?preview=${resource.preview_token}` : null,
		file: resource.file && {
			name: resource.file.name,
			size: resource.file.size,
			mime_type: resource.file.mime_type,
		},
		created_at: resource.created_at,
		updated_at: resource.updated_at,
		published_at: resource.published_at,
		archived_at: resource.archived_at,
	};
}

/** Never contains the secret: only the create answer adds it (docs/api-contract.md §10). */
export function webhookView(endpoint: WebhookEndpoint) {
	return {
		id: endpoint.id,
		url: endpoint.url,
		description: endpoint.description,
		events: [...endpoint.events],
		active: endpoint.active,
		status: endpoint.status,
		created_at: endpoint.created_at,
		updated_at: endpoint.updated_at,
		last_delivery_at: endpoint.last_delivery_at,
	};
}

export function userView(user: User) {
	return { id: user.id, name: user.name, email: user.email, role: user.role };
}

export function ctaView(cta: Cta) {
	return { id: cta.id, name: cta.name, type: cta.type, url: cta.url };
}
