// The core's side of the seam to the behaviour engine (./behaviour/host.ts).
import { authOf } from './auth';
import type { BehaviourHost, FormSubmission } from './behaviour/host';
import { createLead, type NewLead } from './lead-service';
import type { Sandbox } from './sandbox';
import { isoSeconds } from './time';

function fromForm(submission: FormSubmission): NewLead {
	return {
		email: submission.email,
		name: submission.name,
		company: submission.company,
		job_title: submission.job_title,
		source_channel: submission.source_channel,
		source_resource_id: submission.resourceId,
		utm: submission.utm,
		behavior_summary: submission.behavior_summary,
		visitor_id: submission.visitorId,
	};
}

export function createBehaviourHost(sandbox: Sandbox): BehaviourHost {
	const { store } = sandbox;
	return {
		clock: sandbox.clock,
		findResource: (resourceId) => store.resources.get(resourceId),
		listResources: (accountId) =>
			[...store.resources.values()].filter((r) => r.account_id === accountId),
		listLeads: (accountId) => [...store.leads.values()].filter((l) => l.account_id === accountId),
		createLeadFromForm: (submission) =>
			createLead(sandbox, submission.accountId, fromForm(submission)),
		seedLeadFromForm: (submission, at, status) =>
			sandbox.quietly(() =>
				createLead(sandbox, submission.accountId, {
					...fromForm(submission),
					created_at: isoSeconds(at),
					status,
				}),
			),
		setLeadScore: (leadId, score) => {
			const lead = store.leads.get(leadId);
			if (lead)
				store.leadOrder.update(
					lead,
					() => (lead.score = Math.min(100, Math.max(0, Math.round(score)))),
				);
		},
		setLeadBehaviour: (leadId, summary) => {
			const lead = store.leads.get(leadId);
			if (lead) lead.behavior_summary = { ...summary };
		},
		authOf,
	};
}
