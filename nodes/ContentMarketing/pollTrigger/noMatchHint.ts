import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { leadEventProperties } from '../leadEvents/description';
import type { LeadFilters } from '../leadEvents/params';
import { EVENT_TYPES } from '../leadEvents/params';

const OPTIONS = (leadEventProperties.find((property) => property.name === 'options')?.options ??
	[]) as INodeProperties[];

/** An option of the trigger's Options collection, as the editor labels it. */
function label(name: keyof LeadFilters | 'sourceResource'): string {
	return OPTIONS.find((option) => option.name === name)?.displayName ?? name;
}

/** The chosen values of a multi-select option, as the editor lists them ("New, Qualified"). */
function chosen(name: keyof LeadFilters, values: string[]): string {
	const choices = (OPTIONS.find((option) => option.name === name)?.options ??
		[]) as INodePropertyOptions[];
	return values
		.map((value) => choices.find((choice) => choice.value === value)?.name ?? value)
		.join(', ');
}

/** "a", "a and b", "a, b and c" (`word` "or" for alternatives). */
function list(parts: string[], word: 'and' | 'or'): string {
	return parts.length <= 1
		? parts.join('')
		: `${parts.slice(0, -1).join(', ')} ${word} ${parts[parts.length - 1]}`;
}

/**
 * What to do when Fetch Test Event finds no matching event: naming only the Events and Options that are
 * set, each with its value, so the user sees which of them held the events back.
 */
export function noMatchHint(types: string[], filters: LeadFilters): string {
	const narrowing = (['statuses', 'previousStatuses', 'sourceChannels'] as const)
		.filter((name) => filters[name].length > 0)
		.map((name) => `${label(name)} (set to ${chosen(name, filters[name])})`);
	const changes: string[] = [];
	if (types.length < EVENT_TYPES.length) changes.push('select more Events');
	if (narrowing.length > 0) changes.push(`widen ${list(narrowing, 'and')}`);
	if (filters.sourceResourceId !== undefined)
		changes.push(`clear ${label('sourceResource')} (set to ${filters.sourceResourceId})`);

	// A new lead has no previous status: while Only Previous Statuses is set, only status changes match.
	const creations = types.includes('lead.created') && filters.previousStatuses.length === 0;
	const changesStatus = types.includes('lead.status_updated');
	const action =
		creations && changesStatus
			? 'Create a lead (or change the status of one)'
			: creations
				? 'Create a lead'
				: changesStatus
					? 'Change the status of a lead'
					: undefined;
	if (action === undefined) {
		const previous = label('previousStatuses');
		return (
			`${previous} is set (to ${chosen('previousStatuses', filters.previousStatuses)}), so Lead Created ` +
			`events never match: select Lead Status Updated in Events or remove ${previous}, then fetch a ` +
			'test event again.'
		);
	}
	return `${list([`${action} in Content Marketing`, ...changes], 'or')}, then fetch a test event again.`;
}
