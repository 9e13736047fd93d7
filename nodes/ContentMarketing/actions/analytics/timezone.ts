import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { invalidField, unexpectedValue } from '../../helpers/itemErrors';
import { isObject, readOptionalText } from '../../helpers/values';

const COMMON_ZONES: INodePropertyOptions[] = [
	{ name: 'America/Chicago', value: 'America/Chicago' },
	{ name: 'America/Denver', value: 'America/Denver' },
	{ name: 'America/Los_Angeles', value: 'America/Los_Angeles' },
	{ name: 'America/New_York', value: 'America/New_York' },
	{ name: 'America/Sao_Paulo', value: 'America/Sao_Paulo' },
	{ name: 'Asia/Dubai', value: 'Asia/Dubai' },
	{ name: 'Asia/Kolkata', value: 'Asia/Kolkata' },
	{ name: 'Asia/Shanghai', value: 'Asia/Shanghai' },
	{ name: 'Asia/Singapore', value: 'Asia/Singapore' },
	{ name: 'Asia/Tokyo', value: 'Asia/Tokyo' },
	{ name: 'Australia/Sydney', value: 'Australia/Sydney' },
	{ name: 'Europe/Berlin', value: 'Europe/Berlin' },
	{ name: 'Europe/London', value: 'Europe/London' },
	{ name: 'Europe/Paris', value: 'Europe/Paris' },
	{ name: 'UTC', value: 'UTC' },
];

const ZONE_CHOICES: INodePropertyOptions[] = [
	{
		name: 'Service Default (UTC+08:00)',
		value: 'default',
		description: "The service's default time zone, China Standard Time",
	},
	{
		name: 'Workflow Time Zone',
		value: 'workflow',
		description: 'The time zone set in the workflow settings (or the n8n instance)',
	},
	...COMMON_ZONES,
	{
		name: 'Custom',
		value: 'custom',
		description: 'Any IANA time zone or UTC offset, entered below',
	},
];

/**
 * Options-collection entries: the time zone that decides where days begin and end (docs/api-contract.md §7).
 *
 * Node version 1.1 has one "Time Zone" fixed collection, as n8n's Webhook node does for its Response Code,
 * so that choosing Custom shows the custom input right under the choice. Version 1 keeps its two separate
 * options, so that workflows saved with it run as before.
 */
export const timezoneFields: INodeProperties[] = [
	{
		displayName: 'Time Zone',
		name: 'timezone',
		type: 'options',
		options: ZONE_CHOICES,
		default: 'default',
		description:
			'The time zone in which days begin and end for the dates, the day windows and the trend buckets',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Custom Time Zone',
		name: 'customTimezone',
		type: 'string',
		default: '',
		placeholder: 'e.g. Europe/Madrid or -05:30',
		description:
			'An IANA time zone name, or an offset from UTC written +HH:MM or -HH:MM (minutes 00, 15, 30 or 45)',
		displayOptions: { show: { '@version': [1], timezone: ['custom'] } },
	},
	{
		displayName: 'Time Zone',
		name: 'timezone',
		type: 'fixedCollection',
		placeholder: 'Add Time Zone',
		default: { values: { zone: 'default' } },
		description:
			'The time zone in which days begin and end for the dates, the day windows and the trend buckets',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
		options: [
			{
				name: 'values',
				displayName: 'Time Zone',
				// under the option's own "Time Zone" heading: not "Time Zone › Time Zone" (errors keep the full names)
				values: [
					{
						displayName: 'Zone',
						name: 'zone',
						type: 'options',
						options: ZONE_CHOICES,
						default: 'default',
						description: 'The time zone in which days begin and end',
					},
					{
						displayName: 'Custom Zone',
						name: 'custom',
						type: 'string',
						default: '',
						placeholder: 'e.g. Europe/Madrid or -05:30',
						description:
							'An IANA time zone name, or an offset from UTC written +HH:MM or -HH:MM (minutes 00, 15, 30 or 45)',
						displayOptions: { show: { zone: ['custom'] } },
					},
				],
			},
		],
	},
];

const OFFSET = /^[+-](?:0\d|1[0-4]):(?:00|15|30|45)$/;
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

function isKnownZone(name: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}

/** The `timezone` query value for the chosen option; undefined for the service's default. */
export function readTimezone(
	this: IExecuteFunctions,
	choice: unknown,
	custom: unknown,
	itemIndex: number,
): string | undefined {
	// Version 1.1 stores { values: { zone, custom } }; version 1 the choice itself, the custom zone beside it.
	// Any other object is a wrong-typed value and is refused below as such.
	if (
		this.getNode().typeVersion >= 1.1 &&
		isObject(choice) &&
		Object.keys(choice).every((key) => key === 'values')
	) {
		const values = isObject(choice.values) ? choice.values : {};
		choice = values.zone;
		custom = values.custom;
	}
	const field = choice === 'custom' ? 'Custom Time Zone' : 'Time Zone';
	const zone = readOptionalText.call(this, choice === 'custom' ? custom : choice, field, itemIndex);
	if (choice === 'custom') {
		if (zone === undefined)
			throw invalidField.call(this, field, 'is required when the time zone is Custom', itemIndex);
	} else {
		if (zone === undefined || zone === 'default') return undefined;
		if (zone === 'workflow') return this.getTimezone();
	}
	if (OFFSET.test(zone)) return zone;
	if (!ZONE_NAME.test(zone) || !isKnownZone(zone)) {
		const expected = 'an IANA time zone like Europe/Berlin or an offset like +08:00 or -05:30';
		throw unexpectedValue.call(this, field, expected, zone, itemIndex);
	}
	return zone;
}
