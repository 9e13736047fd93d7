import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Canvas subtitles in the panel's words ("Get Many: Lead", "Lead Created") rather than the stored values
 * ("getAll: lead", "lead.created"): the subtitle is an expression over the raw parameters, so it looks
 * each value up in a table built from the options' display names (an unknown value shows as it is).
 */

function optionNames(property: INodeProperties | undefined): Record<string, string> {
	const names: Record<string, string> = {};
	for (const option of (property?.options ?? []) as INodePropertyOptions[])
		names[String(option.value)] = option.name;
	return names;
}

/** A table literal for an expression: flat, so that no `}}` closes the expression early. */
function table(names: Record<string, string>): string {
	return `(${JSON.stringify(names)})`;
}

/** "<Operation>: <Resource>" for a node with a Resource selector and one Operation selector per resource. */
export function operationSubtitle(properties: INodeProperties[]): string {
	const resources = optionNames(properties.find((property) => property.name === 'resource'));
	const operations: Record<string, string> = {};
	for (const selector of properties.filter((property) => property.name === 'operation')) {
		const shownFor = (selector.displayOptions?.show?.resource ?? []).map(String);
		for (const [value, name] of Object.entries(optionNames(selector)))
			for (const resource of shownFor) operations[`${resource}:${value}`] = name;
	}
	const resource = '$parameter["resource"]';
	const operation = '$parameter["operation"]';
	return (
		`={{ (${table(operations)}[${resource} + ":" + ${operation}] || ${operation}) + ": " + ` +
		`(${table(resources)}[${resource}] || ${resource}) }}`
	);
}

/** The chosen values of a multi-options parameter, by display name, comma-separated. */
export function multiOptionsSubtitle(property: INodeProperties): string {
	const value = `$parameter["${property.name}"]`;
	return `={{ ${value}.map((value) => ${table(optionNames(property))}[value] || value).join(", ") }}`;
}
