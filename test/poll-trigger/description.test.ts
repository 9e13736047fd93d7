// The poll trigger as n8n loads it: a polling node (n8n adds Poll Times), with the webhook trigger's fields
// but not its notice about a public URL (the poll trigger needs none).
import path from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeTypeDescription } from 'n8n-workflow';

const ROOT = path.resolve(__dirname, '..', '..');

let nodeTypes: PackageDirectoryLoader['nodeTypes'];

beforeAll(async () => {
	const loader = new PackageDirectoryLoader(ROOT);
	await loader.loadAll();
	nodeTypes = loader.nodeTypes;
});

const describeNode = (name: string) => nodeTypes[name].type.description as INodeTypeDescription;

test('a polling trigger: n8n adds Poll Times before the fields it shares with the webhook trigger, without the public-URL notice', () => {
	const poll = describeNode('contentTriggerMarketing');
	const webhook = describeNode('contentMarketingTrigger');
	expect(poll.polling).toBe(true);
	expect(poll.group).toEqual(['trigger']);
	expect(poll.webhooks).toBeUndefined();
	expect(poll.displayName).toBe('Content Marketing Poll Trigger');
	const shared = webhook.properties.filter((p) => p.type !== 'notice');
	expect(webhook.properties.map((p) => p.name)).toEqual([
		'reachabilityNotice',
		...shared.map((p) => p.name),
	]);
	expect(poll.properties.map((property) => property.name)).toEqual([
		'pollTimes',
		...shared.map((p) => p.name),
	]);
	// the same fields; only the events' labels in n8n's node panel differ ("On lead created (polling)")
	const withoutActions = (properties: INodeTypeDescription['properties']) =>
		JSON.parse(JSON.stringify(properties).replace(/,"action":"[^"]*"/g, ''));
	expect(withoutActions(poll.properties.slice(1))).toEqual(shared);
	expect(poll.properties.some((p) => p.type === 'notice')).toBe(false);
	expect(webhook.properties.map((property) => property.name)).not.toContain('pollTimes');
	expect(poll.credentials).toEqual(webhook.credentials);
});
