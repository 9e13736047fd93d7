// What a fault check counts per workflow, from the sandbox's delivery log and n8n's stored executions:
// events, lost (no started execution), run twice or more, and the answers that acknowledged lost events
// (the node's own, or n8n's start-up 200 "n8n is starting up", which no node can prevent).

/** n8n answers every request with this 200 while its database is connected but not yet migrated. */
export const STARTING_UP = /n8n is starting up/i;

/**
 * Under faults (n8n killed, its database stalled, answers later than the service's 5 s) at most this
 * share of the events may run twice (docs/triggers.md "De-duplication" names the cases).
 */
export const FAULT_TWICE_SHARE = 0.05;

/**
 * Under kills of a serving n8n and SQLite write locks (one process), at most this share of the events
 * may run to success twice; a killed run that n8n re-ran counts once.
 */
export const KILLED_TWICE_SHARE = 0.01;

/**
 * The retry schedule of the fault checks: the service's (10 s, 1 min, 10 min, 1 h, 6 h) compressed, then
 * more attempts RECEIVER_DOWN_GAP_MS apart. The service retries for hours, far longer than any n8n
 * restart, so it never runs out of attempts while n8n restarts; a check whose compressed attempts all met
 * a stopped or starting n8n (a slow host) would count as lost what the service would still deliver. So
 * the long gaps go on until the receiver answers, and waitForServiceDone runs them as soon as it does.
 */
export const FAULT_RETRIES_MS = [2000, 4000, 8000, 20_000, ...Array(10).fill(120_000)];

/** The gap that stands for the service's hours: waitForServiceDone does not wait it out. */
const RECEIVER_DOWN_GAP_MS = 120_000;

/** The first attempt whose gap before it is a long one. */
const FIRST_LONG_ATTEMPT = 2 + FAULT_RETRIES_MS.indexOf(RECEIVER_DOWN_GAP_MS);

/**
 * The long gaps' attempts run early at most this many a second: the service's retries of a burst are
 * spread over its gaps, so a check that sent them all at once would flood a restarted n8n until none is
 * answered within 5 s.
 */
const EARLY_RETRIES_PER_SECOND = 20;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The event ids an execution's stored data holds (one per execution of these workflows). */
export function eventIdsIn(text) {
	return [...new Set(String(text ?? '').match(/evt_[0-9A-Za-z]+/g) ?? [])];
}

/**
 * The ids of the lead.created events (GET /v1/events) since `sinceMs` whose lead's e-mail contains
 * `emailPart`: a stream's own events, on an endpoint that earlier events may still be retried to.
 */
export async function leadEventIds(sandbox, emailPart, sinceMs) {
	const since = new Date(Math.floor(sinceMs / 1000) * 1000 - 1000).toISOString().slice(0, 19) + 'Z';
	const ids = new Set();
	let cursor;
	do {
		const page = await sandbox.client.api(
			'GET',
			`/v1/events?type=lead.created&created_after=${since}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		for (const event of page.data)
			if (String(event.data?.lead?.email ?? '').includes(emailPart)) ids.add(event.id);
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	return ids;
}

/**
 * The service's deliveries of `events` lead.created events to each of `endpointIds` so far (`log`), and
 * those it still owes: events with no attempt yet (`unlogged`) or not acknowledged with attempts left
 * (`waiting`); `pending` counts both. With `eventIds` (the stream's ids, `events` of them) only their
 * deliveries count; without, the endpoints must have received no other event since the log was
 * cleared: more events than `events` in it throws, naming them, since the counts would be wrong.
 */
export async function deliveriesOutstanding(sandbox, endpointIds, events, eventIds) {
	const lastAttempt = 1 + FAULT_RETRIES_MS.length;
	const log = (await sandbox.client.control('GET', '/_sandbox/deliveries')).filter(
		(d) =>
			endpointIds.includes(d.endpoint_id) &&
			d.type === 'lead.created' &&
			(eventIds === undefined || eventIds.has(d.event_id)),
	);
	const open = new Map();
	for (const d of log) {
		const key = `${d.endpoint_id} ${d.event_id}`;
		const state = open.get(key) ?? { ok: false, attempts: 0 };
		state.ok ||= d.ok;
		state.attempts = Math.max(state.attempts, d.attempt);
		open.set(key, state);
	}
	const expected = endpointIds.length * events;
	if (open.size > expected)
		throw new Error(
			`the delivery log holds ${open.size} endpoint x event pairs, the stream only ${expected}: ${[...open.keys()].slice(0, 5).join(', ')} ...`,
		);
	const waiting = [...open.values()].filter((s) => !s.ok && s.attempts < lastAttempt);
	const unlogged = expected - open.size;
	return { log, waiting, unlogged, pending: waiting.length + unlogged };
}

/**
 * Waits until the service stopped delivering `events` events to each endpoint: every one logged, and
 * either acknowledged or out of attempts. With `receiverUp`, once every open event waits for an attempt
 * after a long gap and the receiver answers ready, the sandbox runs those attempts early, 20 a second:
 * the long gaps stand for the service's hours, which outlast any restart. With `eventIds`, `events`
 * is their count and only their deliveries count (deliveriesOutstanding). Returns the delivery log
 * entries of these endpoints.
 */
export async function waitForServiceDone(
	sandbox,
	endpointIds,
	events,
	{ timeoutMs = 360_000, receiverUp, eventIds } = {},
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { log, waiting, unlogged, pending } = await deliveriesOutstanding(
			sandbox,
			endpointIds,
			events,
			eventIds,
		);
		if (pending === 0) return log;
		if (Date.now() > deadline)
			throw new Error(`the service still retries ${pending} events after ${timeoutMs / 1000} s`);
		if (
			receiverUp !== undefined &&
			unlogged === 0 &&
			waiting.every((s) => s.attempts + 1 >= FIRST_LONG_ATTEMPT) &&
			(await receiverUp())
		)
			await sandbox.client.control('POST', '/_sandbox/deliveries/retry-now', {
				max: EARLY_RETRIES_PER_SECOND,
			});
		await sleep(1000);
	}
}

/**
 * Waits until the stored executions stop changing: the same count, and the same number still marked
 * running, for `quietMs` (after a crash or a lost Redis job n8n can leave an execution marked running
 * for good). `list()` returns `[{ id, status }]`.
 */
export async function waitForExecutionsSettled(list, { quietMs = 5000, timeoutMs = 120_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	let since = Date.now();
	for (;;) {
		const rows = await list();
		const state = `${rows.length} ${rows.filter((r) => r.status === 'running').length}`;
		if (state !== last) {
			last = state;
			since = Date.now();
		} else if (Date.now() - since >= quietMs) return rows;
		if (Date.now() > deadline)
			throw new Error(`executions still changing after ${timeoutMs / 1000} s (${state})`);
		await sleep(500);
	}
}

/**
 * Figures of one workflow: `log` its endpoint's delivery attempts, `executions` its stored executions
 * `[{ id, status, data, reached? }]` (data: the stored run data text; reached: the event ids that reached
 * the workflow's last node, when known: an execution that ran to success counts for those only). An execution counts as started unless n8n
 * left it in status `new` (created, never run). `failedByN8n`: ids of executions n8n stored and then
 * failed before running them (named so in its own log, e.g. a worker that could not load the execution
 * while PostgreSQL restarted); an acknowledged event whose only execution is one of them counts apart.
 * `wiped`: executions `[{ id, events }]` n8n failed (its log names them) and whose stored data it
 * replaced by its error (n8n's processError after a lost Redis job), `events` the event ids that data held
 * before (the database's record of it); a lost event counts apart when one of them held it.
 */
export function eventFigures(log, executions, { failedByN8n = new Set(), wiped = [] } = {}) {
	const events = new Map();
	for (const d of log) {
		const event = events.get(d.event_id) ?? {
			attempts: 0,
			acked: undefined,
			startup: 0,
			answers: [],
		};
		event.attempts++;
		event.answers.push(`${d.attempt}: ${d.status_code ?? d.error}`);
		if (d.status_code === 200 && STARTING_UP.test(d.response_excerpt ?? '')) event.startup++;
		if (d.ok && event.acked === undefined) event.acked = d;
		events.set(d.event_id, event);
	}
	const runs = new Map();
	/** Event id -> executions that ran to success (a killed run n8n re-ran counts once, as its crash). */
	const successes = new Map();
	/** Event id -> the id of a stored execution n8n failed before running it. */
	const storedNotRun = new Map();
	/** Event id -> the id of a stored execution left "new" that n8n's log does not name. */
	const leftNew = new Map();
	let notStarted = 0;
	for (const execution of executions) {
		// n8n marks a job it failed before running it (its log names it) "error" when it can still save that
		const failedBeforeRunning =
			failedByN8n.has(String(execution.id)) &&
			['new', 'error', 'crashed'].includes(execution.status);
		if (execution.status === 'new' || failedBeforeRunning) {
			notStarted++;
			const named = failedBeforeRunning ? storedNotRun : leftNew;
			for (const id of eventIdsIn(execution.data)) named.set(id, String(execution.id));
			continue;
		}
		for (const id of eventIdsIn(execution.data)) {
			runs.set(id, (runs.get(id) ?? 0) + 1);
		}
		if (execution.status !== 'success') continue;
		for (const id of execution.reached ?? eventIdsIn(execution.data))
			successes.set(id, (successes.get(id) ?? 0) + 1);
	}
	const figures = {
		events: events.size,
		attempts: log.length,
		executions: executions.length - notStarted,
		notStarted,
		startupAnswers: [...events.values()].reduce((sum, e) => sum + e.startup, 0),
		lost: 0,
		lostToStartup: 0,
		/** `{ event, execution }`: acknowledged after n8n stored the execution, which n8n then failed. */
		lostToN8nFailure: [],
		/** `{ event, execution }`: acknowledged, then n8n failed an execution it stored then and dropped its data. */
		lostToN8nWiped: [],
		lostAnswered: [],
		/** Executions of events in `lostAnswered` that n8n stored and left "new", its log silent. */
		lostUnrun: [],
		/** Each lost event with the answer to each of its attempts, for the failure message. */
		lostAnswers: [],
		neverAcknowledged: 0,
		twice: 0,
		/** Events with two or more executions that ran to success: the duplicates a user sees. */
		twiceSucceeded: 0,
		/** Their ids, for the failure message and the attempts printed beside them. */
		twiceSucceededIds: [],
		extraRuns: 0,
	};
	/** Event id -> the id of a wiped execution whose data held it. */
	const wipedHolding = new Map(
		wiped.flatMap(({ id, events: held }) => held.map((event) => [event, String(id)])),
	);
	for (const [id, event] of events) {
		const count = runs.get(id) ?? 0;
		if (count >= 2) {
			figures.twice++;
			figures.extraRuns += count - 1;
		}
		if ((successes.get(id) ?? 0) >= 2) {
			figures.twiceSucceeded++;
			figures.twiceSucceededIds.push(`${id} (${event.answers.join(', ')})`);
		}
		if (count > 0) continue;
		figures.lost++;
		figures.lostAnswers.push(`${id} (${event.answers.join(', ')})`);
		if (event.acked === undefined) figures.neverAcknowledged++;
		else if (STARTING_UP.test(event.acked.response_excerpt ?? '')) figures.lostToStartup++;
		else if (storedNotRun.has(id))
			figures.lostToN8nFailure.push({ event: id, execution: storedNotRun.get(id) });
		else {
			const unrun = leftNew.get(id);
			const dropped = unrun === undefined ? wipedHolding.get(id) : undefined;
			if (dropped !== undefined) {
				figures.lostToN8nWiped.push({ event: id, execution: dropped });
				continue;
			}
			if (unrun !== undefined) figures.lostUnrun.push(unrun);
			figures.lostAnswered.push(
				`${id} (attempt ${event.acked.attempt}: ${event.acked.response_excerpt}${unrun === undefined ? '' : `; execution ${unrun} left "new"`})`,
			);
		}
	}
	return figures;
}

const percent = (part, whole) => (whole === 0 ? '0' : ((100 * part) / whole).toFixed(1));

/** One line: what the service sent, what ran, what was lost and why. */
export function describeFigures(name, f) {
	return (
		`${name}: ${f.events} events, ${f.attempts} attempts, ${f.executions} started executions` +
		` (+${f.notStarted} left "new" by n8n); lost ${f.lost} (${f.lostToStartup} acknowledged by n8n's` +
		` start-up 200, ${f.lostToN8nFailure.length} stored by n8n and failed by it before running,` +
		` ${f.lostToN8nWiped.length} stored by n8n and failed by it with their data dropped,` +
		` ${f.lostAnswered.length} by the node, ${f.neverAcknowledged} never acknowledged);` +
		` run twice ${f.twice} (${percent(f.twice, f.events)} %), to success twice ${f.twiceSucceeded}` +
		` (${percent(f.twiceSucceeded, f.events)} %); start-up 200 answers ${f.startupAnswers}`
	);
}

/**
 * One event's story for a failure message: each attempt (when sent, seconds from `t0Ms`, and its answer)
 * and each stored execution that names it (status, created, started, stopped).
 */
export function describeEvent(eventId, log, executions, t0Ms) {
	// SQLite keeps UTC without a zone ("2026-01-01 10:00:00.000"); the sandbox an ISO time.
	const ms = (time) =>
		Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(time) ? time : `${time.replace(' ', 'T')}Z`);
	const at = (time) => (time ? `${((ms(String(time)) - t0Ms) / 1000).toFixed(1)}` : '-');
	const attempts = log
		.filter((d) => d.event_id === eventId)
		.map(
			(d) => `#${d.attempt} at ${at(d.at)} s: ${d.status_code ?? d.error} in ${d.duration_ms} ms`,
		);
	const runs = executions
		.filter((e) => eventIdsIn(e.data).includes(eventId))
		.map(
			(e) =>
				`${e.id} ${e.status} (created ${at(e.createdAt)}, started ${at(e.startedAt)}, stopped ${at(e.stoppedAt)})`,
		);
	return `  ${eventId}: attempts ${attempts.join('; ')}; executions ${runs.join('; ')}`;
}
