// The workflows of the queue-mode check. The bulk and binary ones start from a Webhook node, so that
// their executions are queued and run on a worker (manual and CLI runs stay on the main).
import { CREDENTIALS } from '../examples.mjs';

const credentials = {
	contentMarketingApi: {
		id: CREDENTIALS.contentMarketing.id,
		name: CREDENTIALS.contentMarketing.name,
	},
};
const CM = 'n8n-nodes-content-marketing';

export const BULK_LEADS = 300;
/**
 * The burst beyond the key's limit: executions of one create each, and the sandbox's limit per window.
 * The window is shorter than the service's minute, as in the jest suites: the pace reads it from
 * X-RateLimit-Reset, and the burst waits one window for its last creates instead of a minute.
 */
export const KEY_BURST = { executions: 30, limit: 20, windowSeconds: 10 };
export const BINARY_BYTES = 20 * 1024 * 1024;
export const TRIGGER_WEBHOOK_ID = '7d6c4b1e-8f3a-4e29-9b0c-5a1d2e3f4a51';
/** The path of n8n's Webhook node that the fault scenario registers beside the trigger. */
export const WEBHOOK_NODE_PATH = 'queue-leads';

function webhookStart(path, webhookId) {
	return {
		id: `${path}-start`,
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

function workflow(id, name, nodes) {
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

export const WORKFLOW_IDS = {
	trigger: 'cmQueueTrigger0001',
	bulk: 'cmQueueBulkLeads01',
	binary: 'cmQueueBinaryUp001',
	webhookNode: 'cmQueueWebhookNd01',
	keyBurst: 'cmQueueKeyBurst01',
};

export function queueWorkflows({ fileUrl }) {
	return [
		workflow(WORKFLOW_IDS.trigger, 'Queue: new leads', [
			{
				id: 'queue-trigger',
				name: 'New Lead',
				type: `${CM}.contentMarketingTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId: TRIGGER_WEBHOOK_ID,
				parameters: { events: ['lead.created'], simple: true, options: {} },
				credentials,
			},
		]),
		workflow(WORKFLOW_IDS.webhookNode, "Queue: new leads through n8n's Webhook node", [
			webhookStart(WEBHOOK_NODE_PATH, '3b2c1d0e-9f8a-4b7c-a6d5-e4f3a2b1c0d9'),
			{
				id: 'queue-webhook-noop',
				name: 'No Op',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		]),
		workflow(WORKFLOW_IDS.bulk, 'Queue: bulk create', [
			webhookStart('queue-bulk', '1f0e2d3c-4b5a-4697-8877-665544332211'),
			{
				id: 'queue-bulk-rows',
				name: 'Rows',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					jsCode: `const run = $input.first().json.body.run;\nreturn Array.from({ length: ${BULK_LEADS} }, (_, i) => ({ json: { email: \`queue-\${run}-\${i}@example.com\` } }));`,
				},
			},
			{
				id: 'queue-bulk-create',
				name: 'Create Lead',
				type: `${CM}.contentMarketing`,
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'lead',
					operation: 'create',
					email: '={{ $json.email }}',
					additionalFields: { source_channel: 'import' },
				},
				credentials,
			},
		]),
		workflow(WORKFLOW_IDS.keyBurst, "Queue: one create per call, beyond the key's limit", [
			webhookStart('queue-key-burst', '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716'),
			{
				id: 'queue-key-burst-create',
				name: 'Create Lead',
				type: `${CM}.contentMarketing`,
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'lead', operation: 'create', email: '={{ $json.body.email }}' },
				credentials,
			},
		]),
		workflow(WORKFLOW_IDS.binary, 'Queue: binary upload', [
			webhookStart('queue-binary', '2a1b3c4d-5e6f-4071-8293-a4b5c6d7e8f9'),
			{
				id: 'queue-binary-download',
				name: 'Download',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [200, 0],
				parameters: {
					url: `${fileUrl}`,
					options: {
						response: { response: { responseFormat: 'file', outputPropertyName: 'data' } },
					},
				},
			},
			{
				id: 'queue-binary-create',
				name: 'Create Resource',
				type: `${CM}.contentMarketing`,
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'contentResource',
					operation: 'create',
					inputData: 'binary',
					binaryPropertyName: 'data',
					title: '={{ "queue upload " + $("Start").first().json.body.run }}',
					type: 'pdf',
					trackVisitors: true,
					additionalFields: {},
					options: { uploadLimit: 'free' },
				},
				credentials,
			},
		]),
	];
}
