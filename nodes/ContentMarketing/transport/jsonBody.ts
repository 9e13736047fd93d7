import type { IDataObject } from 'n8n-workflow';

/**
 * A JSON body as the text sent. Handing n8n the object instead would lose keys on n8n 2.41: its axios
 * (1.18 and later) merges the request config and skips the keys `constructor` and `prototype` at any
 * depth, so a custom field named `constructor` would vanish without an error. n8n sends no body for an
 * empty object; neither does this.
 */
export function jsonBody(body: IDataObject | IDataObject[] | undefined): string | undefined {
	if (body === undefined || Object.keys(body).length === 0) return undefined;
	return JSON.stringify(body);
}
