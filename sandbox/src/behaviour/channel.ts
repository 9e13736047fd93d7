import type { Utm } from './host';

/** Lead channels a tracked visit can have (docs/api-contract.md §5's list without `api` and `import`, which are not visits). */
export const VISIT_CHANNELS = [
	'direct',
	'organic_search',
	'paid_search',
	'social',
	'email',
	'referral',
	'other',
] as const;
export type VisitChannel = (typeof VISIT_CHANNELS)[number];

const BY_MEDIUM = new Map<string, VisitChannel>([
	['organic', 'organic_search'],
	['cpc', 'paid_search'],
	['ppc', 'paid_search'],
	['paid', 'paid_search'],
	['paid_search', 'paid_search'],
	['email', 'email'],
	['newsletter', 'email'],
	['social', 'social'],
	['social-media', 'social'],
	['social_media', 'social'],
	['referral', 'referral'],
]);

/** The channel of a visit that did not state one, from its UTM parameters (table in docs/api-contract.md §12). */
export function channelFromUtm(utm: Utm): VisitChannel {
	if (utm.medium !== null) return BY_MEDIUM.get(utm.medium.toLowerCase()) ?? 'other';
	return utm.source === null ? 'direct' : 'referral';
}
