// Figure F of `npm run bench`: Lead › Create or Update of 2,000 items, half of them e-mails of leads the
// sandbox already has, beside Lead › Create of the same items, in the n8n of figures A to D (run.mjs) at
// 25 ms added latency. Each node as a user leaves it (Max Parallel Requests at its default). Then the same
// 2,000 upserted twice, without faults and under the sandbox's 429s, 500s and dropped connections
// (docs/api-contract.md §13), and the leads counted per e-mail: one each, the existing ones untouched.
//   BENCH_F_ROUNDS=3   timed rounds, the order of the two variants alternating
import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { cpuMs, idle } from './idle.mjs';

const N = 2000;
const LATENCY_MS = 25;
const ROUNDS = Number(process.env.BENCH_F_ROUNDS ?? 3);
/**
 * Every /v1 request may fail before the service processes it. A request fails for good only after seven
 * 5xx or dropped connections in a row (MAX_RETRIES = 6; 429s are waited out); 429s are rare because each
 * pauses every turn of the key for a second.
 */
const FAULTS = {
	rate_429: 0.01,
	rate_500: 0.05,
	drop_rate: 0.05,
	latency_ms: LATENCY_MS,
	seed: 29,
};
const CREATE = 'node-create';
const UPSERT = 'node-upsert';
const UPSERT_CONTINUE = 'node-upsert-continue';

const emailKey = (email) => String(email).trim().toLowerCase();

/**
 * The bench workflow (bench/workflow.mjs) with F's chains: copies of its Lead › Create chain with the
 * operation set to Create or Update, one of them with On Error: Continue so that a failed item shows as
 * an error item instead of stopping the run.
 */
export function withUpsertChains(workflow) {
	const nodes = [...workflow.nodes];
	const connections = { ...workflow.connections };
	let y = Math.max(...nodes.map((node) => node.position[1]));
	for (const [name, extra] of [
		[UPSERT, {}],
		[UPSERT_CONTINUE, { onError: 'continueRegularOutput' }],
	]) {
		y += 200;
		const copy = (from, to, changes = {}) => {
			const node = structuredClone(workflow.nodes.find((n) => n.name === from));
			Object.assign(node, { id: randomUUID(), name: to, position: [node.position[0], y] }, changes);
			nodes.push(node);
			return node;
		};
		copy(`Hook ${CREATE}`, `Hook ${name}`, { webhookId: randomUUID() }).parameters.path =
			`bench-${name}`;
		copy(`Split ${CREATE}`, `Split ${name}`);
		copy(CREATE, name, {
			...extra,
			parameters: { resource: 'lead', operation: 'createOrUpdate', email: '={{ $json.email }}' },
		});
		connections[`Hook ${name}`] = { main: [[{ node: `Split ${name}`, type: 'main', index: 0 }]] };
		connections[`Split ${name}`] = { main: [[{ node: name, type: 'main', index: 0 }]] };
	}
	return { ...workflow, nodes, connections };
}

/** Leads per e-mail key. */
function countByEmail(leads) {
	const counts = new Map();
	for (const lead of leads)
		counts.set(emailKey(lead.email), (counts.get(emailKey(lead.email)) ?? 0) + 1);
	return counts;
}

/** What the sandbox's request log says, per method and answer (`dropped` for no answer). */
function requestSummary(requests) {
	const summary = {};
	for (const r of requests) {
		const key = `${r.method} ${r.status ?? 'dropped'}`;
		summary[key] = (summary[key] ?? 0) + 1;
	}
	return summary;
}

/**
 * Figure F in the running bench n8n. `hook(name, items)` posts to a chain's webhook, `reset()` empties
 * the sandbox, `latency(ms)` sets its added latency, `allLeads()` reads every lead through the API,
 * `control` calls /_sandbox, `pid` is n8n's process.
 */
export async function figureF({ log, row, median, maxParallel, ...bench }) {
	const { hook, reset, latency, allLeads, control, pid } = bench;
	// The existing half: seeded leads (the same e-mails after every reset), the new half interleaved.
	const seedExisting = () => control('POST', '/_sandbox/seed', { seed: 29, leads: N / 2 });
	await reset();
	await seedExisting();
	const existing = (await allLeads()).map((lead) => lead.email);
	if (existing.length !== N / 2 || new Set(existing.map(emailKey)).size !== N / 2)
		throw new Error(`F: the seed gave ${existing.length} leads, not ${N / 2} distinct e-mails`);
	const items = existing.flatMap((email, i) => [{ email }, { email: `new${i}@upsert.example` }]);
	const isNew = (key) => key.endsWith('@upsert.example');

	log(
		`F. ${N} Lead › Create or Update (${N / 2} new e-mails, ${N / 2} of existing leads) beside Lead › Create of the same items, ${LATENCY_MS} ms added latency, ${ROUNDS} rounds, ${os.availableParallelism()} cores: both with their defaults (Max Parallel Requests ${maxParallel}, adaptive from 2)`,
	);
	await reset();
	await hook(UPSERT, items.slice(0, 50));

	/**
	 * What went wrong in an upsert's output and the store: output items missing, out of order or not
	 * paired with their e-mail, `created` wrong, and leads per e-mail other than one.
	 */
	const check = async (label, outputs) => {
		const problems = [];
		const errorItems = [];
		const leadOf = new Map();
		for (const [run, body] of outputs.entries()) {
			if (!Array.isArray(body) || body.length !== N) {
				problems.push(
					`${label} run ${run + 1}: ${Array.isArray(body) ? body.length : 'no'} output items for ${N}`,
				);
				continue;
			}
			body.forEach((out, i) => {
				const key = emailKey(items[i].email);
				if (out.error !== undefined)
					errorItems.push({ run: run + 1, email: key, error: out.error });
				else if (emailKey(out.email) !== key)
					problems.push(
						`${label} run ${run + 1} item ${i}: output e-mail ${out.email}, input ${key}`,
					);
				else {
					// Created only by the first run that succeeded for a new e-mail, and the same lead ever after.
					const known = leadOf.get(key);
					if (out.created !== (known === undefined && isNew(key)))
						problems.push(`${label} run ${run + 1} item ${i} (${key}): created ${out.created}`);
					if (known !== undefined && out.id !== known)
						problems.push(
							`${label} run ${run + 1} item ${i} (${key}): lead ${out.id}, before ${known}`,
						);
					leadOf.set(key, out.id);
				}
			});
		}
		const counts = countByEmail(await allLeads());
		// An e-mail may lack its lead only when every item for it ended in an error item.
		const failedEverywhere = new Set(
			items
				.map((item) => emailKey(item.email))
				.filter((key) => errorItems.filter((e) => e.email === key).length === outputs.length),
		);
		let duplicates = 0;
		const duplicated = [];
		const missing = [];
		for (const item of items) {
			const key = emailKey(item.email);
			const count = counts.get(key) ?? 0;
			if (count > 1) {
				duplicates += count - 1;
				duplicated.push(`${key} (${count} leads)`);
			}
			if (count === 0 && !failedEverywhere.has(key)) missing.push(key);
		}
		const inputKeys = new Set(items.map((item) => emailKey(item.email)));
		const strangers = [...counts.keys()].filter((key) => !inputKeys.has(key));
		if (missing.length > 0)
			problems.push(
				`${label}: no lead and no error item for ${missing.length} e-mails: ${missing.slice(0, 10).join(', ')}`,
			);
		if (strangers.length > 0)
			problems.push(
				`${label}: leads with e-mails not in the input: ${strangers.slice(0, 10).join(', ')}`,
			);
		return { problems, errorItems, duplicates, duplicated };
	};

	const times = { create: [], upsert: [] };
	const cpu = { create: [], upsert: [] };
	const ratios = [];
	for (let round = 0; round < ROUNDS; round++) {
		const perItem = {};
		for (const variant of round % 2 === 0 ? ['create', 'upsert'] : ['upsert', 'create']) {
			await reset();
			await seedExisting();
			await latency(LATENCY_MS);
			await idle(pid);
			const cpuBefore = cpuMs(pid);
			const { ms, body } = await hook(variant === 'create' ? CREATE : UPSERT, items);
			cpu[variant].push((cpuMs(pid) - cpuBefore) / N);
			await latency(0);
			if (variant === 'create') {
				const count = (await allLeads()).length;
				if (count !== N + N / 2)
					throw new Error(`F create round ${round + 1}: ${count} leads, not ${N + N / 2}`);
			} else {
				const { problems, duplicates, errorItems } = await check(`round ${round + 1}`, [body]);
				if (problems.length > 0 || duplicates > 0 || errorItems.length > 0)
					throw new Error(
						`F upsert round ${round + 1}: ${duplicates} duplicates, ${errorItems.length} error items; ${problems.slice(0, 10).join('; ')}`,
					);
			}
			perItem[variant] = ms / N;
			times[variant].push(ms / N);
		}
		ratios.push(perItem.upsert / perItem.create);
		log(
			`  F round ${round + 1}: Create or Update ${perItem.upsert.toFixed(3)} ms/item, Create ${perItem.create.toFixed(3)}, ratio ${ratios.at(-1).toFixed(2)}; n8n CPU Create or Update ${cpu.upsert.at(-1).toFixed(3)} ms/item, Create ${cpu.create.at(-1).toFixed(3)}; load ${os.loadavg()[0].toFixed(1)}`,
		);
	}
	log(
		`F. at ${LATENCY_MS} ms: Create or Update ${median(times.upsert).toFixed(3)} ms/item, Create ${median(times.create).toFixed(3)} (medians of ${ROUNDS}); ratio per round ${ratios.map((r) => r.toFixed(2)).join(', ')}, median ${median(ratios).toFixed(2)}; n8n CPU Create or Update ${median(cpu.upsert).toFixed(3)} ms/item, Create ${median(cpu.create).toFixed(3)}; ${os.availableParallelism()} cores`,
	);
	row(
		`F ${LATENCY_MS} ms Create or Update/Create (median of ${ratios.length} rounds)`,
		median(ratios).toFixed(2),
		'≤ 2.5',
		median(ratios) <= 2.5,
		`(medians: Create or Update ${median(times.upsert).toFixed(3)} ms/item, Create ${median(times.create).toFixed(3)}; ${os.availableParallelism()} cores)`,
	);

	/** The items upserted twice (the second run finds every lead), then the leads counted per e-mail. */
	const twice = async (label, faults) => {
		await reset();
		await seedExisting();
		await control('DELETE', '/_sandbox/requests');
		if (faults) await control('PUT', '/_sandbox/faults', faults);
		else await latency(LATENCY_MS);
		const outputs = [];
		for (let run = 0; run < 2; run++) {
			await idle(pid);
			outputs.push((await hook(faults ? UPSERT_CONTINUE : UPSERT, items)).body);
		}
		await control('DELETE', '/_sandbox/faults');
		const requests = await control('GET', '/_sandbox/requests');
		const result = await check(label, outputs);
		log(
			`F. ${label}: ${result.duplicates} duplicates, ${result.errorItems.length} error items, ${result.problems.length} other problems; sandbox requests ${JSON.stringify(requestSummary(requests))}`,
		);
		for (const line of [...result.duplicated, ...result.problems].slice(0, 20))
			log(`  F ${label}: ${line}`);
		for (const e of result.errorItems.slice(0, 10))
			log(`  F ${label}: run ${e.run} ${e.email}: ${e.error}`);
		if (result.duplicated.length > 0) {
			// The requests that looked up the first duplicated e-mails, to see what each run found.
			const keys = result.duplicated.slice(0, 3).map((text) => text.split(' ')[0]);
			for (const r of requests.filter((r) =>
				keys.some((key) => JSON.stringify(r.query ?? '').includes(key)),
			))
				log(`  F ${label} request: ${JSON.stringify(r)}`);
		}
		return result;
	};

	const plain = await twice(`Create or Update of the same ${N} twice, ${LATENCY_MS} ms`);
	row(
		'F duplicates after upserting twice',
		plain.duplicates === 0 ? '0 duplicates' : `${plain.duplicates} duplicates`,
		'0',
		plain.duplicates === 0 && plain.problems.length === 0 && plain.errorItems.length === 0,
		plain.problems.length + plain.errorItems.length > 0
			? `(${plain.errorItems.length} error items, ${plain.problems.length} other problems)`
			: '',
	);
	const faulty = await twice(
		`the same under faults (429 ${FAULTS.rate_429}, 500 ${FAULTS.rate_500}, dropped ${FAULTS.drop_rate}, ${LATENCY_MS} ms)`,
		FAULTS,
	);
	row(
		'F duplicates after upserting twice under faults',
		faulty.duplicates === 0 ? '0 duplicates' : `${faulty.duplicates} duplicates`,
		'0',
		faulty.duplicates === 0 && faulty.problems.length === 0,
		`(${faulty.errorItems.length} error items of ${2 * N}, ${faulty.problems.length} items missing or wrong)`,
	);
}
