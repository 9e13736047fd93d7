// Figure G of `npm run bench` (alone: `npm run bench -- --only=G`): what a lead sync costs in calls and
// time, in the n8n of figures A to D (run.mjs) with the sandbox's rate limit on and no added latency.
// Lead › Create or Update with the row's status, as a nightly re-import maps it:
//   a) 10,000 rows into an account that holds those leads, 1 % with a changed status (600/min);
//   b) 10 rows, 5 of them new, into an account of 100,000 leads (600/min);
//   c) 2,000 new rows into an empty account (3,000/min).
// Each is run again under the sandbox's 429s, 500s and dropped connections, and the leads are counted
// per e-mail: one each (0 duplicates), every row's lead there with the row's status (0 lost).
// Then, each once, the key at its limit (600/min):
//   d) more calls than a minute allows: a re-import of 10,000 with 10 % changed (1,100 calls);
//   e) a neighbour on the same key taking 540 of the 600 a minute during a re-import of 10,000 unchanged rows;
//   f) leads made during the pass: 10,000 known and 500 new rows, pages answered in 250 ms, and 100 of the
//      new e-mails made elsewhere (through the API) during the first 20 s.
// BENCH_G_CASES=a,b,c,d,e,f runs a subset (default all).
import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { idle } from './idle.mjs';

const SYNC = 'node-sync';
const FAULTS = { rate_429: 0.01, rate_500: 0.05, drop_rate: 0.05, seed: 37 };
const STATUSES = ['new', 'contacted', 'qualified', 'converted', 'lost'];

const emailKey = (email) => String(email).trim().toLowerCase();
const CASES = new Set((process.env.BENCH_G_CASES ?? 'a,b,c,d,e,f').toLowerCase().split(','));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bench workflow with G's chain: a copy of the Lead › Create chain as Create or Update with the row's status. */
export function withSyncChain(workflow) {
	const nodes = [...workflow.nodes];
	const y = Math.max(...nodes.map((node) => node.position[1])) + 200;
	const copy = (from, to, changes = {}) => {
		const node = structuredClone(workflow.nodes.find((n) => n.name === from));
		Object.assign(node, { id: randomUUID(), name: to, position: [node.position[0], y] }, changes);
		nodes.push(node);
		return node;
	};
	copy('Hook node-create', `Hook ${SYNC}`, { webhookId: randomUUID() }).parameters.path =
		`bench-${SYNC}`;
	copy('Split node-create', `Split ${SYNC}`);
	copy('node-create', SYNC, {
		// A failed item shows as an error item (counted) instead of stopping the run.
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'lead',
			operation: 'createOrUpdate',
			email: '={{ $json.email }}',
			additionalFields: { status: '={{ $json.status }}' },
		},
	});
	return {
		...workflow,
		nodes,
		connections: {
			...workflow.connections,
			[`Hook ${SYNC}`]: { main: [[{ node: `Split ${SYNC}`, type: 'main', index: 0 }]] },
			[`Split ${SYNC}`]: { main: [[{ node: SYNC, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * The node's requests to the leads (a neighbour's and the bench's own are left out by `mine`) by kind:
 * list pages (GET without q), look-ups (GET with q), writes; `accepted` are those not answered 429.
 */
function callsOf(requests, mine = () => true) {
	const own = requests.filter((r) => r.path.startsWith('/v1/leads') && mine(r));
	const gets = own.filter((r) => r.method === 'GET');
	const lookups = gets.filter((r) => /(^|&)q=/.test(r.query ?? '')).length;
	const refused = own.filter((r) => r.status === 429).length;
	return {
		total: own.length,
		accepted: own.length - refused,
		pages: gets.length - lookups,
		lookups,
		writes: own.length - gets.length,
		refused,
	};
}

/**
 * Figure G in the running bench n8n. `hook(name, items)` posts to a chain's webhook, `control` calls
 * /_sandbox, `allLeads()` reads every lead through the API (with the limit off), `pid` is n8n's process.
 */
export async function figureG({ log, row, hook, control, allLeads, pid, sandboxUrl, apiKey }) {
	const cores = os.availableParallelism();
	log(
		`G. Lead sync cost: Lead › Create or Update with the row's status, real n8n, sandbox rate limit on, 0 ms added latency, ${cores} cores`,
	);
	/** An empty sandbox with `leads` seeded (no rate limit while the bench reads them), then the limit on. */
	const prepare = async (leads, seed) => {
		await control('POST', '/_sandbox/reset');
		await control('PATCH', '/_sandbox/config', { rate_limit: null });
		await control('DELETE', '/_sandbox/faults');
		if (leads > 0) await control('POST', '/_sandbox/seed', { seed, leads });
		return leads > 0 ? await allLeads() : [];
	};

	/** Runs `rows` through the node and checks the store: one lead per e-mail, each with its row's status. */
	const run = async ({ rows, limit, faults, before, alongside, mine }) => {
		await control('PATCH', '/_sandbox/config', {
			rate_limit: { requests: limit, window_seconds: 60 },
		});
		if (faults) await control('PUT', '/_sandbox/faults', faults);
		await control('DELETE', '/_sandbox/requests');
		await idle(pid);
		const running = hook(SYNC, rows);
		// Another client of the account while the node runs (a neighbour on the key, leads made elsewhere).
		const others = alongside?.(running);
		const { ms, body } = await running;
		await others;
		await control('DELETE', '/_sandbox/faults');
		const calls = callsOf(await control('GET', '/_sandbox/requests'), mine);
		await control('PATCH', '/_sandbox/config', { rate_limit: null });
		const after = await allLeads();
		const counts = new Map();
		for (const lead of after)
			counts.set(emailKey(lead.email), (counts.get(emailKey(lead.email)) ?? 0) + 1);
		const beforeCounts = new Map();
		for (const lead of before)
			beforeCounts.set(emailKey(lead.email), (beforeCounts.get(emailKey(lead.email)) ?? 0) + 1);
		const byEmail = new Map(after.map((lead) => [emailKey(lead.email), lead]));
		let duplicates = 0;
		let lost = 0;
		for (const row of rows) {
			const key = emailKey(row.email);
			const count = counts.get(key) ?? 0;
			duplicates += Math.max(0, count - Math.max(1, beforeCounts.get(key) ?? 0));
			if (count === 0 || (count === 1 && byEmail.get(key).status !== row.status)) lost++;
		}
		const outcomes = {};
		let errors = 0;
		for (const item of Array.isArray(body) ? body : []) {
			if (item.error !== undefined) errors++;
			else outcomes[item.outcome] = (outcomes[item.outcome] ?? 0) + 1;
		}
		return {
			ms,
			calls,
			duplicates,
			lost,
			errors,
			outcomes,
			items: Array.isArray(body) ? body.length : 0,
		};
	};

	const report = (label, rowsCount, limit, result, targets) => {
		const { ms, calls } = result;
		// The fewest seconds the limit allows for the calls it accepted: at its steady rate, and from an empty
		// rolling window (a minute's allowance at once, then the steady rate).
		const minimum = (calls.accepted / limit) * 60;
		const fromEmpty = (Math.max(0, calls.accepted - limit) / limit) * 60;
		log(
			`  G ${label}: ${(ms / 1000).toFixed(1)} s, ${calls.total} calls (${(calls.total / rowsCount).toFixed(3)} per row: ${calls.pages} list pages, ${calls.lookups} look-ups, ${calls.writes} writes, ${calls.refused} answered 429, ${calls.accepted} accepted), the limit's minimum for the accepted ${minimum.toFixed(1)} s at ${limit}/min (${fromEmpty.toFixed(1)} s from an empty window); outcomes ${JSON.stringify(result.outcomes)}, ${result.errors} error items, ${result.duplicates} duplicates, ${result.lost} lost`,
		);
		for (const [figure, measured, target, met] of targets(result, minimum))
			row(`G ${label} ${figure}`, measured, target, met);
	};

	// a) The nightly re-import: 10,000 leads the account holds, 1 % with a changed status.
	const reimportRows = (leads) =>
		leads.map((lead, index) => ({
			email: lead.email,
			status:
				index % 100 === 0
					? STATUSES[(STATUSES.indexOf(lead.status) + 1) % STATUSES.length]
					: lead.status,
		}));
	for (const faults of CASES.has('a') ? [undefined, FAULTS] : []) {
		const before = await prepare(10_000, 41);
		const rows = reimportRows(before);
		const result = await run({ rows, limit: 600, faults, before });
		const label = `a) re-import 10,000 (1 % changed)${faults ? ' under faults' : ''}`;
		report(label, rows.length, 600, result, (r) => [
			...(faults
				? []
				: [
						['time', `${(r.ms / 1000).toFixed(1)} s`, '≤ 60 s', r.ms <= 60_000],
						['calls', String(r.calls.total), '≤ 300', r.calls.total <= 300],
					]),
			[
				'duplicates / lost',
				`${r.duplicates} / ${r.lost}`,
				'0 / 0',
				r.duplicates === 0 && r.lost === 0,
			],
		]);
		if (!faults) {
			// The way before: one look-up and one PATCH per row (an unchanged row was written too).
			const oldCalls = 2 * rows.length;
			log(
				`  G a) before (estimated from its calls, not run): ${oldCalls} calls (2 per row), at least ${(((oldCalls / 600) * 60) / 60).toFixed(1)} min at 600/min`,
			);
		}
	}

	// b) 10 rows into an account of 100,000 leads: 5 of its leads (status changed), 5 new.
	for (const faults of CASES.has('b') ? [undefined, FAULTS] : []) {
		const before = await prepare(100_000, 43);
		const picked = before.filter((_lead, index) => index % 20_000 === 7).slice(0, 5);
		const rows = [
			...picked.map((lead) => ({
				email: lead.email,
				status: lead.status === 'lost' ? 'new' : 'lost',
			})),
			...Array.from({ length: 5 }, (_, i) => ({ email: `g.new${i}@sync.example`, status: 'new' })),
		];
		const result = await run({ rows, limit: 600, faults, before });
		const label = `b) 10 rows into 100,000${faults ? ' under faults' : ''}`;
		report(label, rows.length, 600, result, (r) => [
			...(faults ? [] : [['calls', String(r.calls.total), '≤ 30', r.calls.total <= 30]]),
			[
				'duplicates / lost',
				`${r.duplicates} / ${r.lost}`,
				'0 / 0',
				r.duplicates === 0 && r.lost === 0,
			],
		]);
	}

	// c) 2,000 new leads into an empty account under 3,000/min.
	for (const faults of CASES.has('c') ? [undefined, FAULTS] : []) {
		const before = await prepare(0, 0);
		const rows = Array.from({ length: 2000 }, (_, i) => ({
			email: `g.fresh${i}@sync.example`,
			status: 'new',
		}));
		const result = await run({ rows, limit: 3000, faults, before });
		const label = `c) 2,000 new into an empty account${faults ? ' under faults' : ''}`;
		report(label, rows.length, 3000, result, (r) => {
			// The limit's minimum for the 2,000 creates alone: 40 s at 3,000/min.
			const createsMinimum = (rows.length / 3000) * 60_000;
			return [
				...(faults
					? []
					: [
							[
								'time / minimum for the creates (40 s)',
								(r.ms / createsMinimum).toFixed(3),
								'≤ 1.15',
								r.ms / createsMinimum <= 1.15,
							],
						]),
				[
					'duplicates / lost',
					`${r.duplicates} / ${r.lost}`,
					'0 / 0',
					r.duplicates === 0 && r.lost === 0,
				],
			];
		});
	}

	const noFailure = (r) => [
		'error items / duplicates / lost',
		`${r.errors} / ${r.duplicates} / ${r.lost}`,
		'0 / 0 / 0',
		r.errors === 0 && r.duplicates === 0 && r.lost === 0,
	];

	// d) More calls than the limit allows in a minute: 100 pages and 1,000 PATCHes at 600/min.
	if (CASES.has('d')) {
		const before = await prepare(10_000, 47);
		const rows = before.map((lead, index) => ({
			email: lead.email,
			status:
				index % 10 === 0
					? STATUSES[(STATUSES.indexOf(lead.status) + 1) % STATUSES.length]
					: lead.status,
		}));
		const result = await run({ rows, limit: 600, before });
		// The cheaper way: 100 pages and 1,000 PATCHes.
		const cheaper = 100 + rows.length / 10;
		report(
			'd) re-import 10,000 (10 % changed), more calls than a minute allows',
			rows.length,
			600,
			result,
			(r, minimum) => [
				noFailure(r),
				[
					'accepted calls',
					String(r.calls.accepted),
					`≤ ${1.5 * cheaper} (1.5 × ${cheaper})`,
					r.calls.accepted <= 1.5 * cheaper,
				],
				[
					'time',
					`${(r.ms / 1000).toFixed(1)} s`,
					`≤ 1.5 × the limit's minimum (${minimum.toFixed(1)} s)`,
					r.ms / 1000 <= 1.5 * minimum,
				],
			],
		);
	}

	// e) A neighbour on the same key: 9 calls a second (540 of the 600 a minute) to another endpoint, from
	// a minute before the re-import (the window is full of its calls) until the re-import ends.
	if (CASES.has('e')) {
		const before = await prepare(10_000, 53);
		const rows = before.map((lead) => ({ email: lead.email, status: lead.status }));
		const neighbourAnswers = {};
		let running = true;
		const neighbour = (async () => {
			const started = performance.now();
			for (let n = 0; running; n++) {
				const at = started + (n * 1000) / 9;
				await sleep(Math.max(0, at - performance.now()));
				void fetch(`${sandboxUrl}/v1/ctas`, { headers: { authorization: `Bearer ${apiKey}` } })
					.then(async (response) => {
						await response.arrayBuffer();
						neighbourAnswers[response.status] = (neighbourAnswers[response.status] ?? 0) + 1;
					})
					.catch(() => undefined);
			}
		})();
		await control('PATCH', '/_sandbox/config', {
			rate_limit: { requests: 600, window_seconds: 60 },
		});
		await sleep(60_000);
		const result = await run({
			rows,
			limit: 600,
			before,
			alongside: async (node) => {
				await node.catch(() => undefined);
				running = false;
				await neighbour;
			},
		});
		// The node's share of the key: 60 a minute.
		const share = 60;
		const minimum = (result.calls.accepted / share) * 60;
		log(
			`  G e) the neighbour's calls to /v1/ctas by answer: ${JSON.stringify(neighbourAnswers)} (9 a second, from a minute before the re-import to its end, not retried); at a share of ${share}/min the node's minimum for its accepted calls is ${minimum.toFixed(1)} s`,
		);
		report(
			'e) re-import 10,000 unchanged, a neighbour taking 540 of 600/min',
			rows.length,
			600,
			result,
			(r) => [
				noFailure(r),
				[
					'accepted calls / writes',
					`${r.calls.accepted} / ${r.calls.writes}`,
					'≤ 300 / 0',
					r.calls.accepted <= 300 && r.calls.writes === 0,
				],
				[
					'time',
					`${(r.ms / 1000).toFixed(1)} s`,
					`≤ 1.5 × the node's minimum at 60/min (${minimum.toFixed(1)} s)`,
					r.ms / 1000 <= 1.5 * minimum,
				],
			],
		);
	}

	// f) Leads made during the pass: 100 of the 500 new e-mails are made through the API in the first 20 s.
	if (CASES.has('f')) {
		const before = await prepare(10_000, 59);
		const fresh = Array.from({ length: 500 }, (_, i) => ({
			email: `g.during${i}@sync.example`,
			status: 'new',
		}));
		const rows = [...before.map((lead) => ({ email: lead.email, status: lead.status })), ...fresh];
		const madeElsewhere = new Set();
		const result = await run({
			rows,
			limit: 600,
			before,
			faults: { latency_ms: 250, methods: ['GET'], path_prefix: '/v1/leads' },
			// The bench's own creates are not the node's calls.
			mine: (r) => !(r.method === 'POST' && madeElsewhere.has(r.request_id)),
			alongside: async () => {
				for (let i = 0; i < 100; i++) {
					await sleep(200);
					for (;;) {
						const response = await fetch(`${sandboxUrl}/v1/leads`, {
							method: 'POST',
							headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
							body: JSON.stringify({ email: fresh[i * 5].email }),
						});
						await response.arrayBuffer();
						if (response.status === 201) {
							madeElsewhere.add(response.headers.get('x-request-id'));
							break;
						}
						await sleep(1000);
					}
				}
			},
		});
		report(
			'f) 10,000 known + 500 new rows, 100 of them made elsewhere during the pass',
			rows.length,
			600,
			result,
			(r) => [
				noFailure(r),
				[
					'made elsewhere and found',
					`${r.outcomes.unchanged - before.length} of 100`,
					'100',
					r.outcomes.unchanged - before.length === 100,
				],
			],
		);
	}
}
