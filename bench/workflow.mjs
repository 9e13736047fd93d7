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

/**
 * The node under test for each scenario (or the chain of nodes, for what takes the HTTP Request node two):
 * our node, or n8n's HTTP Request node 4.2 with its defaults.
 */
function targets({ sandboxUrl, key, otherKey, probeUrl }) {
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
			...extra.parameters,
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
	const chains = {
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
		// Return All the way a user builds it without our node: cursor pagination, then one item per lead.
		'http-getall': [
			http('GET', `${sandboxUrl}/v1/leads`, undefined, {
				parameters: {
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [
										{ type: 'qs', name: 'cursor', value: '={{ $response.body.next_cursor }}' },
									],
								},
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !$response.body.next_cursor }}',
							},
						},
					},
				},
			}),
			{
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'data', options: {} },
			},
		],
	};
	// Figure D's memory runs: the same chain, then one call (Execute Once) to the bench's probe, which
	// reads n8n's memory while the run holds every lead (bench/memory-probe.cjs).
	const probe = {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		executeOnce: true,
		parameters: { method: 'POST', url: probeUrl, options: {} },
	};
	for (const name of ['node-getall', 'http-getall'])
		chains[`${name}-memory`] = [...[chains[name]].flat(), probe];
	return chains;
}

export function benchWorkflow(options) {
	const nodes = [];
	const connections = {};
	let y = 0;
	for (const [name, target] of Object.entries(targets(options))) {
		const hook = `Hook ${name}`;
		const split = `Split ${name}`;
		const single = name.includes('getall');
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
		const chain = [target].flat().map((node, i) => ({
			id: randomUUID(),
			name: i === 0 ? name : `${name} ${i + 1}`,
			position: [400 + 200 * i, y],
			...node,
		}));
		nodes.push(...chain);
		const names = [hook, split, ...chain.map((node) => node.name)];
		for (let i = 0; i + 1 < names.length; i++)
			connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
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
