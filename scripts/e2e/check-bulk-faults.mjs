// Bulk Lead › Create in a real n8n while the service answers 429 to a share of the creates (the
// sandbox's fault injection): every lead exists exactly once afterwards (0 lost, 0 duplicated), the
// node's output has one item per input item in order, and the retries really happened. On n8n 2.41.3
// this is where the missing `sleepWithAbort` of n8n-workflow 2.41.0 failed every retry. Each lead also
// carries a custom field named `constructor`, which n8n 2.41's axios drops from an object body (the
// transport sends JSON as text; transport/jsonBody.ts).
import assert from 'node:assert/strict';

import { CREDENTIALS } from './examples.mjs';
import { nodeOutput } from './n8n.mjs';

const WORKFLOW_ID = 'cmBulkFaultsE2e001';
const CREATE = 'Create Leads';
/** Leads created in one execution. */
const LEADS = 200;
/**
 * Share of the creates answered 429 (Retry-After: 1): about 35 answers of 429 arrive, each waited out
 * (a create gives up only after 15 minutes of waiting for the key).
 */
const FAULTS = { rate_429: 0.15, methods: ['POST'], path_prefix: '/v1/leads', seed: 19 };

/** One tag per run: the check finds its own leads among the demo data and earlier runs'. */
const run = `storm${Date.now().toString(36)}`;
const emailOf = (i) => `${run}-${i}@example.com`;
const customFields = { constructor: 'kept', run };

const workflow = {
	id: WORKFLOW_ID,
	name: 'e2e: bulk create under a 429 storm',
	active: false,
	settings: { executionOrder: 'v1' },
	connections: {
		Start: { main: [[{ node: 'Leads', type: 'main', index: 0 }]] },
		Leads: { main: [[{ node: CREATE, type: 'main', index: 0 }]] },
	},
	nodes: [
		{
			id: 'c4e2a7d1-5b3f-4c60-8d9e-1f2a3b4c5d01',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'c4e2a7d1-5b3f-4c60-8d9e-1f2a3b4c5d02',
			name: 'Leads',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				jsCode: `return Array.from({ length: ${LEADS} }, (_, i) => ({ json: { email: '${run}-' + i + '@example.com' } }));`,
			},
		},
		{
			id: 'c4e2a7d1-5b3f-4c60-8d9e-1f2a3b4c5d03',
			name: CREATE,
			type: 'n8n-nodes-content-marketing.contentMarketing',
			typeVersion: 1,
			position: [440, 0],
			parameters: {
				resource: 'lead',
				operation: 'create',
				email: '={{ $json.email }}',
				additionalFields: {
					customFieldsUi: {
						field: Object.entries(customFields).map(([key, value]) => ({ key, value })),
					},
				},
			},
			credentials: {
				contentMarketingApi: {
					id: CREDENTIALS.contentMarketing.id,
					name: CREDENTIALS.contentMarketing.name,
				},
			},
		},
	],
};

/** Every lead of this run in the sandbox, through the list's cursor. */
async function leadsOfThisRun(client) {
	const leads = [];
	let cursor;
	do {
		const page = await client.api(
			'GET',
			`/v1/leads?q=${run}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		leads.push(...page.data);
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	return leads;
}

async function checkBulkCreateUnderStorm(stack, runWorkflow) {
	const { client } = stack.sandbox;
	const mark = (await client.control('GET', '/_sandbox/requests')).length;
	await client.control('PUT', '/_sandbox/faults', FAULTS);
	let result;
	try {
		({ run: result } = await runWorkflow(WORKFLOW_ID));
	} finally {
		await client.control('DELETE', '/_sandbox/faults');
	}
	assert.equal(result.status, 'success', `the execution ended with status ${result.status}`);

	const output = nodeOutput(result, CREATE).map((item) => item.json);
	assert.deepEqual(
		output.map((lead) => lead.email),
		Array.from({ length: LEADS }, (_, i) => emailOf(i)),
		`${CREATE}: one lead per input item, in input order`,
	);

	const stored = await leadsOfThisRun(client);
	const perEmail = new Map();
	for (const lead of stored) perEmail.set(lead.email, (perEmail.get(lead.email) ?? 0) + 1);
	const lost = Array.from({ length: LEADS }, (_, i) => emailOf(i)).filter((e) => !perEmail.has(e));
	const duplicated = [...perEmail].filter(([, count]) => count > 1).map(([email]) => email);
	assert.deepEqual(lost, [], `${lost.length} leads lost`);
	assert.deepEqual(duplicated, [], `${duplicated.length} leads created more than once`);
	assert.equal(stored.length, LEADS, `${stored.length} leads stored, expected ${LEADS}`);
	assert.deepEqual(
		new Set(output.map((lead) => lead.id)),
		new Set(stored.map((lead) => lead.id)),
		'the output names the stored leads',
	);
	const wrongFields = stored.filter(
		(lead) => JSON.stringify(lead.custom_fields) !== JSON.stringify(customFields),
	);
	assert.deepEqual(
		wrongFields.map((lead) => lead.custom_fields),
		[],
		`custom fields (a key named "constructor" included) kept on every lead`,
	);

	const creates = (await client.control('GET', '/_sandbox/requests'))
		.slice(mark)
		.filter((r) => r.method === 'POST' && r.path === '/v1/leads');
	const limited = creates.filter((r) => r.status === 429).length;
	const created = creates.filter((r) => r.status === 201).length;
	assert.ok(limited > 0, 'the storm answered 429 to some creates');
	assert.equal(created, LEADS, `${created} creates answered 201`);
	assert.equal(creates.length, created + limited, 'every create answered 201 or 429');
	return {
		detail: `${LEADS} leads, 0 lost, 0 duplicated, ${limited} answers of 429 retried (${creates.length} POST /v1/leads)`,
	};
}

export default {
	prepare: () => ({ workflows: [workflow] }),
	async manually({ stack, step, runWorkflow }) {
		await step(
			`bulk Lead › Create of ${LEADS} items under a 429 storm (${FAULTS.rate_429 * 100} % of creates): each lead once`,
			() => checkBulkCreateUnderStorm(stack, runWorkflow),
		);
	},
};
