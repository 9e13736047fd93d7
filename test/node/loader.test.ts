// The built package as n8n loads a community package: n8n-core's PackageDirectoryLoader on the package root.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE = 'n8n-nodes-content-marketing';

let loader: PackageDirectoryLoader;

beforeAll(async () => {
	loader = new PackageDirectoryLoader(ROOT);
	await loader.loadAll();
});

/** `icons/<package>/<path>` as the loader writes it, checked against the file system. */
function iconFile(iconUrl: unknown): string {
	expect(typeof iconUrl).toBe('string');
	const prefix = `icons/${PACKAGE}/`;
	expect(String(iconUrl).startsWith(prefix)).toBe(true);
	return path.join(ROOT, String(iconUrl).slice(prefix.length));
}

function expectThemedIcons(iconUrl: unknown): void {
	const { light, dark } = iconUrl as { light: string; dark: string };
	expect(light).not.toBe(dark);
	for (const file of [iconFile(light), iconFile(dark)]) {
		expect(existsSync(file)).toBe(true);
		expect(file.endsWith('.svg')).toBe(true);
	}
}

test('every file package.json lists exists', () => {
	const { n8n } = loader.packageJson;
	for (const file of [...(n8n?.nodes ?? []), ...(n8n?.credentials ?? [])]) {
		expect(existsSync(path.join(ROOT, file))).toBe(true);
	}
});

test('the nodes and the credential load under the package name', () => {
	expect(loader.packageName).toBe(PACKAGE);
	expect(Object.keys(loader.nodeTypes).sort()).toEqual([
		'contentMarketing',
		'contentMarketingTrigger',
		'contentTriggerMarketing',
	]);
	expect(Object.keys(loader.credentialTypes)).toEqual(['contentMarketingApi']);
	expect(loader.known.credentials.contentMarketingApi.supportedNodes?.sort()).toEqual([
		'contentMarketing',
		'contentMarketingTrigger',
		'contentTriggerMarketing',
	]);
});

/** The parameters each node is added with (its defaults for the default resource, operation and events). */
const ADDED_WITH: Record<string, unknown> = {
	contentMarketing: {
		resource: 'lead',
		operation: 'getAll',
		returnAll: false,
		limit: 50,
		simplify: true,
		filters: {},
		options: {},
	},
	contentMarketingTrigger: {
		reachabilityNotice: '',
		events: ['lead.created'],
		simple: true,
		options: {},
	},
	contentTriggerMarketing: {
		pollTimes: { item: [{ mode: 'everyMinute' }] },
		events: ['lead.created'],
		simple: true,
		options: {},
	},
};

test.each(['contentMarketing', 'contentMarketingTrigger', 'contentTriggerMarketing'])(
	'%s: icons, codex and parameters resolve',
	(name) => {
		const description = loader.nodeTypes[name].type.description as INodeTypeDescription;
		expectThemedIcons(description.iconUrl);
		expect(description.codex?.categories?.length).toBeGreaterThan(0);
		expect(description.codex?.resources?.primaryDocumentation?.[0]?.url).toMatch(/^https:\/\//);
		expect(description.codex?.resources?.credentialDocumentation?.[0]?.url).toMatch(/^https:\/\//);
		expect(description.credentials?.map((credential) => credential.name)).toEqual([
			'contentMarketingApi',
		]);
		// n8n resolves the defaults of every parameter as the editor does when the node is added.
		const parameters = NodeHelpers.getNodeParameters(
			description.properties,
			{},
			true,
			false,
			null,
			description,
		);
		expect(parameters).toEqual(ADDED_WITH[name]);
	},
);

test("n8n's node panel shows both triggers inside the one app, each event once", () => {
	// the rule of n8n's node panel (editor-ui useActionsGeneration): a trigger whose name without its first
	// "Trigger" is an app's name is listed among that app's actions
	const triggers = ['contentMarketingTrigger', 'contentTriggerMarketing'];
	for (const name of triggers) {
		expect(loader.nodeTypes[name].type.description.group).toContain('trigger');
		expect(name.replace('Trigger', '')).toBe('contentMarketing');
	}
	// the panel's label for an event: its action, else "On " and its name
	const labels = triggers.flatMap((name) => {
		const description = loader.nodeTypes[name].type.description as INodeTypeDescription;
		const events = description.properties.find((property) => property.displayName === 'Events');
		return (events?.options as Array<{ name: string; action?: string }>).map(
			(option) => option.action ?? `On ${option.name.toLowerCase()}`,
		);
	});
	expect(labels).toEqual([
		'On lead created',
		'On lead status updated',
		'On lead created (polling)',
		'On lead status updated (polling)',
	]);
});

test('the action node: usable as a tool, its load-options methods registered', () => {
	const { type } = loader.nodeTypes.contentMarketing;
	const description = type.description as INodeTypeDescription;
	expect(description.usableAsTool).toBe(true);
	// the category the issue and the codex docs name ("Marketing & Content"), for both nodes
	expect(description.codex?.categories).toEqual(['Marketing & Content']);
	expect(description.__loadOptionsMethods?.sort()).toEqual([
		'getAssignees',
		'getCtas',
		'getEventTypes',
		'getUsers',
	]);
	expect(
		Object.keys((type as { methods?: { listSearch?: object } }).methods?.listSearch ?? {}).sort(),
	).toEqual(['searchLeads', 'searchResources', 'searchWebhookEndpoints']);
	const resource = description.properties.find((property) => property.name === 'resource');
	expect(resource?.options?.map((option) => (option as { value: string }).value)).toEqual([
		'analytics',
		'contentResource',
		'lead',
		'webhookEndpoint',
	]);
});

test('every list search and load-options method a parameter names exists', () => {
	const { type } = loader.nodeTypes.contentMarketing;
	const methods =
		(type as { methods?: { listSearch?: object; loadOptions?: object } }).methods ?? {};
	const named = JSON.stringify((type.description as INodeTypeDescription).properties);
	for (const [, method] of named.matchAll(/"searchListMethod":"(\w+)"/g)) {
		expect(Object.keys(methods.listSearch ?? {})).toContain(method);
	}
	for (const [, method] of named.matchAll(/"loadOptionsMethod":"(\w+)"/g)) {
		expect(Object.keys(methods.loadOptions ?? {})).toContain(method);
	}
});

test('the credential: themed icons, documentation URL, authentication and a test request', () => {
	const credential = loader.credentialTypes.contentMarketingApi.type;
	expect(credential.displayName).toBe('Content Marketing API');
	expectThemedIcons(credential.iconUrl);
	expect(credential.documentationUrl).toMatch(/^https:\/\//);
	// a function, kept as an own property so n8n serves it to the editor (see credential.test.ts)
	expect(Object.keys(credential)).toContain('authenticate');
	expect(typeof credential.authenticate).toBe('function');
	expect(credential.test?.request.url).toBe('/v1/leads');
	const apiKey = credential.properties.find((property) => property.name === 'apiKey');
	expect(apiKey?.typeOptions?.password).toBe(true);
	const baseUrl = credential.properties.find((property) => property.name === 'baseUrl');
	expect(baseUrl?.default).toBe('https://api.content-marketing.example');
});
