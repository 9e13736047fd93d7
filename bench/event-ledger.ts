// The cost of the trigger's de-duplication claim as the ids it remembers grow: a process that accepted 50
// or 5,000 events (its journal saved to a row as n8n saves static data), then 4,000 new claims in batches
// of 100, the two alternating; prints the median batch time of each and their ratio, with the core count.
// Run after a build: npx tsx bench/event-ledger.ts
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import type { StoredDedupe } from '../dist/nodes/ContentMarketing/trigger/eventLedger';
import {
	acceptEvent,
	checkEvent,
	forgetScope,
} from '../dist/nodes/ContentMarketing/trigger/eventLedger';
import type { JournalSegments } from '../dist/nodes/ContentMarketing/trigger/eventJournal';

const NOW = 1_800_000_000;
const OPEN = { writableEnded: false };
const BATCH = 100;

/** A call's check then, for a new event, its acceptance; what the call saves (undefined: nothing). */
function claim(scope: string, stored: StoredDedupe, eventId: string, nowSeconds: number) {
	const check = checkEvent(scope, stored, eventId, 1, nowSeconds, OPEN);
	if (check.verdict === 'in progress') return undefined;
	if (check.verdict === 'duplicate') return check.store;
	return acceptEvent(scope, eventId, 1, nowSeconds);
}

/** A process that accepted `count` events over the last 7 hours, and the row its saves left. */
function remembering(count: number) {
	const scope = `process-${randomUUID()}`;
	let recent: JournalSegments = {};
	const load = (): StoredDedupe => ({ recent: JSON.parse(JSON.stringify(recent)) as unknown });
	const save = (store: JournalSegments | undefined) => {
		if (store !== undefined) recent = JSON.parse(JSON.stringify(store)) as JournalSegments;
	};
	const start = NOW - 7 * 3600;
	for (let i = 0; i < count; i++)
		save(claim(scope, load(), `evt_old_${count}_${i}`, start + Math.floor((i * 6 * 3600) / count)));
	return { scope, load, save };
}

const few = remembering(50);
const many = remembering(5000);
const fresh = Array.from({ length: 4000 }, (_, i) => `evt_new_${i}`);
const batches = { few: [] as number[], many: [] as number[] };
for (let b = 0; b < fresh.length / BATCH; b++) {
	// alternating which goes first, so that both meet the same machine
	for (const which of b % 2 === 0 ? (['few', 'many'] as const) : (['many', 'few'] as const)) {
		const { scope, load, save } = which === 'few' ? few : many;
		const started = performance.now();
		for (let i = b * BATCH; i < (b + 1) * BATCH; i++)
			save(claim(scope, load(), fresh[i], NOW + Math.floor(i / 200)));
		batches[which].push(performance.now() - started);
	}
}
forgetScope(few.scope);
forgetScope(many.scope);
const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)];
const [a, b] = [median(batches.few), median(batches.many)];
console.log(
	`claims per batch of ${BATCH}, median of ${batches.few.length}: 50 ids remembered ${a.toFixed(2)} ms, 5,000 ids ${b.toFixed(2)} ms, ratio ${(b / a).toFixed(2)} (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
);
