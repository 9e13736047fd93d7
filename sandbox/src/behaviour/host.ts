// The seam between the sandbox core (store, auth, leads, resources, webhooks, CRM) and the
// behaviour engine (tracking, scoring, analytics). The core implements BehaviourHost and calls
// registerBehaviour(app, host) from ./index; the engine never reaches into the core otherwise.
import type { FastifyInstance } from 'fastify';

export type LeadStatus = 'new' | 'contacted' | 'qualified' | 'converted' | 'lost';
export type ResourceStatus = 'draft' | 'published' | 'archived';

export interface Utm {
	source: string | null;
	medium: string | null;
	campaign: string | null;
}

export interface BehaviorSummary {
	total_page_views: number;
	avg_dwell_seconds: number;
	max_scroll_depth: number;
	cta_clicks: number;
}

export interface LeadRecord {
	id: string;
	account_id: string;
	email: string;
	name: string | null;
	company: string | null;
	job_title: string | null;
	phone: string | null;
	status: LeadStatus;
	score: number;
	source_resource_id: string | null;
	source_channel: string;
	utm: Utm;
	behavior_summary: BehaviorSummary;
	custom_fields: Record<string, string | number | boolean | null>;
	notes: string | null;
	assigned_to: string | null;
	created_at: string;
	updated_at: string;
	/** Status history with sandbox-clock times, oldest first; the first entry is the initial status. */
	status_history: Array<{ status: LeadStatus; at: string }>;
	/** Visitor id of the tracked visitor who submitted the form (null for API-created leads). */
	visitor_id: string | null;
}

export interface ResourceRecord {
	id: string;
	account_id: string;
	title: string;
	type: string;
	status: ResourceStatus;
	track_visitors: boolean;
	cta_id: string | null;
	created_at: string;
	deleted: boolean;
}

/** The sandbox clock: all timestamps the sandbox writes come from it; the control surface advances it. */
export interface Clock {
	now(): Date;
	advance(ms: number): void;
	/** Subscribers run after every advance (e.g. the hourly score recompute). */
	onAdvance(listener: (from: Date, to: Date) => void): void;
}

export interface FormSubmission {
	accountId: string;
	resourceId: string;
	visitorId: string;
	email: string;
	name?: string | null;
	company?: string | null;
	job_title?: string | null;
	source_channel: string;
	utm: Utm;
	behavior_summary: BehaviorSummary;
}

/** Authentication result the core attaches to every authenticated /v1 request as `request.auth`. */
export interface RequestAuth {
	accountId: string;
	scope: 'full' | 'read_only';
	keyRole: string;
}

export interface BehaviourHost {
	clock: Clock;
	/** Any resource by id, across accounts, deleted ones included (flag `deleted`). */
	findResource(resourceId: string): ResourceRecord | undefined;
	listResources(accountId: string): ResourceRecord[];
	listLeads(accountId: string): LeadRecord[];
	/** Creates the lead exactly like POST /v1/leads would, firing lead.created and the CRM push. */
	createLeadFromForm(submission: FormSubmission): LeadRecord;
	/**
	 * Optional, for the traffic simulator: creates the lead like createLeadFromForm but with created_at `at`
	 * (a past sandbox time) and the given status (default `new`), firing no event and no CRM push, as seed
	 * data does. Without it the simulator falls back to createLeadFromForm.
	 */
	seedLeadFromForm?(submission: FormSubmission, at: Date, status?: LeadStatus): LeadRecord;
	/** Internal writes of the engine; they fire no events and do not touch updated_at. */
	setLeadScore(leadId: string, score: number): void;
	setLeadBehaviour(leadId: string, summary: BehaviorSummary): void;
	/** Resolves a /v1 request's auth (already checked by the core's hook); throws ApiError if absent. */
	authOf(request: unknown): RequestAuth;
}

export interface BehaviourEngine {
	/** Forget all tracked events and aggregates (called by POST /_sandbox/reset). */
	reset(): void;
	/** Deterministic traffic for the demo seed and benchmarks. */
	simulate(options: { accountId: string; seed: number; events: number; days: number }): {
		events: number;
		leads: number;
	};
}

export type RegisterBehaviour = (app: FastifyInstance, host: BehaviourHost) => BehaviourEngine;
