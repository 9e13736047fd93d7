import type { IExecuteFunctions } from 'n8n-workflow';

import type { IdPrefix } from './validation';
import { assertId } from './validation';

/**
 * The ID chosen in a resource locator parameter (From List, By ID or By URL), validated against its prefix.
 * A plain string value (e.g. set by an AI agent or an older workflow) is read as an ID too.
 */
export function getLocatorId(
	this: IExecuteFunctions,
	parameter: string,
	itemIndex: number,
	prefix: IdPrefix,
	field: string,
): string {
	const value = this.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as unknown;
	const id = typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
	return assertId.call(this, id, prefix, field, itemIndex);
}
