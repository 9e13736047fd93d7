import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../helpers/values';

/**
 * One flat object: the keys of the `merged` sections (e.g. `period`, `summary`) become top-level keys,
 * other nested objects are flattened with their name as prefix (`scroll_distribution.0_25` becomes
 * `<prefix>_0_25`), arrays and plain values are kept. Top-level keys win over merged ones.
 */
export function flatten(
	answer: IDataObject,
	merged: string[],
	prefixes: Record<string, string> = {},
): IDataObject {
	const flat: IDataObject = {};
	const put = (key: string, value: unknown) => {
		if (!(key in flat)) flat[key] = value as IDataObject[string];
	};
	for (const [key, value] of Object.entries(answer)) {
		if (key === 'object' || !isObject(value)) {
			if (key !== 'object') flat[key] = value;
			continue;
		}
		const prefix = merged.includes(key) ? '' : `${prefixes[key] ?? key}_`;
		for (const [inner, innerValue] of Object.entries(value)) put(`${prefix}${inner}`, innerValue);
	}
	return flat;
}

const PERCENT = /^[+-]?\d+(?:\.\d+)?%$/;

/**
 * Rates and trends come as strings like "66.61%" or "-3.00%" (docs/api-contract.md §7). Beside each such
 * field, `<field>_percent` holds the number (66.61, -3) that a sheet, a chart or an IF node can use.
 */
export function withPercentNumbers(row: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(row)) {
		out[key] = value;
		if (typeof value === 'string' && PERCENT.test(value) && !(`${key}_percent` in row)) {
			out[`${key}_percent`] = Number(value.slice(0, -1));
		}
	}
	return out;
}

function period(answer: IDataObject): IDataObject {
	return isObject(answer.period)
		? { start_date: answer.period.start_date, end_date: answer.period.end_date }
		: {};
}

function entries(answer: IDataObject): IDataObject[] {
	const list = [answer.data, answer.items, answer.results].find(Array.isArray) as
		| unknown[]
		| undefined;
	return (list ?? []).filter(isObject);
}

/** Overview: period, summary and trend in one flat object. */
export function simplifyOverview(answer: IDataObject): IDataObject {
	return withPercentNumbers(flatten(answer, ['period', 'summary', 'trend']));
}

/** One resource: totals and the period flat, scroll distribution as `scroll_<bucket>`, the arrays kept. */
export function simplifyResourceAnalytics(answer: IDataObject): IDataObject {
	return withPercentNumbers(
		flatten(answer, ['period', 'totals'], { scroll_distribution: 'scroll' }),
	);
}

/** Ranking and channels: one item per entry, each with the period it covers. */
export function simplifyList(answer: IDataObject): IDataObject[] {
	const covered = period(answer);
	return entries(answer).map((entry) => withPercentNumbers({ ...entry, ...covered }));
}

/** Lead trend: one item per bucket (`date`, `leads`, `converted`, `conversion_rate`, `conversion_rate_percent`). */
export function simplifyLeadTrend(answer: IDataObject): IDataObject[] {
	return entries(answer).map(withPercentNumbers);
}

/** Funnel: one flat object with `<step>_count` and `<step>_rate` for each step, in the steps' order. */
export function simplifyFunnel(answer: IDataObject): IDataObject {
	const flat: IDataObject = { ...period(answer) };
	if (answer.resource_id !== undefined) flat.resource_id = answer.resource_id;
	const steps = Array.isArray(answer.funnel_steps) ? answer.funnel_steps.filter(isObject) : [];
	for (const step of steps) {
		if (typeof step.step !== 'string') continue;
		flat[`${step.step}_count`] = step.count;
		flat[`${step.step}_rate`] = step.rate;
	}
	return withPercentNumbers(flat);
}
