// AI agents: a published workflow with n8n's MCP Server Trigger and Content Marketing tool variants
// (`usableAsTool` makes n8n generate `contentMarketingTool`; each `$fromAI()` becomes a property of the
// tool's input schema), driven by an MCP client (@modelcontextprotocol/sdk, Streamable HTTP) the way an
// agent would: list the tools, call them, and compare every answer with the sandbox's own. Bad input
// comes back as a tool error that names the field, nothing is sent, and no answer holds the API key.
//
// The MCP SDK is the one the n8n under test ships (its MCP Server Trigger is built on it), not a
// devDependency: the SDK pulls pkce-challenge, whose dist/index.node.js n8n's custom loader would load
// when `npm run dev` links the project root into n8n (scripts/custom-loader-files.mjs).
import assert from 'node:assert/strict';

import { CREDENTIALS } from './examples.mjs';
import { n8nRequire } from './n8n.mjs';

const { Client } = n8nRequire('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = n8nRequire(
	'@modelcontextprotocol/sdk/client/streamableHttp.js',
);

export const MCP_WORKFLOW_ID = 'cmE2eMcpServerTools';
const MCP_PATH = 'content-marketing-e2e';
const TOOL_TYPE = 'n8n-nodes-content-marketing.contentMarketingTool';
const credentials = {
	contentMarketingApi: {
		id: CREDENTIALS.contentMarketing.id,
		name: CREDENTIALS.contentMarketing.name,
	},
};

/** Tool nodes as a user would set them up; the MCP tool name is the node name with `_` for spaces. */
const TOOLS = {
	createLead: {
		name: 'Create Lead',
		parameters: {
			resource: 'lead',
			operation: 'create',
			email: "={{ $fromAI('email', 'E-mail address of the new lead', 'string') }}",
			additionalFields: {
				name: "={{ $fromAI('name', 'Full name of the lead', 'string') }}",
				company: "={{ $fromAI('company', 'Company the lead works for', 'string') }}",
			},
		},
		inputs: ['company', 'email', 'name'],
	},
	hottestLeads: {
		name: 'Hottest Leads',
		parameters: {
			resource: 'lead',
			operation: 'getAll',
			limit: "={{ $fromAI('limit', 'How many leads to return, highest score first', 'number') }}",
			options: { sort: 'score', order: 'desc' },
		},
		inputs: ['limit'],
	},
	funnel: {
		name: 'Lead Funnel',
		parameters: {
			resource: 'analytics',
			operation: 'getFunnel',
			days: "={{ $fromAI('days', 'How many days back from today', 'number') }}",
		},
		inputs: ['days'],
	},
};

const mcpName = (nodeName) => nodeName.replace(/[^a-zA-Z0-9_-]/g, '_');

function mcpWorkflow() {
	const trigger = 'MCP Server Trigger';
	const tools = Object.values(TOOLS);
	return {
		id: MCP_WORKFLOW_ID,
		name: 'e2e: Content Marketing tools over MCP',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'e2e-mcp-trigger',
				name: trigger,
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: '5f0c1a52-7f1e-4d9e-9d61-3c1b8a0e2e01',
				parameters: { path: MCP_PATH },
			},
			...tools.map((tool, i) => ({
				id: `e2e-mcp-tool-${i}`,
				name: tool.name,
				type: TOOL_TYPE,
				typeVersion: 1,
				position: [-200 + i * 200, 240],
				parameters: tool.parameters,
				credentials,
			})),
		],
		connections: Object.fromEntries(
			tools.map((tool) => [
				tool.name,
				{ ai_tool: [[{ node: trigger, type: 'ai_tool', index: 0 }]] },
			]),
		),
	};
}

/** The JSON in a tool answer's text (n8n may encode it twice), or the text itself. */
function answerJson(result) {
	const text = result.content?.map((c) => c.text ?? '').join('\n') ?? '';
	let value = text;
	for (let i = 0; i < 2 && typeof value === 'string'; i++) {
		try {
			value = JSON.parse(value);
		} catch {
			break;
		}
	}
	return { text, value };
}

/** Items of a tool answer as plain objects: n8n returns the node's output items' JSON. */
function answerItems(value) {
	const list = Array.isArray(value) ? value : [value];
	return list.map((item) =>
		item && typeof item === 'object' && 'json' in item ? item.json : item,
	);
}

/** No answer may hold any of the sandbox's API keys. */
function assertNoKey(stack, label, text) {
	for (const [role, key] of Object.entries(stack.sandbox.keys)) {
		assert.ok(!text.includes(key), `${label}: the answer holds the ${role} API key`);
	}
}

/**
 * An MCP client session on the trigger's production URL. n8n 2.41 activates published workflows
 * in the background after start-up: until then the URL answers 404, so retry for a while.
 */
async function connect(n8n, { timeoutMs = 60_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const client = new Client({ name: 'n8n-nodes-content-marketing-e2e', version: '1.0.0' });
		try {
			await client.connect(
				new StreamableHTTPClientTransport(new URL(`${n8n.baseUrl}/mcp/${MCP_PATH}`)),
			);
			return client;
		} catch (error) {
			await client.close().catch(() => {});
			if (!/\b404\b/.test(String(error?.message)) || Date.now() > deadline) throw error;
			await new Promise((r) => setTimeout(r, 500));
		}
	}
}

async function call(stack, client, tool, args) {
	const result = await client.callTool({ name: mcpName(tool.name), arguments: args });
	const answer = answerJson(result);
	assertNoKey(stack, `${tool.name} ${JSON.stringify(args)}`, answer.text);
	return { ...answer, isError: result.isError === true };
}

async function listTools(stack, n8n) {
	const client = await connect(n8n);
	try {
		const { tools } = await client.listTools();
		assertNoKey(stack, 'tools/list', JSON.stringify(tools));
		const byName = new Map(tools.map((t) => [t.name, t]));
		for (const tool of Object.values(TOOLS)) {
			const listed = byName.get(mcpName(tool.name));
			assert.ok(
				listed,
				`tool ${mcpName(tool.name)} is listed; got ${[...byName.keys()].join(', ')}`,
			);
			assert.equal(typeof listed.description, 'string');
			assert.ok(listed.description.length > 0, `${listed.name} has a description`);
			const props = Object.keys(listed.inputSchema?.properties ?? {}).sort();
			assert.deepEqual(props, tool.inputs, `${listed.name}: one input per $fromAI()`);
		}
		assert.equal(tools.length, Object.keys(TOOLS).length, 'no other tool');
		return { detail: tools.map((t) => t.name).join(', ') };
	} finally {
		await client.close();
	}
}

async function callTools(stack, n8n) {
	const { client: sandbox } = stack.sandbox;
	const client = await connect(n8n);
	try {
		// Lead › Create: the lead the tool reports is the one the sandbox stores
		const email = `mcp.agent.${Date.now()}@acme-robotics.example`;
		const created = await call(stack, client, TOOLS.createLead, {
			email,
			name: 'Ada Agent',
			company: 'Acme Robotics',
		});
		assert.equal(created.isError, false, `Create Lead succeeded: ${created.text}`);
		const [lead] = answerItems(created.value);
		assert.match(
			lead?.id ?? '',
			/^lead_/,
			`Create Lead answers the new lead: ${created.text.slice(0, 300)}`,
		);
		const stored = await sandbox.api('GET', `/v1/leads/${lead.id}`);
		assert.deepEqual(
			[stored.email, stored.name, stored.company],
			[email, 'Ada Agent', 'Acme Robotics'],
			'the sandbox stored what the agent sent',
		);
		assert.equal(lead.email, stored.email);

		// Lead › Get Many sorted by score: the sandbox's highest scores, in order
		const hottest = await call(stack, client, TOOLS.hottestLeads, { limit: 3 });
		assert.equal(hottest.isError, false, `Hottest Leads succeeded: ${hottest.text}`);
		const expected = await sandbox.api('GET', '/v1/leads?sort=score&order=desc&limit=3');
		const got = answerItems(hottest.value);
		assert.deepEqual(
			got.map((l) => l.id),
			expected.data.map((l) => l.id),
			'the three highest scores, highest first',
		);
		assert.deepEqual(
			got.map((l) => l.score),
			expected.data.map((l) => l.score),
		);

		// Analytics › Get Funnel: every step's count and rate as the API computes them
		const funnel = await call(stack, client, TOOLS.funnel, { days: 30 });
		assert.equal(funnel.isError, false, `Lead Funnel succeeded: ${funnel.text}`);
		const [steps] = answerItems(funnel.value);
		const expectedFunnel = await sandbox.api('GET', '/v1/analytics/funnel?days=30');
		for (const { step, count, rate } of expectedFunnel.funnel_steps) {
			assert.deepEqual(
				[steps[`${step}_count`], steps[`${step}_rate`]],
				[count, rate],
				`funnel step ${step}`,
			);
		}
		return {
			detail: `${lead.id} created, ${got.length} hottest leads, ${expectedFunnel.funnel_steps.length} funnel steps, as the sandbox answers`,
		};
	} finally {
		await client.close();
	}
}

async function badInput(stack, n8n) {
	const { client: sandbox } = stack.sandbox;
	const client = await connect(n8n);
	try {
		const mark = (await sandbox.control('GET', '/_sandbox/requests')).length;
		const refused = await call(stack, client, TOOLS.createLead, {
			email: 'not-an-email',
			name: 'Bad Input',
			company: 'Nowhere',
		});
		assert.equal(refused.isError, true, `a malformed e-mail is a tool error: ${refused.text}`);
		assert.match(refused.text, /e-?mail/i, `the error names the field: ${refused.text}`);
		// (the published trigger example may still be syncing the lead created above: only creates count)
		const sent = (await sandbox.control('GET', '/_sandbox/requests'))
			.slice(mark)
			.filter((r) => r.method === 'POST' && r.path === '/v1/leads');
		assert.deepEqual(sent, [], 'no lead was sent to the service');
		return { detail: refused.text.split('\n')[0].slice(0, 160) };
	} finally {
		await client.close();
	}
}

/** The check as scripts/e2e/check.mjs runs it. */
export default {
	prepare: () => ({ workflows: [mcpWorkflow()] }),
	async publish({ step, publish }) {
		await step('MCP Server Trigger + Content Marketing tools: publish', async () => {
			await publish(MCP_WORKFLOW_ID);
			return { detail: MCP_WORKFLOW_ID };
		});
	},
	async whileRunning({ stack, step, n8n }) {
		await step('MCP client: the tool variants are listed with one input per $fromAI()', () =>
			listTools(stack, n8n),
		);
		await step('MCP client: create a lead, hottest leads, funnel = the sandbox', () =>
			callTools(stack, n8n),
		);
		await step('MCP client: a malformed e-mail is a clear tool error, no lead sent', () =>
			badInput(stack, n8n),
		);
	},
};
