// POST /c/{id}/events on the content host (docs/api-contract.md §12): what the tracking script of a public page sends.
// No API key; only published resources with track_visitors record anything.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors';
import { isoSeconds } from '../time';
import { idString, parseOrThrow } from '../validation';
import type { Attribution, TrackedEvent } from './account-stats';
import { channelFromUtm, VISIT_CHANNELS } from './channel';
import type { Engine } from './engine';
import type { BehaviourHost, ResourceRecord } from './host';

export const EVENT_TYPES = [
	'page_view',
	'dwell',
	'scroll',
	'cta_view',
	'cta_click',
	'form_submit',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

const text = (max: number) => z.string().trim().min(1).max(max);

const eventBody = z
	.object({
		visitor_id: z
			.string()
			.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1 to 128 letters, digits or _ . : -'),
		type: z.enum(EVENT_TYPES),
		utm: z
			.object({
				source: text(200).nullable(),
				medium: text(200).nullable(),
				campaign: text(200).nullable(),
			})
			.partial()
			.strict()
			.optional(),
		channel: z.enum(VISIT_CHANNELS).optional(),
		seconds: z.number().int().min(1).max(86_400).optional(),
		depth: z.number().int().min(0).max(100).optional(),
		form: z
			.object({
				email: z.string().max(254).email(),
				name: text(200),
				company: text(200),
				job_title: text(200),
			})
			.partial({ name: true, company: true, job_title: true })
			.strict()
			.optional(),
	})
	.strict();
type EventBody = z.infer<typeof eventBody>;

/** The type-specific fields each event type requires or allows. */
const FIELDS: Record<
	EventType,
	{ required: Array<keyof EventBody>; allowed: Array<keyof EventBody> }
> = {
	page_view: { required: [], allowed: ['utm', 'channel'] },
	dwell: { required: ['seconds'], allowed: ['seconds'] },
	scroll: { required: ['depth'], allowed: ['depth'] },
	cta_view: { required: [], allowed: [] },
	cta_click: { required: [], allowed: [] },
	form_submit: { required: ['form'], allowed: ['form'] },
};
const TYPE_SPECIFIC: Array<keyof EventBody> = ['utm', 'channel', 'seconds', 'depth', 'form'];

function checkFields(body: EventBody): void {
	const { required, allowed } = FIELDS[body.type];
	for (const field of TYPE_SPECIFIC) {
		const present = body[field] !== undefined;
		if (present && !allowed.includes(field))
			throw ApiError.invalid(field, `is not allowed with type "${body.type}"`);
		if (!present && required.includes(field))
			throw ApiError.invalid(field, `is required with type "${body.type}"`);
	}
}

function trackedEvent(body: EventBody, at: number): TrackedEvent {
	const visitorId = body.visitor_id;
	switch (body.type) {
		case 'page_view': {
			const utm = {
				source: body.utm?.source ?? null,
				medium: body.utm?.medium ?? null,
				campaign: body.utm?.campaign ?? null,
			};
			const attribution: Attribution = { utm, channel: body.channel ?? channelFromUtm(utm) };
			return { type: 'page_view', visitorId, at, attribution };
		}
		case 'dwell':
			return { type: 'dwell', visitorId, at, seconds: body.seconds as number };
		case 'scroll':
			return { type: 'scroll', visitorId, at, depth: body.depth as number };
		default:
			return { type: body.type, visitorId, at };
	}
}

/** A resource that records visitors: 404 for unknown, deleted, draft and archived, 409 when tracking is off. */
function trackedResource(host: BehaviourHost, id: string): ResourceRecord {
	const resource = host.findResource(id);
	if (!resource || resource.deleted || resource.status !== 'published')
		throw ApiError.notFound(`Resource ${id} not found`);
	if (!resource.track_visitors)
		throw ApiError.invalidState(`Visitor tracking is off for resource ${id}`);
	return resource;
}

export function registerTrackingRoutes(
	app: FastifyInstance,
	host: BehaviourHost,
	engine: Engine,
): void {
	const pathId = idString('res');
	app.post<{ Params: { id: string } }>('/c/:id/events', async (request, reply) => {
		const resource = trackedResource(host, parseOrThrow(pathId, request.params.id, 'id'));
		const body = parseOrThrow(eventBody, request.body, 'body');
		checkFields(body);
		const at = host.clock.now();
		const { leadId } = engine.track(resource, trackedEvent(body, at.getTime()), body.form);
		reply.code(202);
		return {
			recorded: true,
			resource_id: resource.id,
			visitor_id: body.visitor_id,
			type: body.type,
			at: isoSeconds(at),
			...(leadId === undefined ? {} : { lead_id: leadId }),
		};
	});
}
