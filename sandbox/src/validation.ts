import { z, type ZodType, type ZodTypeDef } from 'zod';
import { fromZodError } from './errors';
import { idPattern, type IdPrefix } from './ids';

export type Schema<T> = ZodType<T, ZodTypeDef, unknown>;

/** Parses or throws the contract's 400 naming the first offending field. */
export function parseOrThrow<T>(schema: Schema<T>, value: unknown, fallbackParam: string): T {
	const result = schema.safeParse(value);
	if (!result.success) throw fromZodError(result.error, fallbackParam);
	return result.data;
}

export function idString(prefix: IdPrefix) {
	return z.string().regex(idPattern(prefix), `must be a ${prefix}_ id`);
}

/** A query parameter holding an integer in [min, max]. */
export function intQuery(min: number, max: number) {
	return z
		.string()
		.regex(/^-?\d{1,12}$/, 'must be an integer')
		.transform(Number)
		.pipe(z.number().int().min(min).max(max));
}

export const boolQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

export const sortOrder = z.enum(['asc', 'desc']);

/** Body of endpoints that take none: absent, or an empty JSON object. */
export const noBody = z.object({}).strict().optional();

export const noQuery = z.object({}).strict();

export function textQuery(max: number) {
	return z.string().min(1).max(max);
}
