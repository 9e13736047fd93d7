import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	collectionLabels,
	readLimit,
	readSimplify,
	readSortOptions,
	returnAllOrLimit,
	simplifyField,
	sortOptions,
} from '../common.descriptions';
import { forEachItem } from '../itemLoop';
import { simplifyLead } from './simplifyLead';
import { readFilterCollection } from '../../helpers/collections';
import {
	assertEmail,
	assertEnum,
	assertId,
	assertSearchText,
	idExample,
} from '../../helpers/validation';
import { readInteger } from '../../helpers/values';
import { LEAD_SORT_FIELDS, LEAD_STATUSES, SOURCE_CHANNELS } from '../../helpers/vocabulary';
import { readInstant } from '../../helpers/dateTime';
import { apiRequestAllItems, apiScanItems } from '../../transport';
import { emailKey, hasEmail, searchTextFor } from './leadsByEmail';
import { sourceChannelOptions, statusOptions } from './fields';
import type { OperationExample } from '../types';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	simplifyField,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Assigned To Name or ID',
				name: 'assigned_to',
				type: 'options',
				// An empty value until a user is picked: without this n8n's editor marks the just-added field
				// red ("The value "" is not supported!"); the ID is still checked before any request.
				allowArbitraryValues: true,
				typeOptions: { loadOptionsMethod: 'getUsers' },
				default: '',
				description:
					'Only leads assigned to this user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Created in the Last N Days',
				name: 'days',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 365 },
				default: 30,
				description: 'Only leads created in this many recent days (1 to 365)',
			},
			{
				displayName: 'Created Since',
				name: 'createdSince',
				type: 'dateTime',
				default: '',
				description:
					'Only leads created at or after this time (in the workflow time zone unless the value has an offset, e.g. 2026-11-24T09:00:00+08:00). The service has no such filter, so the node filters while it reads: sorted by Created At (the default) it stops at the first older lead; sorted otherwise it reads every lead.',
			},
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				placeholder: 'e.g. name@example.com',
				description:
					'Only leads with exactly this e-mail (letter case and surrounding spaces aside). The service searches text, so the node keeps the exact matches among its results.',
			},
			{
				displayName: 'Search',
				name: 'q',
				type: 'string',
				default: '',
				placeholder: 'e.g. example.com',
				description:
					'Only leads whose e-mail, name or company contains this text (case-insensitive)',
			},
			{
				displayName: 'Source Channel',
				name: 'source_channel',
				type: 'options',
				options: sourceChannelOptions,
				default: 'api',
			},
			{
				displayName: 'Source Resource ID',
				name: 'source_resource_id',
				type: 'string',
				default: '',
				placeholder: `e.g. ${idExample('res')}`,
				description: 'Only leads that originated on this content resource',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: statusOptions,
				default: 'new',
			},
			{
				displayName: 'Updated Since',
				name: 'updatedSince',
				type: 'dateTime',
				default: '',
				description:
					'Only leads changed at or after this time (in the workflow time zone unless the value has an offset). The service keeps whole seconds, so a time within a second counts from the start of that second. The service has no such filter, so the node filters while it reads: sorted by Updated At it stops at the first older lead; sorted otherwise it reads every lead.',
			},
		],
	},
	sortOptions(
		[
			{ name: 'Created At', value: 'created_at' },
			{ name: 'Email', value: 'email' },
			{ name: 'Name', value: 'name' },
			{ name: 'Score', value: 'score' },
			{ name: 'Updated At', value: 'updated_at' },
		],
		'created_at',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['lead'], operation: ['getAll'] } },
	properties,
);

const FILTER_NAMES = collectionLabels(properties, 'filters');

/**
 * The query of GET /v1/leads (docs/api-contract.md §4) from the Filters and Options collections,
 * validated; a filter left empty in the editor is not set (`readFilterCollection`).
 */
function leadQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readFilterCollection.call(this, 'filters', FILTER_NAMES, itemIndex);
	const qs: IDataObject = readSortOptions.call(this, itemIndex, LEAD_SORT_FIELDS);
	if (filters.days !== undefined) {
		qs.days = readInteger.call(this, filters.days, FILTER_NAMES.days, itemIndex, {
			min: 1,
			max: 365,
		});
	}
	if (filters.status !== undefined)
		qs.status = assertEnum.call(
			this,
			filters.status,
			LEAD_STATUSES,
			FILTER_NAMES.status,
			itemIndex,
		);
	if (filters.source_channel !== undefined) {
		qs.source_channel = assertEnum.call(
			this,
			filters.source_channel,
			SOURCE_CHANNELS,
			FILTER_NAMES.source_channel,
			itemIndex,
		);
	}
	if (filters.source_resource_id !== undefined) {
		qs.source_resource_id = assertId.call(
			this,
			filters.source_resource_id,
			'res',
			FILTER_NAMES.source_resource_id,
			itemIndex,
		);
	}
	if (filters.assigned_to !== undefined) {
		qs.assigned_to = assertId.call(
			this,
			filters.assigned_to,
			'user',
			FILTER_NAMES.assigned_to,
			itemIndex,
		);
	}
	if (filters.q !== undefined)
		qs.q = assertSearchText.call(this, filters.q, FILTER_NAMES.q, itemIndex);
	return qs;
}

/** The filters the service lacks (docs/api-contract.md §4), applied by the node to each listed lead. */
interface NodeFilters {
	emailKey?: string;
	/** Search, lower case, when `q` carries the e-mail instead. */
	search?: string;
	createdSince?: number;
	updatedSince?: number;
}

/** Reads the node's own filters; the e-mail takes `q` (a Search then applies here, as the service would). */
function nodeFilters(
	this: IExecuteFunctions,
	qs: IDataObject,
	itemIndex: number,
): NodeFilters | undefined {
	const filters = readFilterCollection.call(this, 'filters', FILTER_NAMES, itemIndex);
	const result: NodeFilters = {};
	if (filters.email !== undefined) {
		const email = assertEmail.call(this, filters.email, FILTER_NAMES.email, itemIndex);
		result.emailKey = emailKey(email);
		if (typeof qs.q === 'string') result.search = qs.q.toLowerCase();
		qs.q = searchTextFor(email);
	}
	const zone = this.getTimezone();
	if (filters.createdSince !== undefined) {
		result.createdSince = readInstant.call(
			this,
			filters.createdSince,
			FILTER_NAMES.createdSince,
			itemIndex,
			zone,
		);
	}
	if (filters.updatedSince !== undefined) {
		// The service stores whole seconds: 09:00:00.500 must still take a lead changed at 09:00:00.900 (stored 09:00:00).
		const since = readInstant.call(
			this,
			filters.updatedSince,
			FILTER_NAMES.updatedSince,
			itemIndex,
			zone,
		);
		result.updatedSince = Math.floor(since / 1000) * 1000;
	}
	return Object.keys(result).length > 0 ? result : undefined;
}

function atOrAfter(value: unknown, since: number | undefined): boolean {
	return since === undefined || (typeof value === 'string' && Date.parse(value) >= since);
}

function passesNodeFilters(lead: IDataObject, filters: NodeFilters): boolean {
	if (filters.emailKey !== undefined && !hasEmail(lead, filters.emailKey)) return false;
	if (
		filters.search !== undefined &&
		![lead.email, lead.name, lead.company].some(
			(text) => typeof text === 'string' && text.toLowerCase().includes(filters.search as string),
		)
	)
		return false;
	return (
		atOrAfter(lead.created_at, filters.createdSince) &&
		atOrAfter(lead.updated_at, filters.updatedSince)
	);
}

/**
 * The leads of the query that pass the node's own filters. Sorted by the date a Since filter is on, the
 * list is read newest first and stops at the first lead before it (ascending: reversed at the end);
 * any other sort is read in its own order to the end or to the limit.
 */
async function filteredLeads(
	this: IExecuteFunctions,
	qs: IDataObject,
	filters: NodeFilters,
	options: { limit?: number; itemIndex: number; map?: (lead: IDataObject) => IDataObject },
): Promise<IDataObject[]> {
	const sort = typeof qs.sort === 'string' ? qs.sort : 'created_at';
	const order = typeof qs.order === 'string' ? qs.order : 'desc';
	const stopAt =
		sort === 'created_at' && filters.createdSince !== undefined
			? { field: 'created_at', since: filters.createdSince }
			: sort === 'updated_at' && filters.updatedSince !== undefined
				? { field: 'updated_at', since: filters.updatedSince }
				: undefined;
	const reverse = stopAt !== undefined && order === 'asc';
	const { limit, itemIndex, map } = options;
	const found: IDataObject[] = [];
	await apiScanItems.call(
		this,
		'/v1/leads',
		stopAt === undefined ? qs : { ...qs, sort: stopAt.field, order: 'desc' },
		(lead) => {
			if (stopAt !== undefined && !atOrAfter(lead[stopAt.field], stopAt.since)) return 'stop';
			if (!passesNodeFilters(lead, filters)) return 'continue';
			found.push(map ? map(lead) : lead);
			return !reverse && limit !== undefined && found.length >= limit ? 'stop' : 'continue';
		},
		{ itemIndex },
	);
	if (reverse) found.reverse();
	return limit === undefined ? found : found.slice(0, limit);
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, items, async (itemIndex) => {
		const qs = leadQuery.call(this, itemIndex);
		const filters = nodeFilters.call(this, qs, itemIndex);
		const limit = readLimit.call(this, itemIndex);
		const simplify = readSimplify.call(this, itemIndex);
		if (filters !== undefined) {
			return await filteredLeads.call(this, qs, filters, {
				limit,
				itemIndex,
				map: simplify ? simplifyLead : undefined,
			});
		}
		return await apiRequestAllItems.call(this, '/v1/leads', qs, {
			limit,
			itemIndex,
			map: simplify ? simplifyLead : undefined,
		});
	});
}

/** A call that succeeds against the sandbox's demo data: `npm run schemas` runs it for the output schema, the wrong-types test starts from it. */
export const example: OperationExample = {
	parameters: () => ({ limit: 20 }),
};
