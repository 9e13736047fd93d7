import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readInteger } from '../helpers/values';
import { DEFAULT_MAX_PARALLEL, MAX_PARALLEL_LIMIT } from '../transport/concurrency';

export const maxParallelRequestsField: INodeProperties = {
	displayName: 'Max Parallel Requests',
	name: 'maxParallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_LIMIT, numberPrecision: 0 },
	default: DEFAULT_MAX_PARALLEL,
	description:
		"The most requests for different items in flight at once. The node adapts the number to the service's answers (fewer after a rate limit or slow answers) and never exceeds this; 1 sends one request at a time.",
	hint: 'Matters with several input items: up to this many of their requests run at once',
};

/** On Get Many one item's pages are read one after another: the option only spreads several items' lists. */
const getManyField: INodeProperties = {
	...maxParallelRequestsField,
	hint: 'Matters only with several input items (one list each): the pages of one list are always read one after another',
};

type Show = NonNullable<IDisplayOptions['show']>;

function isOptionsCollection(property: INodeProperties): boolean {
	return property.name === 'options' && property.type === 'collection';
}

function shown(property: INodeProperties, key: string): string[] {
	const values = property.displayOptions?.show?.[key];
	return Array.isArray(values) ? values.map(String) : [];
}

function withField(collection: INodeProperties): INodeProperties {
	// Inserted at its alphabetical place; the order of the others is the operation's own.
	const options = [...((collection.options ?? []) as INodeProperties[])];
	const at = options.findIndex(
		(option) => option.displayName.localeCompare(maxParallelRequestsField.displayName) > 0,
	);
	const operations = shown(collection, 'operation');
	const onlyGetMany =
		operations.length > 0 && operations.every((operation) => operation === 'getAll');
	options.splice(
		at === -1 ? options.length : at,
		0,
		onlyGetMany ? getManyField : maxParallelRequestsField,
	);
	return { ...collection, options };
}

function collectionFor(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions,
		options: [maxParallelRequestsField],
	};
}

/**
 * Options › Max Parallel Requests on every operation (each runs its requests through the one item loop):
 * added to the operation's Options collection, or as a collection of its own where it has none. Where the
 * Options collection shows only under one more condition (e.g. uploads), a second one covers the rest.
 */
export function withMaxParallelRequests(properties: INodeProperties[]): INodeProperties[] {
	const result = properties.map((property) =>
		isOptionsCollection(property) ? withField(property) : property,
	);
	for (const selector of properties.filter((property) => property.name === 'operation')) {
		const resources = shown(selector, 'resource');
		for (const resource of resources) {
			const uncovered: string[] = [];
			for (const option of selector.options ?? []) {
				const operation = String((option as { value: unknown }).value);
				const collections = properties.filter(
					(property) =>
						isOptionsCollection(property) &&
						shown(property, 'resource').includes(resource) &&
						shown(property, 'operation').includes(operation),
				);
				if (collections.length === 0) uncovered.push(operation);
				for (const collection of collections) {
					const extra = Object.entries(collection.displayOptions?.show ?? {}).filter(
						([key]) => key !== 'resource' && key !== 'operation',
					);
					if (extra.length === 0 && collection.displayOptions?.hide === undefined) continue;
					if (extra.length !== 1 || collection.displayOptions?.hide !== undefined) {
						throw new Error(
							`The Options of ${resource} › ${operation} show under a condition Max Parallel Requests cannot mirror`,
						);
					}
					const show: Show = { resource: [resource], operation: [operation] };
					result.push(collectionFor({ show, hide: Object.fromEntries(extra) }));
				}
			}
			if (uncovered.length > 0)
				result.push(collectionFor({ show: { resource: [resource], operation: uncovered } }));
		}
	}
	return result;
}

/**
 * Options › Max Parallel Requests, read once (it cannot differ per item): the cap of the limit of requests
 * in flight. Operations without the option run with the default.
 */
export function readMaxParallel(this: IExecuteFunctions): number {
	const value = this.getNodeParameter(
		'options.maxParallelRequests',
		0,
		DEFAULT_MAX_PARALLEL,
	) as unknown;
	return readInteger.call(this, value, 'Max Parallel Requests', 0, {
		min: 1,
		max: MAX_PARALLEL_LIMIT,
	});
}
