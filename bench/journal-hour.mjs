// The trigger journal's size under a steady load, computed with the built ledger (no n8n): 40 deliveries a
// second for an hour, 1 in 20 a re-send (attempt 2) of an event sent 10 to 15 s before, as figure E sends
// them. Each call loads the row's journal and, when the ledger hands one back, saves it whole (n8n's
// static-data semantics). Prints the row's size every 10 minutes and the saves per call.
//   node scripts/build.mjs && node bench/journal-hour.mjs [rate] [seconds]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { acceptEvent, checkEvent } = require(
	path.join(ROOT, 'dist/nodes/ContentMarketing/trigger/eventLedger.js'),
);

const RATE = Number(process.argv[2] ?? 40);
const SECONDS = Number(process.argv[3] ?? 3600);
const RESEND_EVERY = 20;
const START = 1_800_000_000;
const OPEN = { writableEnded: false };

let row = {};
const recent = [];
let calls = 0;
let saves = 0;
let savedBytes = 0;
for (let t = 0; t < SECONDS; t++) {
	const now = START + t;
	for (let k = 0; k < RATE; k++, calls++) {
		const old =
			calls % RESEND_EVERY === RESEND_EVERY - 1
				? recent.find((event) => event.at <= now - 10 && event.at >= now - 15)
				: undefined;
		const id = old?.id ?? `evt_${calls}`;
		const attempt = old === undefined ? 1 : 2;
		if (old === undefined) recent.push({ id, at: now });
		if (recent.length > RATE * 20) recent.shift();
		const check = checkEvent(
			'bench',
			{ recent: JSON.parse(JSON.stringify(row)) },
			id,
			attempt,
			now,
			OPEN,
		);
		if (check.verdict === 'in progress') continue;
		const saved = check.verdict === 'new' ? acceptEvent('bench', id, attempt, now) : check.store;
		if (saved === undefined) continue;
		const text = JSON.stringify(saved);
		row = JSON.parse(text);
		saves++;
		savedBytes += text.length;
	}
	if ((t + 1) % 600 === 0 || t + 1 === SECONDS) {
		const entries = Object.values(row).join('').length / 8;
		console.log(
			`${((t + 1) / 60).toFixed(0)} min: journal ${(JSON.stringify(row).length / 1024).toFixed(1)} KB, ${entries} entries`,
		);
	}
}
console.log(
	`${calls} calls at ${RATE}/s: ${saves} saved the journal (${((saves / calls) * 100).toFixed(1)} %), ${(savedBytes / saves / 1024).toFixed(1)} KB each on average`,
);
