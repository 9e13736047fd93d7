import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { invalidField, unexpectedValue } from '../../helpers/itemErrors';
import { assertDate } from '../../helpers/validation';
import { readInteger } from '../../helpers/values';

/** docs/api-contract.md §7: a range may span at most 366 days (both ends included). */
const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

interface DateTimeLike {
	isValid?: boolean;
	toISODate(): string | null;
}

function isDateTimeLike(value: unknown): value is DateTimeLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as DateTimeLike).toISODate === 'function'
	);
}

/**
 * The calendar date of a date picker value or expression result, as YYYY-MM-DD: a date string, an ISO
 * date-time string (its own date part, whatever its offset), a Luxon DateTime or a JS Date.
 */
export function toIsoDate(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	let text: unknown = value;
	if (isDateTimeLike(value)) text = value.isValid === false ? undefined : value.toISODate();
	else if (value instanceof Date)
		text = Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (typeof text === 'string') {
		const match = /^\s*(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\s*$/i.exec(text);
		if (match) return assertDate.call(this, match[1], field, itemIndex);
	}
	throw unexpectedValue.call(
		this,
		field,
		'a date (YYYY-MM-DD) or an ISO date-time',
		value,
		itemIndex,
	);
}

function daysBetween(start: string, end: string): number {
	return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
}

/** Either a day window or a date range: the "Period" option makes sending both impossible. */
export type PeriodInput = { days: unknown } | { startDate: unknown; endDate: unknown };

/** docs/api-contract.md §7 period query: `days` (1..365), or `start_date` + `end_date` (both required, start not after end, at most 366 days). */
export function periodQuery(
	this: IExecuteFunctions,
	input: PeriodInput,
	itemIndex: number,
): IDataObject {
	if ('days' in input) {
		return { days: readInteger.call(this, input.days, 'Days', itemIndex, { min: 1, max: 365 }) };
	}
	const start = toIsoDate.call(this, input.startDate, 'Start Date', itemIndex);
	const end = toIsoDate.call(this, input.endDate, 'End Date', itemIndex);
	if (start > end) {
		throw invalidField.call(
			this,
			'End Date',
			`must not be before the start date (${start} to ${end})`,
			itemIndex,
		);
	}
	const span = daysBetween(start, end) + 1;
	if (span > MAX_RANGE_DAYS) {
		throw invalidField.call(
			this,
			'End Date',
			`a date range may span at most ${MAX_RANGE_DAYS} days (${start} to ${end} is ${span})`,
			itemIndex,
		);
	}
	return { start_date: start, end_date: end };
}
