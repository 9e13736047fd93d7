// Sandbox-only routes of the behaviour engine (docs/api-contract.md §12, §13): the clock (unless the core serves it) and traffic.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors';
import { ACCOUNT_A } from '../fixtures';
import { isoSeconds } from '../time';
import { idString, parseOrThrow } from '../validation';
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from './calendar';
import type { Engine } from './engine';
import type { BehaviourHost } from './host';

const MAX_ADVANCE_MS = 366 * MS_PER_DAY;

const advanceBody = z
	.object({
		hours: z.number().int().min(0).max(8_784),
		minutes: z.number().int().min(0).max(527_040),
		seconds: z.number().int().min(0).max(31_622_400),
	})
	.partial()
	.strict();

const simulateBody = z
	.object({
		account_id: idString('acct').optional(),
		seed: z.number().int().min(0).max(0xffffffff),
		events: z.number().int().min(0).max(5_000_000),
		days: z.number().int().min(1).max(365),
	})
	.strict();

export function registerControlRoutes(
	app: FastifyInstance,
	host: BehaviourHost,
	engine: Engine,
): void {
	if (!app.hasRoute({ method: 'GET', url: '/_sandbox/clock' })) {
		app.get('/_sandbox/clock', async () => ({ now: isoSeconds(host.clock.now()) }));
	}
	if (!app.hasRoute({ method: 'POST', url: '/_sandbox/clock/advance' })) {
		app.post('/_sandbox/clock/advance', async (request) => {
			const body = parseOrThrow(advanceBody, request.body ?? {}, 'body');
			const ms =
				(body.hours ?? 0) * MS_PER_HOUR +
				(body.minutes ?? 0) * MS_PER_MINUTE +
				(body.seconds ?? 0) * 1000;
			if (ms <= 0)
				throw ApiError.invalid('body', 'advance by at least one of hours, minutes, seconds');
			if (ms > MAX_ADVANCE_MS)
				throw ApiError.invalid('body', 'advance by at most 366 days at once');
			const from = host.clock.now();
			host.clock.advance(ms);
			return { from: isoSeconds(from), now: isoSeconds(host.clock.now()), advanced_ms: ms };
		});
	}
	app.post('/_sandbox/simulate', async (request) => {
		const body = parseOrThrow(simulateBody, request.body, 'body');
		const started = performance.now();
		const result = engine.simulate({
			accountId: body.account_id ?? ACCOUNT_A,
			seed: body.seed,
			events: body.events,
			days: body.days,
		});
		return { ...result, duration_ms: Math.round(performance.now() - started) };
	});
}
