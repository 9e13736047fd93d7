// JSON Schema of node output items, in the form n8n-nodes-base ships in its `__schema__` folders and n8n's
// editor reads to let users map fields before a run: `type` and, for objects, `properties` in the order the
// fields come; for arrays, `items`.
export interface JsonSchema {
	type: string;
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}

function typeOf(value: unknown): string {
	if (value === null || value === undefined) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
	return typeof value;
}

/**
 * The node's `<field>_percent` numbers (actions/analytics/simplifyReports.ts) come from the service's
 * percentage strings, fractions in general ("66.61%", "+12.5%"): a sample that happens to be whole must
 * not ship them as integers (the output-schema test then fails on the day the sandbox's data gives 12.5).
 */
const FRACTIONAL = /_percent$/;

/** One schema for all the values; a field that is null in some items takes its type from the others. */
export function inferSchema(values: unknown[], key = ''): JsonSchema {
	const types = [...new Set(values.map(typeOf))]
		.filter((type) => type !== 'null')
		.map((type) => (type === 'integer' && FRACTIONAL.test(key) ? 'number' : type));
	if (types.length === 0) return { type: 'null' };
	// 2 and 2.5 in the same field: a number.
	const type = types.every((t) => t === 'integer' || t === 'number')
		? types.includes('number')
			? 'number'
			: 'integer'
		: types[0];
	if (type === 'object') {
		const objects = values.filter((value) => typeOf(value) === 'object') as Array<
			Record<string, unknown>
		>;
		const keys = [...new Set(objects.flatMap((object) => Object.keys(object)))];
		return {
			type,
			properties: Object.fromEntries(
				keys.map((key) => [
					key,
					inferSchema(
						objects.map((object) => object[key]),
						key,
					),
				]),
			),
		};
	}
	if (type === 'array') {
		const elements = (values.filter(Array.isArray) as unknown[][]).flat();
		return elements.length > 0 ? { type, items: inferSchema(elements) } : { type };
	}
	return { type };
}

/**
 * Where `value` does not fit `schema` ("" when it fits): a null fits any type (a field can be empty), an
 * integer fits a number. The item itself must have exactly the schema's fields; nested objects (custom
 * fields, per-channel maps) may hold other keys, checked where both have them.
 */
export function misfit(schema: JsonSchema, value: unknown, at = '$'): string {
	const type = typeOf(value);
	if (type === 'null') return '';
	if (schema.type === 'null') return '';
	if (type !== schema.type && !(type === 'integer' && schema.type === 'number'))
		return `${at}: ${type}, schema says ${schema.type}`;
	if (type === 'object' && schema.properties) {
		const object = value as Record<string, unknown>;
		const extra = Object.keys(object).filter((key) => !(key in schema.properties!));
		const missing = Object.keys(schema.properties).filter((key) => !(key in object));
		if (at === '$' && (extra.length || missing.length))
			return `${at}: fields not in the schema [${extra}], schema fields missing [${missing}]`;
		for (const [key, sub] of Object.entries(schema.properties)) {
			if (!(key in object)) continue;
			const problem = misfit(sub, object[key], `${at}.${key}`);
			if (problem) return problem;
		}
	}
	if (type === 'array' && schema.items) {
		for (const [index, element] of (value as unknown[]).entries()) {
			const problem = misfit(schema.items, element, `${at}[${index}]`);
			if (problem) return problem;
		}
	}
	return '';
}
