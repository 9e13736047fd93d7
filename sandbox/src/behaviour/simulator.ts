// Deterministic traffic: visitors in several time zones arrive on daytime hours (fewer at weekends, more
// towards the present), come back a few times, read, scroll, dwell, see and click CTAs and submit forms.
// Every event goes through the same `record` path as live tracking, with its simulated time.
import { Prng } from '../prng';
import type { Attribution, TrackedEvent } from './account-stats';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, weekday } from './calendar';
import { channelFromUtm } from './channel';
import type { LeadStatus, ResourceRecord, Utm } from './host';
import { simulatedPerson } from './simulated-people';

export interface SimulationOptions {
	accountId: string;
	seed: number;
	/** Exact number of events to generate (fewer only when the account has no tracked published resource). */
	events: number;
	/** Length of the window ending now. */
	days: number;
}

export interface SimulatedForm {
	email: string;
	name: string;
	company: string;
	job_title: string;
	status: LeadStatus;
}

export type EventSink = (
	resource: ResourceRecord,
	event: TrackedEvent,
	form?: SimulatedForm,
) => void;

class WeightedTable<T> {
	private readonly cumulative: number[] = [];
	private readonly items: T[] = [];

	constructor(entries: Array<[T, number]>) {
		let total = 0;
		for (const [item, weight] of entries) {
			total += weight;
			this.items.push(item);
			this.cumulative.push(total);
		}
		this.cumulative = this.cumulative.map((value) => value / total);
	}

	pick(random: Prng): T {
		const roll = random.next();
		const index = this.cumulative.findIndex((bound) => roll < bound);
		return this.items[index === -1 ? this.items.length - 1 : index];
	}
}

function utm(
	source: string | null,
	medium: string | null = null,
	campaign: string | null = null,
): Attribution {
	const value: Utm = { source, medium, campaign };
	return { utm: value, channel: channelFromUtm(value) };
}

const DIRECT = utm(null);
const ARRIVALS = new WeightedTable<Attribution>([
	[DIRECT, 22],
	[utm('google', 'organic'), 26],
	[utm('baidu', 'organic'), 6],
	[utm('google', 'cpc', 'q4-brand'), 6],
	[utm('google', 'cpc', 'webinar-launch'), 3],
	[utm('linkedin', 'social', 'thought-leadership'), 11],
	[utm('twitter', 'social'), 5],
	[utm('wechat', 'social'), 4],
	[utm('newsletter', 'email', 'weekly-digest'), 10],
	[utm('partner-blog', 'referral'), 4],
	[utm('producthunt'), 3],
]);
/** UTC offsets in minutes, including half- and quarter-hour zones. */
const ZONES = new WeightedTable<number>([
	[480, 42],
	[540, 8],
	[330, 10],
	[345, 2],
	[60, 12],
	[0, 6],
	[-300, 12],
	[-480, 6],
	[600, 2],
]);
const LOCAL_HOURS = new WeightedTable<number>(
	[1, 0.5, 0.3, 0.2, 0.2, 0.4, 1, 2, 4, 6, 7, 6.5, 5, 5.5, 6, 6, 5.5, 4.5, 4, 4.5, 5, 4, 3, 2].map(
		(weight, hour) => [hour, weight],
	),
);
const GROWTH = 0.5;
const WEEKEND_SKIP = 0.45;
const RETURN_CHANCE = 0.35;
const MAX_VISITS = 8;
const MEAN_RETURN_GAP_MS = 2 * MS_PER_DAY;
/** Visitors in a row without a possible arrival time before giving up (cannot happen with a window of a day). */
const MAX_MISSES = 10_000;
/** Chances per page view that scrolled at least 40%: the CTA is seen, then clicked, then its form sent. */
const CTA_VIEW = 0.5;
const CTA_CLICK = 0.12;
const FORM_SUBMIT = 0.3;

export function simulateTraffic(
	options: SimulationOptions,
	resources: ResourceRecord[],
	now: number,
	sink: EventSink,
): { events: number; leads: number } {
	if (resources.length === 0 || options.events <= 0) return { events: 0, leads: 0 };
	const random = new Prng(options.seed);
	const popularity = new WeightedTable(
		resources.map((resource, rank) => [resource, 1 / Math.pow(rank + 1, 0.9)]),
	);
	const windowStart = now - options.days * MS_PER_DAY;
	let budget = options.events;
	let leads = 0;
	let visitorSerial = 0;

	const emit = (resource: ResourceRecord, event: TrackedEvent, form?: SimulatedForm): boolean => {
		if (budget === 0) return false;
		sink(resource, event, form);
		budget--;
		return budget > 0;
	};

	const firstArrival = (offsetMinutes: number): number | undefined => {
		const lastLocalDay = Math.floor((now + offsetMinutes * MS_PER_MINUTE) / MS_PER_DAY);
		for (let attempt = 0; attempt < 10; attempt++) {
			// Density rising linearly by GROWTH over the window (inverse of its distribution function).
			const x = (Math.sqrt(1 + GROWTH * (2 + GROWTH) * random.next()) - 1) / GROWTH;
			const localDay = lastLocalDay - options.days + 1 + Math.floor(x * options.days);
			if (weekday(localDay) >= 5 && random.chance(WEEKEND_SKIP)) continue;
			const local =
				localDay * MS_PER_DAY +
				LOCAL_HOURS.pick(random) * MS_PER_HOUR +
				Math.floor(random.next() * MS_PER_HOUR);
			const at = local - offsetMinutes * MS_PER_MINUTE;
			if (at >= windowStart && at <= now) return at;
		}
		return undefined;
	};

	const visit = (
		visitorId: string,
		start: number,
		resource: ResourceRecord,
		attribution: Attribution,
	): boolean => {
		const at = (offsetSeconds: number) => Math.min(start + offsetSeconds * 1000, now);
		if (!emit(resource, { type: 'page_view', visitorId, at: start, attribution })) return false;
		const maxDepth = Math.round(100 * Math.pow(random.next(), 0.75));
		const depths = [25, 50, 75, 100].filter((depth) => depth <= maxDepth);
		if (maxDepth % 25 !== 0) depths.push(maxDepth);
		let seconds = 0;
		for (const depth of depths) {
			seconds += 6;
			if (!emit(resource, { type: 'scroll', visitorId, at: at(seconds), depth })) return false;
		}
		if (resource.cta_id && maxDepth >= 40 && random.chance(CTA_VIEW)) {
			if (!emit(resource, { type: 'cta_view', visitorId, at: at(++seconds) })) return false;
			if (random.chance(CTA_CLICK)) {
				if (!emit(resource, { type: 'cta_click', visitorId, at: at(++seconds) })) return false;
				if (random.chance(FORM_SUBMIT)) {
					const person = simulatedPerson(random, ++leads);
					if (!emit(resource, { type: 'form_submit', visitorId, at: at((seconds += 20)) }, person))
						return false;
				}
			}
		}
		const dwell = Math.min(1800, Math.max(2, Math.round(Math.exp(3.3 + 0.9 * gaussian(random)))));
		return emit(resource, {
			type: 'dwell',
			visitorId,
			at: at(Math.max(seconds, dwell)),
			seconds: dwell,
		});
	};

	for (let misses = 0; budget > 0 && misses < MAX_MISSES; ) {
		const visitorId = `sim${options.seed}-${++visitorSerial}`;
		let start = firstArrival(ZONES.pick(random));
		if (start === undefined) {
			misses++;
			continue;
		}
		misses = 0;
		const arrival = ARRIVALS.pick(random);
		for (let visitNumber = 0; visitNumber < MAX_VISITS && start <= now; visitNumber++) {
			const attribution = visitNumber === 0 || random.chance(0.5) ? arrival : DIRECT;
			if (!visit(visitorId, start, popularity.pick(random), attribution)) break;
			if (!random.chance(RETURN_CHANCE)) break;
			start += Math.round(-Math.log(1 - random.next()) * MEAN_RETURN_GAP_MS) + 10 * MS_PER_MINUTE;
		}
	}
	return { events: options.events - budget, leads };
}

/** A standard normal variate (Box-Muller). */
function gaussian(random: Prng): number {
	return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}
