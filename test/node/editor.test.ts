// What n8n's editor does with the node descriptions, checked on the built package as n8n loads it: the
// parameter check the editor runs on every options field (packages/frontend ParameterInput.vue getIssues,
// on n8n-workflow's validateFieldType),
// the node panel's search (codex aliases) and its merged action + trigger entry, the trigger's notice.
import path from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

const ROOT = path.resolve(__dirname, '..', '..');

let loader: PackageDirectoryLoader;

beforeAll(async () => {
	loader = new PackageDirectoryLoader(ROOT);
	await loader.loadAll();
});

function description(name: string): INodeTypeDescription {
	return loader.nodeTypes[name].type.description as INodeTypeDescription;
}

/** Every parameter, inside collections and fixed collections too, with a readable path. */
function allParameters(
	properties: INodeProperties[],
	parent = '',
): Array<[string, INodeProperties]> {
	return properties.flatMap((property): Array<[string, INodeProperties]> => {
		const here: [string, INodeProperties] = [`${parent}${property.name}`, property];
		if (property.type === 'collection') {
			return [
				here,
				...allParameters(
					(property.options ?? []) as INodeProperties[],
					`${parent}${property.name}.`,
				),
			];
		}
		if (property.type === 'fixedCollection') {
			const groups = (property.options ?? []) as INodePropertyCollection[];
			return [
				here,
				...groups.flatMap((group) =>
					allParameters(group.values, `${parent}${property.name}.${group.name}.`),
				),
			];
		}
		return [here];
	});
}

/**
 * The editor's check of an options field (editor-ui ParameterInput.vue `getIssues`): a value that is not
 * one of the field's options is shown red, 'The value "<value>" is not supported!'. Whether a value is one
 * of the options is decided here by n8n-workflow's own `validateFieldType(…, 'options')`. The editor skips
 * a field that allows arbitrary values (editor-ui `shouldSkipParamValidation`, in no published package:
 * that one condition is the only rule written here), and a field whose options are loaded from the service
 * has none before they load. A field is added with its default, so the default must pass.
 */
function editorIssue(property: INodeProperties): string | undefined {
	if (property.type !== 'options' && property.type !== 'multiOptions') return undefined;
	if (property.allowArbitraryValues === true) return undefined;
	const valueOptions =
		property.typeOptions?.loadOptionsMethod !== undefined
			? []
			: ((property.options ?? []) as INodePropertyOptions[]);
	const defaults =
		property.type === 'multiOptions' ? (property.default as unknown[]) : [property.default];
	for (const value of defaults) {
		const result = validateFieldType(property.displayName, value, 'options', { valueOptions });
		if (!result.valid) return result.errorMessage;
	}
	return undefined;
}

test.each(['contentMarketing', 'contentMarketingTrigger'])(
	'%s: no options field is red the moment it is added',
	(name) => {
		const issues = allParameters(description(name).properties)
			.map(([where, property]) => [where, editorIssue(property)])
			.filter(([, issue]) => issue !== undefined);
		expect(issues).toEqual([]);
	},
);

test('Assigned To (Get Many filter, Update and Create or Update field) is loaded from the users and accepts the empty value it is added with', () => {
	const assignedTo = allParameters(description('contentMarketing').properties).filter(([where]) =>
		where.endsWith('.assigned_to'),
	);
	expect(assignedTo.map(([where]) => where).sort()).toEqual([
		'additionalFields.assigned_to',
		'filters.assigned_to',
		'updateFields.assigned_to',
	]);
	for (const [, property] of assignedTo) {
		expect(property.typeOptions?.loadOptionsMethod).toMatch(/^get(Users|Assignees)$/);
		expect(property.default).toBe('');
		expect(editorIssue(property)).toBeUndefined();
	}
});

test('analytics Time Zone (version 1.1): Custom shows its input right under the choice', () => {
	const timeZones = allParameters(description('contentMarketing').properties).filter(
		([where, property]) => where === 'options.timezone' && property.type === 'fixedCollection',
	);
	expect(timeZones.length).toBeGreaterThan(0);
	for (const [, property] of timeZones) {
		expect(property.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
		const [group] = property.options as INodePropertyCollection[];
		// under the option's "Time Zone" heading, as the editor shows it: not "Time Zone › Time Zone"
		expect(group.values.map((value) => value.displayName)).toEqual(['Zone', 'Custom Zone']);
		expect(group.values[1].displayOptions).toEqual({ show: { zone: ['custom'] } });
	}
	expect(description('contentMarketing').defaultVersion).toBe(1.1);
});

test('the node panel finds the nodes by what they do (codex aliases)', () => {
	const aliases = (name: string) =>
		(description(name).codex?.alias ?? []).map((alias) => alias.toLowerCase());
	for (const word of ['leads', 'create lead', 'funnel', 'crm', 'analytics'])
		expect(aliases('contentMarketing')).toContain(word);
	for (const word of ['leads', 'new lead', 'crm'])
		expect(aliases('contentMarketingTrigger')).toContain(word);
});

test("the panel's combined entry (it shows the trigger's description) describes the action node", () => {
	// n8n's node creator merges "X" and "X Trigger" into one entry and gives it the trigger's description.
	const sentence = description('contentMarketingTrigger').description;
	expect(sentence).not.toMatch(/^Starts the workflow/);
	for (const word of ['leads', 'content', 'analytics', 'webhooks', 'start workflows'])
		expect(sentence).toContain(word);
});

test('the webhook trigger says it needs a public HTTPS URL and points to the poll trigger otherwise', () => {
	const [notice] = description('contentMarketingTrigger').properties;
	expect(notice.type).toBe('notice');
	expect(notice.displayName).toContain('public HTTPS URL');
	expect(notice.displayName).toContain('WEBHOOK_URL');
	expect(notice.displayName).toContain('Content Marketing Poll Trigger');
});

test("every operation has a short action label, as n8n's own nodes, and the long text in its description", () => {
	// The action names a new node on the canvas ("Get many leads") and the expressions that reference it;
	// the description is what the operation list shows and what an agent reads about the tool.
	const operations = description('contentMarketing').properties.filter(
		(property) => property.name === 'operation',
	);
	const actions = operations.flatMap(
		(property) =>
			(property.options ?? []) as Array<{ name: string; action?: string; description?: string }>,
	);
	expect(actions.length).toBeGreaterThanOrEqual(25);
	for (const { action, description: text } of actions) {
		expect(action).toMatch(/^[A-Z][a-z]+ [^,;:()]+$/);
		expect(action!.length).toBeLessThanOrEqual(40);
		expect(text!.length).toBeGreaterThan(action!.length);
	}
	const getManyLeads = actions.find((option) => option.action === 'Get many leads');
	expect(getManyLeads?.description).toMatch(/filtered by e-mail, status.*sorted by score or date/);
});
