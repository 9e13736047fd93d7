import { ApiError } from '../errors';
import { MS_PER_HOUR } from './calendar';
import { AccountStats, type TrackedEvent } from './account-stats';
import type {
	BehaviourEngine,
	BehaviourHost,
	FormSubmission,
	LeadStatus,
	ResourceRecord,
} from './host';
import { hourCrossed, leadScore } from './scoring';
import { simulateTraffic, type SimulationOptions } from './simulator';

export interface FormFields {
	email: string;
	name?: string;
	company?: string;
	job_title?: string;
}

export interface TrackResult {
	leadId?: string;
}

/** The behaviour engine: tracked events per account, and the leads whose scores it keeps. */
export class Engine implements BehaviourEngine {
	private readonly accounts = new Map<string, AccountStats>();
	/** Leads created from tracked forms, with the visitor whose behaviour scores them. */
	private readonly scoredLeads = new Map<string, { accountId: string; visitor: number }>();

	constructor(private readonly host: BehaviourHost) {
		host.clock.onAdvance((from, to) => {
			const tick = hourCrossed(from.getTime(), to.getTime());
			if (tick !== undefined) this.recomputeScores(tick);
		});
	}

	statsOf(accountId: string): AccountStats | undefined {
		return this.accounts.get(accountId);
	}

	/**
	 * Records one event on a resource already known to be tracked. A form submit also creates the lead:
	 * live ones through the core (events and CRM push fire); `seeded` ones as seed data at `event.at`.
	 */
	track(
		resource: ResourceRecord,
		event: TrackedEvent,
		form?: FormFields,
		seeded?: { status: LeadStatus },
	): TrackResult {
		let stats = this.accounts.get(resource.account_id);
		if (!stats) {
			stats = new AccountStats();
			this.accounts.set(resource.account_id, stats);
		}
		const recorded = stats.record(resource.id, event);
		if (!recorded)
			throw ApiError.invalidState(
				`${event.type} needs a page_view of this visitor on this resource first`,
			);
		if (event.type !== 'form_submit' || !form) return {};
		const submission: FormSubmission = {
			accountId: resource.account_id,
			resourceId: resource.id,
			visitorId: event.visitorId,
			email: form.email,
			name: form.name ?? null,
			company: form.company ?? null,
			job_title: form.job_title ?? null,
			source_channel: recorded.attribution.channel,
			utm: recorded.attribution.utm,
			behavior_summary: stats.visitors.summary(recorded.visitor),
		};
		const lead =
			seeded && this.host.seedLeadFromForm
				? this.host.seedLeadFromForm(submission, new Date(event.at), seeded.status)
				: this.host.createLeadFromForm(submission);
		stats.addLead(resource.id, lead.id, recorded.source, event.at);
		this.scoredLeads.set(lead.id, { accountId: resource.account_id, visitor: recorded.visitor });
		return { leadId: lead.id };
	}

	reset(): void {
		this.accounts.clear();
		this.scoredLeads.clear();
	}

	simulate(options: SimulationOptions): { events: number; leads: number } {
		const resources = this.host
			.listResources(options.accountId)
			.filter(
				(resource) =>
					!resource.deleted && resource.status === 'published' && resource.track_visitors,
			);
		const now = this.host.clock.now().getTime();
		const result = simulateTraffic(options, resources, now, (resource, event, form) => {
			this.track(resource, event, form, form && { status: form.status });
		});
		// Simulated traffic is history: the hourly recomputes it spans have happened, the last one at this hour.
		this.recomputeScores(Math.floor(now / MS_PER_HOUR) * MS_PER_HOUR);
		return result;
	}

	/** Scores and behaviour summaries of all tracked leads as of the sandbox hour `at`. */
	recomputeScores(at: number): void {
		for (const [leadId, { accountId, visitor }] of this.scoredLeads) {
			const visitors = this.accounts.get(accountId)?.visitors;
			if (!visitors) continue;
			const summary = visitors.summary(visitor);
			this.host.setLeadBehaviour(leadId, summary);
			this.host.setLeadScore(leadId, leadScore(summary, visitors.lastSeen[visitor], at));
		}
	}
}
