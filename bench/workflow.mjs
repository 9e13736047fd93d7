// The benchmark workflow: one Webhook → Split Out → node chain per scenario (as users feed a node with a
// list), all in one workflow so that one publish makes every path live. The webhook answers when the
// last node is done, so the POST's duration is the run's duration.
import { randomUUID } from 'node:crypto';

export const CREDENTIAL = {
	id: 'cmBenchCredential1',
	name: 'Content Marketing bench',
	type: 'contentMarketingApi',
};
export const WORKFLOW_ID = 'cmBenchWorkflow001';
const NODE_TYPE = 'n8n-nodes-content-marketing.contentMarketing';

/** The node under test for each scenario: our node, or n8n's HTTP Request node 4.2 with its defaults. */
function targets({ sandboxUrl, key, otherKey }) {
	const http = (method, url, body, extra = {}) => ({
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method,
			url,
			sendHeaders: true,
			headerParameters: {
				parameters: [{ name: 'Authorization', value: `Bearer ${extra.key ?? key}` }],
			},
			...(body === undefined ? {} : { sendBody: true, specifyBody: 'json', jsonBody: body }),
			options: {},
		},
		...(extra.onError ? { onError: extra.onError } : {}),
	});
	const ours = (parameters, extra = {}) => ({
		type: NODE_TYPE,
		typeVersion: 1,
		parameters,
		credentials: { contentMarketingApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		...extra,
	});
	const lead = (expression) => ({ __rl: true, mode: 'id', value: expression });
	return {
		'node-create': ours({ resource: 'lead', operation: 'create', email: '={{ $json.email }}' }),
		'http-create': http(
			'POST',
			`${sandboxUrl}/v1/leads`,
			'={{ JSON.stringify({ email: $json.email }) }}',
		),
		// Under the rate limit the HTTP Request node's failures are counted, not fatal (On Error: Continue).
		'http-create-limited': http(
			'POST',
			`${sandboxUrl}/v1/leads`,
			'={{ JSON.stringify({ email: $json.email }) }}',
			{
				key: otherKey,
				onError: 'continueRegularOutput',
			},
		),
		'node-update': ours({
			resource: 'lead',
			operation: 'update',
			leadId: lead('={{ $json.id }}'),
			updateFields: { notes: 'bench' },
		}),
		'http-update': http(
			'PATCH',
			`=${sandboxUrl}/v1/leads/{{ $json.id }}`,
			'={{ JSON.stringify({ notes: "bench" }) }}',
		),
		'node-sync': ours({
			resource: 'lead',
			operation: 'syncManyToCrm',
			leadId: lead('={{ $json.id }}'),
		}),
		'http-sync': http('POST', `=${sandboxUrl}/v1/leads/{{ $json.id }}/sync-crm`),
		'node-getall': ours({ resource: 'lead', operation: 'getAll', returnAll: true }),
	};
}

export function benchWorkflow(options) {
	const nodes = [];
	const connections = {};
	let y = 0;
	for (const [name, target] of Object.entries(targets(options))) {
		const hook = `Hook ${name}`;
		const split = `Split ${name}`;
		const single = name === 'node-getall';
		nodes.push({
			id: randomUUID(),
			name: hook,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, y],
			webhookId: randomUUID(),
			parameters: {
				httpMethod: 'POST',
				path: `bench-${name}`,
				responseMode: 'lastNode',
				// Return All answers one lead (the run still holds them all); the others answer every item.
				responseData: single ? 'firstEntryJson' : 'allEntries',
				options: {},
			},
		});
		nodes.push({
			id: randomUUID(),
			name: split,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [200, y],
			parameters: { fieldToSplitOut: 'body.items', options: {} },
		});
		nodes.push({ id: randomUUID(), name, position: [400, y], ...target });
		connections[hook] = { main: [[{ node: split, type: 'main', index: 0 }]] };
		connections[split] = { main: [[{ node: name, type: 'main', index: 0 }]] };
		y += 200;
	}
	return {
		id: WORKFLOW_ID,
		name: 'Content Marketing benchmarks',
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
		pinData: {},
		versionId: randomUUID(),
		meta: {},
		tags: [],
	};
}
