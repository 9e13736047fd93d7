// The poll trigger as n8n loads it: a polling node (n8n adds Poll Times), with the webhook trigger's fields.
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

test('a polling trigger: n8n adds Poll Times before the fields of the webhook trigger, which it shares', () => {
	const poll = describeNode('contentMarketingPollTrigger');
	const webhook = describeNode('contentMarketingTrigger');
	expect(poll.polling).toBe(true);
	expect(poll.group).toEqual(['trigger']);
	expect(poll.webhooks).toBeUndefined();
	expect(poll.displayName).toBe('Content Marketing Poll Trigger');
	expect(poll.properties.map((property) => property.name)).toEqual([
		'pollTimes',
		...webhook.properties.map((p) => p.name),
	]);
	expect(poll.properties.slice(1)).toEqual(webhook.properties);
	expect(webhook.properties.map((property) => property.name)).not.toContain('pollTimes');
	expect(poll.credentials).toEqual(webhook.credentials);
});
