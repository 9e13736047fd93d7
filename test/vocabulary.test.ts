// The nodes' wire vocabulary (nodes/ContentMarketing/helpers/vocabulary.ts) against the sandbox's own
// declarations, which implement docs/api-contract.md: a value added on one side and not the other fails
// here. The options the nodes offer in the editor are held to the same lists.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as nodes from '../nodes/ContentMarketing/helpers/vocabulary';
import { ContentMarketing } from '../nodes/ContentMarketing/ContentMarketing.node';
import { ContentMarketingTrigger } from '../nodes/ContentMarketing/ContentMarketingTrigger.node';
import { GRANULARITIES, RANKING_SORTS } from '../sandbox/src/behaviour/analytics-query';
import type { RankingSort } from '../sandbox/src/behaviour/analytics-reports';
import type { Granularity } from '../sandbox/src/behaviour/calendar';
import type { LeadStatus } from '../sandbox/src/behaviour/host';
import * as sandbox from '../sandbox/src/model';
import { LEAD_SORTS } from '../sandbox/src/lead-order';
import { RESOURCE_SORTS } from '../sandbox/src/routes/resources';
import { sortOrder } from '../sandbox/src/validation';

// The sandbox's behaviour engine declares some of these as types of its own: they must name the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesAgree: [
	Same<LeadStatus, nodes.LeadStatus>,
	Same<RankingSort, (typeof nodes.RANKING_SORT_FIELDS)[number]>,
	Same<Granularity, (typeof nodes.GRANULARITIES)[number]>,
] = [true, true, true];

const sorted = (values: readonly string[]) => [...values].sort();

test.each<[string, readonly string[], readonly string[]]>([
	['lead statuses', nodes.LEAD_STATUSES, sandbox.LEAD_STATUSES],
	['source channels', nodes.SOURCE_CHANNELS, sandbox.SOURCE_CHANNELS],
	['resource types', nodes.RESOURCE_TYPES, sandbox.RESOURCE_TYPES],
	['file types', nodes.FILE_TYPES, sandbox.FILE_TYPES],
	['resource statuses', nodes.RESOURCE_STATUSES, sandbox.RESOURCE_STATUSES],
	['lead sort fields', nodes.LEAD_SORT_FIELDS, LEAD_SORTS],
	['resource sort fields', nodes.RESOURCE_SORT_FIELDS, RESOURCE_SORTS],
	['sort orders', nodes.SORT_ORDERS, sortOrder.options],
	['ranking sort fields', nodes.RANKING_SORT_FIELDS, RANKING_SORTS],
	['granularities', nodes.GRANULARITIES, GRANULARITIES],
	['webhook event types', nodes.WEBHOOK_EVENT_TYPES, sandbox.WEBHOOK_EVENT_TYPES],
])('%s: the nodes declare what the sandbox declares', (_name, declared, inSandbox) => {
	expect(typesAgree).toEqual([true, true, true]);
	expect(sorted(declared)).toEqual(sorted(inSandbox));
	expect(new Set(declared).size).toBe(declared.length);
});

interface OptionList {
	/** The resource whose operations show the parameter ('' for the trigger). */
	resource: string;
	where: string;
	values: string[];
}

/** Every options/multiOptions parameter named `name`, at any depth, with where it is shown. */
function optionLists(properties: INodeProperties[], name: string): OptionList[] {
	const found: OptionList[] = [];
	const visit = (list: INodeProperties[], resource: string, where: string) => {
		for (const property of list) {
			const show = property.displayOptions?.show ?? {};
			const at = resource || String(show.resource ?? '');
			const path = where || `${at} › ${String(show.operation ?? '')}`;
			const options = (property.options ?? []) as Array<
				INodePropertyOptions | INodeProperties | { values?: INodeProperties[] }
			>;
			if (property.name === name && options.every((option) => 'value' in option)) {
				const values = (options as INodePropertyOptions[]).map((option) => String(option.value));
				found.push({ resource: at, where: `${path} › ${property.displayName}`, values });
			}
			for (const option of options) {
				if ('type' in option) visit([option], at, path);
				else if ('values' in option && Array.isArray(option.values)) visit(option.values, at, path);
			}
		}
	};
	visit(properties, '', '');
	return found;
}

const action = new ContentMarketing().description.properties;
const trigger = new ContentMarketingTrigger().description.properties;

test.each<[string, INodeProperties[], string, string, readonly string[], number]>([
	['lead status', action, 'status', 'lead', nodes.LEAD_STATUSES, 2],
	['resource status', action, 'status', 'contentResource', nodes.RESOURCE_STATUSES, 1],
	['source channel', action, 'source_channel', 'lead', nodes.SOURCE_CHANNELS, 2],
	['lead sort', action, 'sort', 'lead', nodes.LEAD_SORT_FIELDS, 1],
	['resource sort', action, 'sort', 'contentResource', nodes.RESOURCE_SORT_FIELDS, 1],
	['ranking sort', action, 'sort', 'analytics', nodes.RANKING_SORT_FIELDS, 1],
	['lead sort order', action, 'order', 'lead', nodes.SORT_ORDERS, 1],
	['resource sort order', action, 'order', 'contentResource', nodes.SORT_ORDERS, 1],
	['ranking order', action, 'order', 'analytics', nodes.SORT_ORDERS, 1],
	['granularity', action, 'granularity', 'analytics', nodes.GRANULARITIES, 2],
	['trigger status', trigger, 'statuses', '', nodes.LEAD_STATUSES, 1],
	['trigger event', trigger, 'events', '', nodes.WEBHOOK_EVENT_TYPES, 1],
])(
	'%s options list exactly the vocabulary',
	(_name, properties, name, resource, vocabulary, atLeast) => {
		const lists = optionLists(properties, name).filter((list) => list.resource === resource);
		expect(lists.length).toBeGreaterThanOrEqual(atLeast);
		for (const { where, values } of lists) {
			expect({ where, values: sorted(values) }).toEqual({ where, values: sorted(vocabulary) });
		}
	},
);

test('resource type options list exactly the resource types, or (where a file is uploaded) the file types', () => {
	const lists = optionLists(action, 'type').filter((list) => list.resource === 'contentResource');
	expect(lists.length).toBeGreaterThanOrEqual(4);
	for (const { where, values } of lists) {
		const expected = values.includes('article') ? nodes.RESOURCE_TYPES : nodes.FILE_TYPES;
		expect({ where, values: sorted(values) }).toEqual({ where, values: sorted(expected) });
	}
});
