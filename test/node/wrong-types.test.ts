// Every field of every operation, given a value of the wrong type by expression (as a mapped field or an
// AI agent's $fromAI can give it), is refused before anything is sent: the error names the field and the
// item, says what was expected and what was given, and the sandbox's request log stays empty. Every field
// of the node's description gets a case: derived (its label, a wrong value for its type, put into the
// operation's declared `example`), or from TABLE below where the description cannot tell (other wrong
// shapes, fields shown only with other values, node version 1, fixed collections).
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { ContentMarketing } from '../../nodes/ContentMarketing/ContentMarketing.node';
import { resources } from '../../nodes/ContentMarketing/actions/router';
import type { ExampleIds, ResourceName } from '../../nodes/ContentMarketing/actions/types';
import { checksOperation } from './checked-operation';
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

/** The analytics fields a derived case cannot reach: the dates (shown for a date range only), Period, the custom zone, version 1. */
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
		// Errors name the option the editor shows as the heading above "Zone" (timezone.ts).
		['options.timezone.values.zone', 'Time Zone', OBJECT],
		[
			'options.timezone.values.custom',
			'Custom Time Zone',
			OBJECT,
			(value) => ({ options: { timezone: { values: { zone: 'custom', custom: value } } } }),
		],
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

/**
 * The cases the description cannot give (every other field gets a derived one, see DERIVED): values of
 * other shapes than the derived ones (a list, a number), fields shown only with other values than the
 * example's (a file upload, a date range), custom-field pairs, labels other than the display name.
 */
const TABLE: Case[] = [
	...cases('lead.create', CREATE_LEAD, [
		['additionalFields.company', 'Company', LIST],
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
	...cases('lead.createOrUpdate', CREATE_LEAD, [
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
	...cases('lead.get', { leadId: LEAD }, [['simplify', 'Simplify', OBJECT]]),
	...cases('lead.getAll', {}, [
		['simplify', 'Simplify', NUMBER],
		['filters.source_channel', 'Source Channel', LIST],
		['options.order', 'Sort Order', NUMBER],
	]),
	...cases('lead.update', { leadId: LEAD, updateFields: { status: 'new' } }, [
		['leadId', 'Lead', NUMBER, locatorAt('leadId')],
	]),
	...cases('lead.update', { leadId: LEAD }, [
		['updateFields.customFieldsUi.field.key', 'Custom Fields', LIST, pairAt('updateFields', 'key')],
		[
			'updateFields.customFieldsUi.field.value',
			'Custom Fields',
			LIST,
			pairAt('updateFields', 'value'),
		],
		['updateFields.customFieldsJson', 'Custom Fields (JSON)', NUMBER],
	]),
	...cases('lead.syncManyToCrm', {}, [['leadId', 'Lead', LIST, locatorAt('leadId')]]),

	...cases('contentResource.create', FROM_FIELDS, [
		['type', 'Type', LIST],
		['additionalFields.tags', 'Tags', OBJECT_IN_LIST],
	]),
	...cases('contentResource.create', FROM_FILE, [
		['binaryPropertyName', 'Input Binary Field', OBJECT],
		['options.uploadLimit', 'Upload Size Limit', OBJECT],
	]),
	...cases('contentResource.getAll', {}, [
		['returnAll', 'Return All', OBJECT],
		['limit', 'Limit', OBJECT],
		['filters.q', 'Search', LIST],
		['filters.type', 'Type', NUMBER],
		['options.sort', 'Sort By', LIST],
	]),
	...cases('contentResource.update', { resourceId: RESOURCE, updateFields: { title: 'New' } }, [
		['resourceId', 'Content Resource', LIST, locatorAt('resourceId')],
	]),
	...cases('contentResource.update', { resourceId: RESOURCE }, [
		['updateFields.ctaId', 'CTA', LIST],
		['updateFields.description', 'Description', LIST],
		['updateFields.trackVisitors', 'Track Visitors', OBJECT],
	]),
	...cases(
		'contentResource.update',
		{ resourceId: RESOURCE, replaceFile: true, binaryPropertyName: 'data' },
		[
			['binaryPropertyName', 'Input Binary Field', LIST],
			['options.uploadLimit', 'Upload Size Limit', NUMBER],
		],
	),
	...cases('contentResource.publish', {}, [
		['resourceId', 'Content Resource', NUMBER, locatorAt('resourceId')],
	]),

	...analytics('getOverview'),
	...analytics('getResourceRanking'),
	...analytics('getResourceAnalytics', { resourceId: RESOURCE, granularity: 'day' }),
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
	...analytics('getFunnel'),

	...cases('webhookEndpoint.create', NEW_ENDPOINT, [
		['events', 'Events', OBJECT_IN_LIST],
		['additionalFields.active', 'Active', OBJECT],
		['additionalFields.description', 'Description', LIST],
	]),
	...cases('webhookEndpoint.getAll', {}, [
		['returnAll', 'Return All', NUMBER],
		['limit', 'Limit', LIST],
	]),
	...cases('webhookEndpoint.update', { webhookId: WEBHOOK, updateFields: { active: true } }, [
		['webhookId', 'Webhook Endpoint', LIST, locatorAt('webhookId')],
	]),
	...cases('webhookEndpoint.update', { webhookId: WEBHOOK }, [
		['updateFields.active', 'Active', LIST],
		['updateFields.events', 'Events', OBJECT],
		['updateFields.url', 'URL', LIST],
	]),
	...cases('webhookEndpoint.delete', {}, [
		['webhookId', 'Webhook Endpoint', NUMBER, locatorAt('webhookId')],
	]),
];

/** A field of an operation as the description declares it: where it sits, and how to put a value there. */
interface DescribedField {
	operation: string;
	path: string;
	property: INodeProperties;
	put: Case['put'];
}

/** Every parameter path of every operation, as the node's description declares them. */
function describedFields(): DescribedField[] {
	const fields: DescribedField[] = [];
	const add = (
		operation: string,
		path: string,
		property: INodeProperties,
		wrap: (value: unknown) => INodeParameters,
	) => {
		if (property.type === 'collection') {
			for (const option of property.options as INodeProperties[])
				add(operation, `${path}.${option.name}`, option, (value) =>
					wrap({ [option.name]: value } as INodeParameters),
				);
		} else if (property.type === 'fixedCollection') {
			const multiple = property.typeOptions?.multipleValues === true;
			for (const group of property.options as Array<{ name: string; values: INodeProperties[] }>) {
				for (const value of group.values)
					add(operation, `${path}.${group.name}.${value.name}`, value, (inner) => {
						const entry = { [value.name]: inner } as INodeParameters;
						return wrap({ [group.name]: multiple ? [entry] : entry } as INodeParameters);
					});
			}
		} else if (property.type !== 'notice') {
			const locator = property.type === 'resourceLocator';
			fields.push({
				operation,
				path,
				property,
				put: (value) => wrap(locator ? rl(value) : value),
			});
		}
	};
	for (const property of new ContentMarketing().description.properties) {
		const show = property.displayOptions?.show ?? {};
		for (const resource of (show.resource ?? []) as string[]) {
			for (const operation of (show.operation ?? []) as string[])
				add(`${resource}.${operation}`, property.name, property, (value) => ({
					[property.name]: value as string,
				}));
		}
	}
	return fields;
}

/** IDs in the services' format: a wrong-typed field is refused before any request, so none needs to exist. */
const FAKE_IDS: ExampleIds = {
	leadId: LEAD.value,
	leadToDeleteId: LEAD.value,
	userId: 'user_aaaaaaaaaaaaaaaa',
	ctaId: 'cta_aaaaaaaaaaaaaaaa',
	draftId: RESOURCE.value,
	toPublishId: RESOURCE.value,
	toArchiveId: RESOURCE.value,
	toDeleteId: RESOURCE.value,
	webhookId: WEBHOOK.value,
	webhookToDeleteId: WEBHOOK.value,
	receiverUrl: 'https://hooks.example.com',
};

/** The parameters of `resource.operation`'s declared example (the valid values around a derived case). */
function exampleOf(name: string): INodeParameters {
	const [resource, operation] = name.split('.');
	return resources[resource as ResourceName][operation].example.parameters(FAKE_IDS);
}

/**
 * Options › Max Parallel Requests is read once for the node (it cannot differ per item), so a wrong type
 * stops the node before any request, naming the field and item 0, whatever Continue On Fail says.
 */
const NODE_LEVEL_FIELD = 'options.maxParallelRequests';

/** A case for each described field TABLE leaves out: named by its label, given a value of another type. */
const DERIVED: Case[] = describedFields()
	.filter(
		({ operation, path }) =>
			path !== NODE_LEVEL_FIELD &&
			!TABLE.some((entry) => entry.operation === operation && entry.field === path),
	)
	.map(({ operation, path, property, put }) => ({
		operation,
		field: path,
		label: property.displayName.replace(/ Name or ID$/, ''),
		base: exampleOf(operation),
		put,
		wrong: property.type === 'number' || property.type === 'boolean' ? TEXT : OBJECT,
	}));

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

test.each(
	[...TABLE, ...DERIVED]
		.filter((entry) => checksOperation(entry.operation))
		.map((entry) => [entry.operation, entry.field, entry.wrong.shown, entry] as const),
)(
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

/** The operations that have Options › Max Parallel Requests (NODE_LEVEL_FIELD). */
const nodeLevelOperations = () =>
	describedFields()
		.filter((field) => field.path === NODE_LEVEL_FIELD)
		.map((field) => field.operation);

// (with CHECK_OPERATION, an operation without the option has no case here)
const NODE_LEVEL_CASES = nodeLevelOperations().filter(checksOperation);
if (NODE_LEVEL_CASES.length > 0)
	test.each(NODE_LEVEL_CASES)(
		'%s › options.maxParallelRequests: an object stops the node before any request',
		async (name) => {
			const [resource, operation] = name.split('.');
			const parameters = merge(
				{ resource, operation, ...exampleOf(name) },
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

test('every field of every operation has a case, and every case a field', () => {
	const described = describedFields().map((field) => `${field.operation} › ${field.path}`);
	const covered = new Set(
		[...TABLE, ...DERIVED].map((entry) => `${entry.operation} › ${entry.field}`),
	);
	for (const operation of nodeLevelOperations()) covered.add(`${operation} › ${NODE_LEVEL_FIELD}`);
	expect(described.filter((field) => !covered.has(field))).toEqual([]);
	expect([...covered].filter((field) => !described.includes(field))).toEqual([]);
	expect(covered.size).toBeGreaterThan(100);
});
