// new-lead-to-crm-and-email, live: published, `n8n start`, one endpoint registered in the sandbox,
// then leads created through the API start exactly one execution each; only company leads reach the
// CRM sync and the sales e-mail.
import assert from 'node:assert/strict';

import { findNode, readExample, WORKFLOWS } from './examples.mjs';
import { holdsJournalEntry, journalFingerprint } from './journal.mjs';
import {
	executionData,
	listExecutions,
	ownerCookie,
	queryDb,
	runN8nOk,
	startN8n,
	postWebhookServed,
	waitForExecutions,
} from './n8n.mjs';

const SETTLE_MS = 4_000;
const ACTIVATION_TIMEOUT_MS = 60_000;
const SALES = 'sales@example.com';

/** The URL n8n registers for the trigger node (fixed webhookId in the workflow JSON). */
export function triggerWebhookUrl(baseUrl) {
	const { webhookId } = findNode(readExample('newLead'), 'New Lead');
	return `${baseUrl}/webhook/${webhookId}/webhook`;
}

export async function publishTrigger(stack) {
	await runN8nOk(['publish:workflow', `--id=${WORKFLOWS.newLead.id}`], {
		userFolder: stack.userFolder,
		env: stack.n8nEnv,
	});
	return { detail: WORKFLOWS.newLead.id };
}

export async function startServer(stack, { port, onOutput } = {}) {
	const n8n = await startN8n({ userFolder: stack.userFolder, port, env: stack.n8nEnv, onOutput });
	stack.onClose(() => n8n.stop());
	const seconds = await n8n.ready;
	return Object.assign(n8n, { detail: `${n8n.baseUrl} ready in ${seconds.toFixed(1)} s` });
}

/** Exactly one endpoint for the trigger's URL, subscribed to lead.created, and no other endpoint. */
export async function checkEndpoint(stack, n8n) {
	const url = triggerWebhookUrl(n8n.baseUrl);
	// n8n 2.41 activates published workflows after "Editor is now accessible" (its publication
	// service runs in the background); 2.8.4 before it. Wait for the activation to reach the sandbox.
	const endpoints = async () =>
		(await stack.sandbox.client.api('GET', '/v1/webhooks?limit=100')).data;
	const deadline = Date.now() + ACTIVATION_TIMEOUT_MS;
	let all = await endpoints();
	while (!all.some((e) => e.url === url) && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 250));
		all = await endpoints();
	}
	const ours = all.filter((e) => e.url === url);
	assert.equal(
		ours.length,
		1,
		`one endpoint for ${url}; the sandbox has: ${JSON.stringify(all.map((e) => e.url))}`,
	);
	assert.equal(all.length, 1, 'no other endpoint registered');
	assert.deepEqual(ours[0].events, ['lead.created']);
	assert.equal(ours[0].active, true);
	return Object.assign(ours[0], { detail: `${ours[0].id} -> ${url}` });
}

async function deliveriesOf(stack, endpointId) {
	return (await stack.sandbox.client.control('GET', '/_sandbox/deliveries')).filter(
		(d) => d.endpoint_id === endpointId && d.type === 'lead.created',
	);
}

async function manualPushes(stack, leadId) {
	return (await stack.sandbox.client.control('GET', '/_sandbox/crm/pushes')).filter(
		(p) => p.lead_id === leadId && p.reason === 'manual',
	);
}

/** A company lead: one execution, one CRM sync, one e-mail to sales; one delivery, no retry. */
export async function checkCompanyLead(stack, endpoint) {
	const { userFolder } = stack;
	const lead = await stack.sandbox.client.api('POST', '/v1/leads', {
		email: `e2e.buyer.${Date.now()}@acme-robotics.example`,
		name: 'Erin Example',
		company: 'Acme Robotics',
		job_title: 'Head of Growth',
	});
	const executions = await waitForExecutions(userFolder, WORKFLOWS.newLead.id, {
		count: 1,
		mode: 'webhook',
		settleMs: SETTLE_MS,
	});
	assert.equal(
		executions.length,
		1,
		`exactly one execution after one lead.created (got ${executions.length})`,
	);
	assert.equal(executions[0].status, 'success', 'the execution succeeded');
	assert.equal(
		(await listExecutions(userFolder, WORKFLOWS.newLead.id)).length,
		1,
		'no execution of another mode',
	);

	const mail = await stack.smtp.waitFor((m) => m.envelope.to.includes(SALES), {
		label: 'sales e-mail',
	});
	assert.equal(stack.smtp.to(SALES).length, 1, 'exactly one sales e-mail');
	assert.equal(mail.subject, 'New lead: Erin Example (Acme Robotics)');
	const pushes = await manualPushes(stack, lead.id);
	assert.equal(pushes.length, 1, 'one CRM sync by the workflow');
	for (const line of [
		`E-mail: ${lead.email}`,
		`Lead ID: ${lead.id}`,
		`CRM record: hubspot ${pushes[0].crm_record_id}`,
	]) {
		assert.ok(
			mail.text.split('\n').some((l) => l.startsWith(line)),
			`sales e-mail holds "${line}"\n---\n${mail.text}`,
		);
	}

	const deliveries = await deliveriesOf(stack, endpoint.id);
	assert.equal(
		deliveries.length,
		1,
		`one delivery attempt; the answers: ${deliveries.map((d) => `${d.attempt}: ${d.status_code ?? d.error} ${d.response_excerpt ?? ''}`).join('; ')}`,
	);
	assert.equal(
		deliveries[0].ok,
		true,
		`the delivery was acknowledged: ${JSON.stringify(deliveries[0])}`,
	);
	// What a restarted n8n (or another webhook processor) de-duplicates a retry by: the event's entry
	// in the journal, saved with the workflow after n8n stored the execution and before the answer
	// (trigger/receiveDelivery.ts runOnceStored, eventJournal.ts, journal.mjs): on n8n 2.41 too, where storing
	// the execution resets static data's change mark.
	const print = journalFingerprint(deliveries[0].event_id);
	const [saved] = await queryDb(userFolder, 'SELECT staticData FROM workflow_entity WHERE id = ?', [
		WORKFLOWS.newLead.id,
	]);
	assert.ok(
		holdsJournalEntry(String(saved?.staticData), deliveries[0].event_id),
		`the journal saved with the workflow holds ${deliveries[0].event_id} (${print}): ${String(saved?.staticData).slice(0, 300)}`,
	);
	return {
		detail: `${lead.id}: 1 execution, CRM ${pushes[0].crm_record_id}, e-mail "${mail.subject}", journal saved`,
	};
}

/** A lead without a company: one more execution that stops at the filter; no sync, no e-mail. */
export async function checkFilteredLead(stack, endpoint) {
	const { userFolder } = stack;
	const lead = await stack.sandbox.client.api('POST', '/v1/leads', {
		email: `e2e.reader.${Date.now()}@mailbox.example`,
	});
	const executions = await waitForExecutions(userFolder, WORKFLOWS.newLead.id, {
		count: 2,
		mode: 'webhook',
		settleMs: SETTLE_MS,
	});
	assert.equal(
		executions.length,
		2,
		`exactly two executions after two leads (got ${executions.length})`,
	);
	assert.equal(executions[1].status, 'success');
	const { data } = await executionData(userFolder, executions[1].id);
	const ran = Object.keys(data.resultData.runData);
	assert.deepEqual(
		ran.sort(),
		['Company lead?', 'New Lead'],
		`the second execution stops at the filter (ran: ${ran.join(', ')})`,
	);
	const trigger = data.resultData.runData['New Lead'][0].data.main[0][0].json;
	assert.equal(trigger.id, lead.id, 'the trigger output is the new lead');
	assert.equal(trigger.event_type, 'lead.created');
	assert.equal((await manualPushes(stack, lead.id)).length, 0, 'no CRM sync for the filtered lead');
	assert.equal(stack.smtp.to(SALES).length, 1, 'still one sales e-mail');
	const deliveries = await deliveriesOf(stack, endpoint.id);
	assert.deepEqual(
		deliveries.map((d) => d.ok),
		[true, true],
		'two deliveries in all, both acknowledged at the first attempt',
	);
	return { detail: `${lead.id}: execution ${executions[1].id} stopped at "Company lead?"` };
}

/** The URL n8n registers for the trigger while the editor listens for a test event. */
export function triggerTestWebhookUrl(baseUrl) {
	const { webhookId } = findNode(readExample('newLead'), 'New Lead');
	return `${baseUrl}/webhook-test/${webhookId}/webhook`;
}

async function restJson(n8n, cookie, method, urlPath, body) {
	const res = await fetch(`${n8n.baseUrl}${urlPath}`, {
		method,
		headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
	return JSON.parse(text).data;
}

const sandboxEndpoints = async (stack) =>
	(await stack.sandbox.client.api('GET', '/v1/webhooks?limit=100')).data;

/**
 * "Listen for test event" as the editor does it: POST /rest/workflows/:id/run with the workflow and
 * `triggerToStartFrom` → n8n answers `waitingForWebhook` and registers the TEST webhook, which makes
 * the trigger create a second endpoint (…/webhook-test/…) next to the production one. One lead then
 * runs one `manual` execution (and one more production one); n8n releases the test webhook after
 * that call, so the trigger's delete removes the test endpoint again.
 */
export async function checkTestWebhook(stack, n8n, endpoint) {
	const { userFolder } = stack;
	const id = WORKFLOWS.newLead.id;
	const testUrl = triggerTestWebhookUrl(n8n.baseUrl);
	const cookie = await ownerCookie(n8n.baseUrl);
	const logStart = (await stack.sandbox.client.control('GET', '/_sandbox/requests')).length;
	const workflowData = await restJson(n8n, cookie, 'GET', `/rest/workflows/${id}`);
	const run = await restJson(n8n, cookie, 'POST', `/rest/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: 'New Lead' },
	});
	assert.deepEqual(run, { waitingForWebhook: true }, 'n8n waits for the test webhook');

	const listening = await sandboxEndpoints(stack);
	const urls = JSON.stringify(listening.map((e) => e.url));
	const test = listening.filter((e) => e.url === testUrl);
	assert.equal(test.length, 1, `one endpoint for ${testUrl}; the sandbox has: ${urls}`);
	assert.deepEqual(test[0].events, ['lead.created']);
	assert.equal(test[0].active, true);
	assert.deepEqual(
		listening.filter((e) => e.url !== testUrl).map((e) => e.id),
		[endpoint.id],
		`besides it only the production endpoint: ${urls}`,
	);

	const lead = await stack.sandbox.client.api('POST', '/v1/leads', {
		email: `e2e.tester.${Date.now()}@mailbox.example`,
	});
	const manual = await waitForExecutions(userFolder, id, {
		count: 1,
		mode: 'manual',
		settleMs: SETTLE_MS,
	});
	assert.equal(manual.length, 1, `exactly one test execution (got ${manual.length})`);
	assert.equal(manual[0].status, 'success', 'the test execution succeeded');
	const { data } = await executionData(userFolder, manual[0].id);
	const ran = Object.keys(data.resultData.runData);
	assert.deepEqual(
		ran.sort(),
		['Company lead?', 'New Lead'],
		`the test execution stops at the filter (ran: ${ran.join(', ')})`,
	);
	assert.equal(
		data.resultData.runData['New Lead'][0].data.main[0][0].json.id,
		lead.id,
		'the test execution got the new lead',
	);
	const live = await listExecutions(userFolder, id, { mode: 'webhook' });
	assert.equal(
		live.length,
		3,
		`the production webhook ran once more (got ${live.length} webhook executions in all)`,
	);
	assert.equal((await listExecutions(userFolder, id)).length, 4, 'no execution of another mode');
	const testDeliveries = await deliveriesOf(stack, test[0].id);
	assert.deepEqual(
		testDeliveries.map((d) => d.ok),
		[true],
		'one delivery to the test endpoint, acknowledged',
	);

	// n8n releases the test webhook after that call: the trigger's delete removes the test endpoint
	const deadline = Date.now() + 10_000;
	let after = await sandboxEndpoints(stack);
	while (after.some((e) => e.url === testUrl) && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 250));
		after = await sandboxEndpoints(stack);
	}
	assert.deepEqual(
		after.map((e) => e.id),
		[endpoint.id],
		`only the production endpoint is left: ${JSON.stringify(after.map((e) => e.url))}`,
	);
	// what the trigger called on the webhooks API meanwhile (our own listing uses only limit=100)
	const calls = (await stack.sandbox.client.control('GET', '/_sandbox/requests'))
		.slice(logStart)
		.filter(
			(r) => r.path.startsWith('/v1/webhooks') && !(r.method === 'GET' && r.query === 'limit=100'),
		)
		.map((r) => {
			const url = new URLSearchParams(r.query).get('url');
			return `${r.method} ${r.path.replace(test[0].id, '<test>')}${url === null ? '' : url === testUrl ? ' url=<test>' : ` url=${url}`} ${r.status}`;
		});
	assert.deepEqual(
		calls,
		[
			'GET /v1/webhooks url=<test> 200',
			'POST /v1/webhooks 201',
			'DELETE /v1/webhooks/<test> 200',
			'GET /v1/webhooks url=<test> 200',
		],
		'n8n called checkExists, create, then delete (which sweeps the URL once more)',
	);
	const released = await fetch(testUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	assert.equal(released.status, 404, 'the test webhook URL is released');
	return { detail: `${test[0].id} created and deleted, execution ${manual[0].id} (manual)` };
}

/** The check as scripts/e2e/check.mjs runs it: published before n8n starts, then driven live. */
export default {
	async publish({ step, publish, n8n }) {
		await step('new-lead-to-crm-and-email: publish', async () => {
			await publish(WORKFLOWS.newLead.id);
			// n8n 2.41 answers the Publish before its webhook route is live; an event sent meanwhile gets a
			// 404 and comes again with the service's retry, which the checks below would count.
			const url = triggerWebhookUrl(n8n.baseUrl);
			const deadline = Date.now() + ACTIVATION_TIMEOUT_MS;
			while (!(await postWebhookServed(url))) {
				if (Date.now() > deadline) throw new Error(`n8n serves no webhook at ${url}`);
				await new Promise((r) => setTimeout(r, 250));
			}
			return { detail: WORKFLOWS.newLead.id };
		});
	},
	async whileRunning({ stack, step, n8n }) {
		const endpoint = await step('one webhook endpoint registered in the sandbox', () =>
			checkEndpoint(stack, n8n),
		);
		await step('company lead -> 1 execution, CRM sync, sales e-mail', () =>
			checkCompanyLead(stack, endpoint),
		);
		await step('lead without company -> 1 execution, stopped by the filter', () =>
			checkFilteredLead(stack, endpoint),
		);
		await step('test webhook: listen, 1 manual execution, test endpoint deleted', () =>
			checkTestWebhook(stack, n8n, endpoint),
		);
	},
};
