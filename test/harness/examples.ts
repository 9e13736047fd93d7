import { readFileSync } from 'node:fs';
import path from 'node:path';

import { START_NODE_TYPE } from './core-nodes';
import { createHarness, type Harness } from './harness';
import type { WorkflowJson } from './workflow';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** The credential every workflow in examples/ refers to. */
export const EXAMPLE_CREDENTIAL = { id: 'cmExampleCred0001', name: 'Content Marketing account' };

/**
 * A harness that runs the workflows of examples/ that use only n8n's Manual Trigger and this package's
 * nodes: the Manual Trigger is the harness's start node (both emit one empty item), and the example
 * credential points at the given API.
 */
export async function createExampleHarness(api: { url: string; apiKey: string }): Promise<Harness> {
	const harness = await createHarness({ packageRoot: PROJECT_ROOT, credentials: {} });
	harness.addNodeType('n8n-nodes-base.manualTrigger', harness.nodeTypes.getByName(START_NODE_TYPE));
	harness.setCredentials(
		'contentMarketingApi',
		{ apiKey: api.apiKey, baseUrl: api.url },
		EXAMPLE_CREDENTIAL,
	);
	return harness;
}

export function readExample(fileName: string): WorkflowJson {
	return JSON.parse(
		readFileSync(path.join(PROJECT_ROOT, 'examples', fileName), 'utf8'),
	) as WorkflowJson;
}
