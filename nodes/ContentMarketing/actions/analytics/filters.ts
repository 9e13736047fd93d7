import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readFilterCollection } from '../../helpers/collections';
import { assertEnum } from '../../helpers/validation';
import { collectionLabels } from '../common.descriptions';
import { resourceLocator } from '../contentResource/fields';
import { readResourceId } from '../contentResource/resourceBody';
import { periodQuery } from './period';
import { readTimezone, timezoneFields } from './timezone';

const PERIODS = ['lastDays', 'range'] as const;

/** The period of an analytics query: the last N days (including today) or a date range. */
export const periodFields: INodeProperties[] = [
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		options: [
			{
				name: 'Date Range',
				value: 'range',
				description: 'From a start date to an end date, both included',
			},
			{
				name: 'Last N Days',
				value: 'lastDays',
				description: 'The last N days, including today',
			},
		],
		default: 'lastDays',
	},
	{
		displayName: 'Days',
		name: 'days',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 365 },
		default: 30,
		description: 'How many days, including today (1 to 365)',
		displayOptions: { show: { period: ['lastDays'] } },
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		required: true,
		description:
			'First day of the period. Only the date is used; the time zone decides when the day begins.',
		displayOptions: { show: { period: ['range'] } },
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'Last day of the period (included). At most 366 days after the start date.',
		displayOptions: { show: { period: ['range'] } },
	},
];

/** "Filters" collection: narrow the numbers to one content resource. */
export const resourceFilterField: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			...resourceLocator,
			required: false,
			description: 'Only count the visits and leads of this content resource',
		},
	],
};

const FILTER_NAMES = collectionLabels([resourceFilterField], 'filters');

export const granularityField: INodeProperties = {
	displayName: 'Granularity',
	name: 'granularity',
	type: 'options',
	options: [
		{ name: 'Day', value: 'day' },
		{ name: 'Month', value: 'month', description: 'Buckets start on the first day of the month' },
		{ name: 'Week', value: 'week', description: 'Weeks start on Monday' },
	],
	default: 'day',
	description: 'The size of the trend buckets',
};

/** The "Options" collection: the time zone, plus the operation's own options. */
export function optionsCollection(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...extra, ...timezoneFields].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

/**
 * The common docs/api-contract.md §7 query of an analytics operation from its parameters: period, time zone and, where the
 * operation has the "Filters" collection, `resource_id`.
 */
export function readAnalyticsQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const period = assertEnum.call(
		this,
		this.getNodeParameter('period', itemIndex, 'lastDays'),
		PERIODS,
		'Period',
		itemIndex,
	);
	const qs = periodQuery.call(
		this,
		period === 'range'
			? {
					startDate: this.getNodeParameter('startDate', itemIndex, ''),
					endDate: this.getNodeParameter('endDate', itemIndex, ''),
				}
			: { days: this.getNodeParameter('days', itemIndex, 30) },
		itemIndex,
	);

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const timezone = readTimezone.call(this, options.timezone, options.customTimezone, itemIndex);
	if (timezone !== undefined) qs.timezone = timezone;

	// A Content Resource left empty in the editor is not set; one an expression gives nothing for is refused.
	const filters = readFilterCollection.call(this, 'filters', FILTER_NAMES, itemIndex);
	if (filters.resourceId !== undefined) {
		qs.resource_id = readResourceId.call(
			this,
			itemIndex,
			'filters.resourceId',
			FILTER_NAMES.resourceId,
		);
	}
	return qs;
}
