// The Content Marketing Poll Trigger in a real n8n: a published workflow polling every 5 seconds (a custom
// cron with a seconds field; n8n 2.8.4 refuses only a `*` in that field), a lead created right after the
// activation poll, leads created and a status changed in the sandbox, exactly one execution per event, and
// after a restart of n8n no repeat, while the lead created during the downtime runs exactly once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIALS } from './examples.mjs';
import { executionData, runN8nOk, waitForExecutions } from './n8n.mjs';
import { startServer } from './check-trigger.mjs';
import { N8N_DIR, N8N_VERSION } from './install-n8n.mjs';

const WORKFLOW_ID = 'cmPollTriggerE2e01';
const TRIGGER = 'Poll Leads';
/** Every 5 seconds. */
const CRON = `${Array.from({ length: 12 }, (_, i) => i * 5).join(',')} * * * * *`;
/** The cron's interval. */
const POLL_MS = 5_000;
/** Longer than one poll interval: a poll that would repeat something has run by then. */
const SETTLE_MS = POLL_MS + 2_000;
/**
 * How long n8n's own work may take on this machine now (a poll and its execution, an activation): twice
 * the last measured start of n8n (the machine's speed under its current load), at least 30 s, as the load
 * changes after the start (the other release's check runs beside this one).
 */
let startMs = 0;
const workMs = () => Math.max(30_000, 2 * startMs);

const workflow = {
	id: WORKFLOW_ID,
	name: 'e2e: poll trigger',
	active: false,
	settings: { executionOrder: 'v1' },
	connections: { [TRIGGER]: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	nodes: [
		{
			id: 'b7d1c5e2-0d6c-4a51-9a3e-5f0c1a2b3c01',
			name: TRIGGER,
			type: 'n8n-nodes-content-marketing.contentTriggerMarketing',
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'custom', cronExpression: CRON }] },
				events: ['lead.created', 'lead.status_updated'],
			},
			credentials: {
				contentMarketingApi: {
					id: CREDENTIALS.contentMarketing.id,
					name: CREDENTIALS.contentMarketing.name,
				},
			},
		},
		{
			id: 'b7d1c5e2-0d6c-4a51-9a3e-5f0c1a2b3c02',
			name: 'Done',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [220, 0],
			parameters: {},
		},
	],
};

/** What one execution's trigger emitted: `event_type lead_id status`. */
async function emitted(stack, execution) {
	const { data } = await executionData(stack.userFolder, execution.id);
	return data.resultData.runData[TRIGGER][0].data.main[0].map(
		({ json }) => `${json.event_type} ${json.id} ${json.status}`,
	);
}

/** Resolves once the sandbox has seen `count` polls of the events list since `from` (log index). */
async function polled(stack, from, count, timeoutMs = count * POLL_MS + workMs()) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const log = (await stack.sandbox.client.control('GET', '/_sandbox/requests')).slice(from);
		if (log.filter((r) => r.path === '/v1/events').length >= count) return;
		if (Date.now() > deadline)
			throw new Error(`fewer than ${count} polls of /v1/events within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

const requestCount = async (stack) =>
	(await stack.sandbox.client.control('GET', '/_sandbox/requests')).length;

async function restart(stack, n8n, { whileDown, afterActivation } = {}) {
	await n8n.stop();
	await whileDown?.();
	const from = await requestCount(stack);
	const next = await startServer(stack);
	startMs = (await next.ready) * 1000;
	// the activation's first poll, then one scheduled poll: the cron runs
	await polled(stack, from, 1);
	await afterActivation?.();
	await polled(stack, from, 2);
	return next;
}

async function expectExecutions(stack, count, lines) {
	const executions = await waitForExecutions(stack.userFolder, WORKFLOW_ID, {
		count,
		mode: 'trigger',
		// the next poll, its execution stored
		timeoutMs: POLL_MS + workMs(),
		settleMs: SETTLE_MS,
	});
	if (executions.length !== count) {
		// each execution's events and the polls the sandbox answered: a repeat from a lost one
		const each = await Promise.all(
			executions.map(
				async (e) =>
					`${e.id} ${e.status} ${e.startedAt}: ${(await emitted(stack, e).catch((error) => [`(${error.message})`])).join(', ')}`,
			),
		);
		const polls = (await stack.sandbox.client.control('GET', '/_sandbox/requests'))
			.filter((r) => r.path === '/v1/events')
			.map((r) => `${r.at} ${r.status} ${JSON.stringify(r.query)}`);
		assert.equal(
			executions.length,
			count,
			`exactly ${count} poll executions (got ${executions.length}):\n  ${each.join('\n  ')}\npolls of /v1/events:\n  ${polls.slice(-12).join('\n  ')}`,
		);
	}
	assert.ok(
		executions.every((e) => e.status === 'success'),
		`all succeeded: ${JSON.stringify(executions)}`,
	);
	assert.deepEqual(
		await emitted(stack, executions[count - 1]),
		lines,
		`execution ${count} emitted one event`,
	);
	return executions;
}

/** Runs the poll trigger steps on the running n8n (which it restarts) and returns the n8n left running. */
export async function checkPollTrigger(stack, step, n8n) {
	const api = stack.sandbox.client;
	let current = await step(
		'poll trigger: publish the 5-second poll workflow, restart n8n, a lead right after the activation poll',
		async () => {
			await n8n.stop();
			const opts = { userFolder: stack.userFolder, env: stack.n8nEnv };
			await runN8nOk(['publish:workflow', `--id=${WORKFLOW_ID}`], opts);
			let early;
			const next = await restart(stack, n8n, {
				// between the activation poll and the first scheduled one (issue 22)
				afterActivation: async () => {
					early = await api.api('POST', '/v1/leads', {
						email: `e2e.poll.early.${Date.now()}@example.com`,
					});
				},
			});
			await expectExecutions(stack, 1, [`lead.created ${early.id} new`]);
			return Object.assign(next, {
				detail: `cron "${CRON}", no execution for earlier events; ${early.id} (created right after the activation poll) once`,
			});
		},
	);

	const lead = await step('poll trigger: a lead created -> one execution', async () => {
		const created = await api.api('POST', '/v1/leads', {
			email: `e2e.poll.${Date.now()}@example.com`,
		});
		await expectExecutions(stack, 2, [`lead.created ${created.id} new`]);
		return Object.assign(created, { detail: created.id });
	});

	await step('poll trigger: its status changed -> one more execution', async () => {
		await api.api('PATCH', `/v1/leads/${lead.id}`, { status: 'qualified' });
		await expectExecutions(stack, 3, [`lead.status_updated ${lead.id} qualified`]);
	});

	await step(
		'poll trigger: n8n restarted (a lead created while down) -> that lead once, nothing repeated',
		async () => {
			let during;
			current = await restart(stack, current, {
				whileDown: async () => {
					during = await api.api('POST', '/v1/leads', {
						email: `e2e.poll.down.${Date.now()}@example.com`,
					});
				},
			});
			await expectExecutions(stack, 4, [`lead.created ${during.id} new`]);
			return { detail: `${during.id} emitted once after the restart` };
		},
	);
	return current;
}

/**
 * Whether this n8n refuses polls more often than once a minute (n8n-workflow's isSubMinuteCron, in the
 * releases after 2.8.x). This check polls every 5 s; on those releases the poll trigger is checked with
 * *Every Minute* by check-poll-schedulers.mjs, in both scheduler modes side by side (check.mjs runs it
 * beside the releases' checks).
 */
function refusesSubMinutePolls() {
	const cron = path.join(N8N_DIR, 'node_modules', 'n8n-workflow', 'dist', 'cjs', 'cron.js');
	return fs.existsSync(cron) && fs.readFileSync(cron, 'utf8').includes('isSubMinuteCron');
}

export default {
	// Imported with the examples (one CLI command for all), unpublished until the poll check publishes it.
	prepare: () => (refusesSubMinutePolls() ? {} : { workflows: [workflow] }),
	async whileRunning(ctx) {
		if (refusesSubMinutePolls()) {
			await ctx.step('poll trigger: 5-second polls not run on this release', async () => ({
				detail: `n8n ${N8N_VERSION} refuses polls under a minute; check-poll-schedulers.mjs checks Every Minute under both schedulers`,
			}));
			return;
		}
		startMs = (await ctx.n8n.ready) * 1000;
		ctx.n8n = await checkPollTrigger(ctx.stack, ctx.step, ctx.n8n);
	},
};
