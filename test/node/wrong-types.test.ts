// Every field of every operation, given a value of the wrong type by expression (as a mapped field or an
// AI agent's $fromAI can give it), is refused before anything is sent: the error names the field and the
// item, says what was expected and what was given, and the sandbox's request log stays empty. The table
// is checked against the node's own description, so a field added without a case here fails the test.
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { ContentMarketing } from '../../nodes/ContentMarketing/ContentMarketing.node';
import { jsonOf, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile();

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Wrong-typed values, each given by an expression, and how the error shows them. */
const OBJECT = { expression: '={{ {"first": "Ada"} }}', shown: 'an object {"first":"Ada"}' };
const LIST = { expression: '={{ ["a", "b"] }}', shown: 'a list ["a","b"]' };
const TEXT = { expression: '={{ "thirty" }}', shown: '"thirty"' };
const NUMBER = { expression: '={{ 42 }}', shown: '42' };
const OBJECT_IN_LIST = {
	expression: '={{ [{"name": "b2b"}] }}',
	shown: 'an object {"name":"b2b"}',
};
type Wrong = typeof OBJECT;

const LEAD = rl('lead_aaaaaaaaaaaaaaaa');
const RESOURCE = rl('res_aaaaaaaaaaaaaaaa');
const WEBHOOK = rl('wh_aaaaaaaaaaaaaaaa');

interface Case {
	/** `resource.operation`. */
	operation: string;
	/** The parameter's path in the node's description, e.g. `additionalFields.name`. */
	field: string;
	/** The name the error gives the field. */
	label: string;
	/** Valid parameters around the wrong one, which is put in by `put`. */
	base: INodeParameters;
	put: (value: string) => INodeParameters;
	wrong: Wrong;
	/** The node version the field exists in; the newest when not given. */
	typeVersion?: number;
}

const at =
	(path: string) =>
	(value: string): INodeParameters => {
		const [first, ...rest] = path.split('.');
		return rest.length === 0 ? { [first]: value } : { [first]: at(rest.join('.'))(value) };
	};
const locatorAt =
	(name: string) =>
	(value: string): INodeParameters => ({ [name]: rl(value) });
const pairAt =
	(collection: string, part: 'key' | 'value') =>
	(value: string): INodeParameters => ({
		[collection]: {
			customFieldsUi: {
				field: [part === 'key' ? { key: value, value: 'x' } : { key: 'plan', value }],
			},
		},
	});

function cases(
	operation: string,
	base: INodeParameters,
	entries: Array<[field: string, label: string, wrong: Wrong, put?: Case['put']]>,
	typeVersion?: number,
): Case[] {
	return entries.map(([field, label, wrong, put]) => ({
		operation,
		field,
		label,
		base,
		wrong,
		put: put ?? at(field),
		typeVersion,
	}));
}

const CREATE_LEAD = { email: 'ada@example.com' };
const PERIOD = { period: 'lastDays', days: 7 };
const RANGE = { period: 'range', startDate: '2026-11-01', endDate: '2026-11-02' };
const FROM_FIELDS = { inputData: 'fields', title: 'Guide', type: 'article', trackVisitors: true };
const FROM_FILE = {
	inputData: 'binary',
	title: 'Guide',
	type: 'pdf',
	trackVisitors: true,
	binaryPropertyName: 'data',
};
const NEW_ENDPOINT = { url: 'https://hooks.example.com/cm', events: ['lead.created'] };

const analytics = (
	operation: string,
	extra: INodeParameters = {},
	own: Array<[string, string, Wrong, Case['put']?]> = [],
): Case[] => [
	// Period given by expression: n8n cannot tell which fields it shows, so the required dates are set too.
	...cases(`analytics.${operation}`, { ...RANGE, days: 7, ...extra }, [
		['period', 'Period', OBJECT],
	]),
	...cases(`analytics.${operation}`, { ...PERIOD, ...extra }, [
		['days', 'Days', TEXT],
		[
			'options.timezone.values.zone',
			'Time Zone',
			OBJECT,
			(value) => ({ options: { timezone: { values: { zone: value } } } }),
		],
		[
			'options.timezone.values.custom',
			'Custom Time Zone',
			OBJECT,
			(value) => ({ options: { timezone: { values: { zone: 'custom', custom: value } } } }),
		],
		['simplify', 'Simplify', TEXT],
		...own,
	]),
	// Node version 1: Time Zone and Custom Time Zone are two options of their own.
	...cases(
		`analytics.${operation}`,
		{ ...PERIOD, ...extra },
		[
			['options.timezone', 'Time Zone', OBJECT],
			[
				'options.customTimezone',
				'Custom Time Zone',
				OBJECT,
				(value) => ({ options: { timezone: 'custom', customTimezone: value } }),
			],
		],
		1,
	),
	...cases(`analytics.${operation}`, { ...RANGE, ...extra }, [
		['startDate', 'Start Date', OBJECT],
		['endDate', 'End Date', NUMBER],
	]),
];

const TABLE: Case[] = [
	...cases('lead.create', CREATE_LEAD, [
		['email', 'Email', OBJECT],
		['additionalFields.name', 'Name', OBJECT],
		['additionalFields.company', 'Company', LIST],
		['additionalFields.job_title', 'Job Title', OBJECT],
		['additionalFields.source_channel', 'Source Channel', OBJECT],
		[
			'additionalFields.customFieldsUi.field.key',
			'Custom Fields',
			OBJECT,
			pairAt('additionalFields', 'key'),
		],
		[
			'additionalFields.customFieldsUi.field.value',
			'Custom Fields',
			OBJECT,
			pairAt('additionalFields', 'value'),
		],
		['additionalFields.customFieldsJson', 'Custom Fields (JSON)', LIST],
	]),
	...cases('lead.get', {}, [['leadId', 'Lead', OBJECT, locatorAt('leadId')]]),
	...cases('lead.get', { leadId: LEAD }, [['simplify', 'Simplify', OBJECT]]),
	...cases('lead.getAll', {}, [
		['returnAll', 'Return All', TEXT],
		['limit', 'Limit', TEXT],
		['simplify', 'Simplify', NUMBER],
		['filters.assigned_to', 'Assigned To', OBJECT],
		['filters.days', 'Created in the Last N Days', TEXT],
		['filters.q', 'Search', OBJECT],
		['filters.source_channel', 'Source Channel', LIST],
		['filters.source_resource_id', 'Source Resource ID', OBJECT],
		['filters.status', 'Status', OBJECT],
		['options.sort', 'Sort By', OBJECT],
		['options.order', 'Sort Order', NUMBER],
	]),
	...cases('lead.update', { leadId: LEAD, updateFields: { status: 'new' } }, [
		['leadId', 'Lead', NUMBER, locatorAt('leadId')],
	]),
	...cases('lead.update', { leadId: LEAD }, [
		['updateFields.assigned_to', 'Assigned To', OBJECT],
		['updateFields.customFieldsUi.field.key', 'Custom Fields', LIST, pairAt('updateFields', 'key')],
		[
			'updateFields.customFieldsUi.field.value',
			'Custom Fields',
			LIST,
			pairAt('updateFields', 'value'),
		],
		['updateFields.customFieldsJson', 'Custom Fields (JSON)', NUMBER],
		['updateFields.notes', 'Notes', OBJECT],
		['updateFields.status', 'Status', OBJECT],
	]),
	...cases('lead.syncToCrm', {}, [['leadId', 'Lead', OBJECT, locatorAt('leadId')]]),
	...cases('lead.syncManyToCrm', {}, [['leadId', 'Lead', LIST, locatorAt('leadId')]]),

	...cases('contentResource.create', FROM_FIELDS, [
		['inputData', 'Input Data', OBJECT],
		['title', 'Title', OBJECT],
		['type', 'Type', LIST],
		['trackVisitors', 'Track Visitors', TEXT],
		['additionalFields.ctaId', 'CTA', OBJECT],
		['additionalFields.description', 'Description', OBJECT],
		['additionalFields.tags', 'Tags', OBJECT_IN_LIST],
	]),
	...cases('contentResource.create', FROM_FILE, [
		['binaryPropertyName', 'Input Binary Field', OBJECT],
		['options.uploadLimit', 'Upload Size Limit', OBJECT],
	]),
	...cases('contentResource.get', {}, [
		['resourceId', 'Content Resource', OBJECT, locatorAt('resourceId')],
	]),
	...cases('contentResource.getAll', {}, [
		['returnAll', 'Return All', OBJECT],
		['limit', 'Limit', OBJECT],
		['filters.q', 'Search', LIST],
		['filters.status', 'Status', OBJECT],
		['filters.tag', 'Tag', OBJECT],
		['filters.type', 'Type', NUMBER],
		['options.sort', 'Sort By', LIST],
		['options.order', 'Sort Order', OBJECT],
	]),
	...cases('contentResource.update', { resourceId: RESOURCE, updateFields: { title: 'New' } }, [
		['resourceId', 'Content Resource', LIST, locatorAt('resourceId')],
		['replaceFile', 'Replace File', TEXT],
	]),
	...cases('contentResource.update', { resourceId: RESOURCE }, [
		['updateFields.ctaId', 'CTA', LIST],
		['updateFields.description', 'Description', LIST],
		['updateFields.tags', 'Tags', OBJECT],
		['updateFields.title', 'Title', OBJECT],
		['updateFields.trackVisitors', 'Track Visitors', OBJECT],
		['updateFields.type', 'Type', OBJECT],
	]),
	...cases(
		'contentResource.update',
		{ resourceId: RESOURCE, replaceFile: true, binaryPropertyName: 'data' },
		[
			['binaryPropertyName', 'Input Binary Field', LIST],
			['options.uploadLimit', 'Upload Size Limit', NUMBER],
		],
	),
	...cases('contentResource.delete', {}, [
		['resourceId', 'Content Resource', OBJECT, locatorAt('resourceId')],
	]),
	...cases('contentResource.publish', {}, [
		['resourceId', 'Content Resource', NUMBER, locatorAt('resourceId')],
	]),
	...cases('contentResource.archive', {}, [
		['resourceId', 'Content Resource', OBJECT, locatorAt('resourceId')],
	]),

	...analytics('getOverview', {}, [
		[
			'filters.resourceId',
			'Content Resource',
			OBJECT,
			(value) => ({ filters: { resourceId: rl(value) } }),
		],
	]),
	...analytics('getResourceRanking', {}, [
		['limit', 'Limit', TEXT],
		['options.sort', 'Rank By', OBJECT],
		['options.order', 'Order', OBJECT],
	]),
	...analytics('getResourceAnalytics', { resourceId: RESOURCE, granularity: 'day' }, [
		['resourceId', 'Content Resource', OBJECT, locatorAt('resourceId')],
		['granularity', 'Granularity', OBJECT],
	]),
	...analytics('getChannels', {}, [
		[
			'filters.resourceId',
			'Content Resource',
			LIST,
			(value) => ({ filters: { resourceId: rl(value) } }),
		],
	]),
	...analytics('getLeadTrend', { granularity: 'week' }, [
		['granularity', 'Granularity', LIST],
		[
			'filters.resourceId',
			'Content Resource',
			NUMBER,
			(value) => ({ filters: { resourceId: rl(value) } }),
		],
	]),
	...analytics('getFunnel', {}, [
		[
			'filters.resourceId',
			'Content Resource',
			OBJECT,
			(value) => ({ filters: { resourceId: rl(value) } }),
		],
	]),

	...cases('webhookEndpoint.create', NEW_ENDPOINT, [
		['url', 'URL', OBJECT],
		['events', 'Events', OBJECT_IN_LIST],
		['additionalFields.active', 'Active', OBJECT],
		['additionalFields.description', 'Description', LIST],
	]),
	...cases('webhookEndpoint.get', {}, [
		['webhookId', 'Webhook Endpoint', OBJECT, locatorAt('webhookId')],
	]),
	...cases('webhookEndpoint.getAll', {}, [
		['returnAll', 'Return All', NUMBER],
		['limit', 'Limit', LIST],
		['filters.active', 'Active', TEXT],
		['filters.event', 'Event', OBJECT],
		['filters.url', 'URL', OBJECT],
	]),
	...cases('webhookEndpoint.update', { webhookId: WEBHOOK, updateFields: { active: true } }, [
		['webhookId', 'Webhook Endpoint', LIST, locatorAt('webhookId')],
	]),
	...cases('webhookEndpoint.update', { webhookId: WEBHOOK }, [
		['updateFields.active', 'Active', LIST],
		['updateFields.description', 'Description', OBJECT],
		['updateFields.events', 'Events', OBJECT],
		['updateFields.url', 'URL', LIST],
	]),
	...cases('webhookEndpoint.delete', {}, [
		['webhookId', 'Webhook Endpoint', NUMBER, locatorAt('webhookId')],
	]),
	...cases('webhookEndpoint.sendTest', {}, [
		['webhookId', 'Webhook Endpoint', OBJECT, locatorAt('webhookId')],
	]),
];

/** Deep merge of parameter objects (the wrong value goes inside the base's collections). */
function merge(base: INodeParameters, extra: INodeParameters): INodeParameters {
	const result: INodeParameters = { ...base };
	for (const [key, value] of Object.entries(extra)) {
		const current = result[key];
		const mergeable = (v: unknown) =>
			typeof v === 'object' && v !== null && !Array.isArray(v) && !('__rl' in v);
		result[key] =
			mergeable(current) && mergeable(value)
				? merge(current as INodeParameters, value as INodeParameters)
				: value;
	}
	return result;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.each(TABLE.map((entry) => [entry.operation, entry.field, entry.wrong.shown, entry] as const))(
	'%s › %s: %s is refused for every item, before any request',
	async (_operation, _field, _shown, entry) => {
		const [resource, operation] = entry.operation.split('.');
		const parameters = merge(
			{ resource, operation, ...entry.base },
			entry.put(entry.wrong.expression),
		);
		const result = await bed.run(parameters, {
			continueOnFail: true,
			input: [{ json: {} }, { json: {} }],
			typeVersion: entry.typeVersion,
		});

		expect(result.error).toBeUndefined();
		const errors = jsonOf(result).map((json) => String(json.error));
		expect(errors).toHaveLength(2);
		errors.forEach((message, itemIndex) => {
			expect(message).toMatch(
				new RegExp(
					`^${escape(entry.label)}: .*got ${escape(entry.wrong.shown)} \\[item ${itemIndex}\\]$`,
				),
			);
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(await bed.requests()).toEqual([]);
	},
);

test('without Continue On Fail the node stops at the first item with a NodeOperationError naming it', async () => {
	const result = await bed.run(
		{
			resource: 'lead',
			operation: 'create',
			email: 'ada@example.com',
			additionalFields: { name: '={{ $json.name }}' },
		},
		{ input: [{ json: { name: { first: 'Ada' } } }, { json: { name: 'Ada' } }] },
	);
	expect(result.error?.name).toBe('NodeOperationError');
	expect(result.error?.message).toBe('Name: expected text, got an object {"first":"Ada"} [item 0]');
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(await bed.requests()).toEqual([]);
});

/** Every parameter path of every operation, as the node's description declares them. */
function describedFields(): Set<string> {
	const fields = new Set<string>();
	const add = (key: string, path: string, property: INodeProperties) => {
		if (property.type === 'collection') {
			for (const option of property.options as INodeProperties[])
				add(key, `${path}.${option.name}`, option);
		} else if (property.type === 'fixedCollection') {
			for (const group of property.options as Array<{ name: string; values: INodeProperties[] }>) {
				for (const value of group.values) add(key, `${path}.${group.name}.${value.name}`, value);
			}
		} else if (property.type !== 'notice') {
			fields.add(`${key} › ${path}`);
		}
	};
	for (const property of new ContentMarketing().description.properties) {
		const show = property.displayOptions?.show ?? {};
		for (const resource of (show.resource ?? []) as string[]) {
			for (const operation of (show.operation ?? []) as string[])
				add(`${resource}.${operation}`, property.name, property);
		}
	}
	return fields;
}

/**
 * Options › Max Parallel Requests is read once for the node (it cannot differ per item), so a wrong type
 * stops the node before any request, naming the field and item 0, whatever Continue On Fail says.
 */
const NODE_LEVEL_FIELD = 'options.maxParallelRequests';
const nodeLevelOperations = () =>
	[...describedFields()]
		.filter((field) => field.endsWith(` › ${NODE_LEVEL_FIELD}`))
		.map((field) => field.split(' › ')[0]);

test.each(nodeLevelOperations())(
	'%s › options.maxParallelRequests: an object stops the node before any request',
	async (name) => {
		const [resource, operation] = name.split('.');
		// The table's bases leave out the field each case puts in; the locators are the only such required fields.
		const locators = {
			lead: { leadId: LEAD },
			contentResource: { resourceId: RESOURCE },
			webhookEndpoint: { webhookId: WEBHOOK },
		};
		const base = {
			...(locators as Record<string, INodeParameters>)[resource],
			...TABLE.find((entry) => entry.operation === name)?.base,
		};
		const parameters = merge(
			{ resource, operation, ...base },
			{ options: { maxParallelRequests: OBJECT.expression } },
		);
		const result = await bed.run(parameters, {
			continueOnFail: true,
			input: [{ json: {} }, { json: {} }],
		});

		expect(result.error?.message).toBe(
			`Max Parallel Requests: expected a whole number from 1 to 200, got ${OBJECT.shown} [item 0]`,
		);
		expect(await bed.requests()).toEqual([]);
	},
);

test('the table covers every field of every operation', () => {
	const covered = new Set(TABLE.map((entry) => `${entry.operation} › ${entry.field}`));
	for (const operation of nodeLevelOperations()) covered.add(`${operation} › ${NODE_LEVEL_FIELD}`);
	const missing = [...describedFields()].filter((field) => !covered.has(field));
	expect(missing).toEqual([]);
	expect(covered.size).toBeGreaterThan(100);
});
