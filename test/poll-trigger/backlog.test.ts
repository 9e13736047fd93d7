// A large backlog (5,000 events after a weekend) is emitted completely, in order, within the stated bound:
// the events list at most MAX_EVENTS_PER_POLL (1,000) per poll, the fallback all in one poll.
import { MAX_EVENTS_PER_POLL } from '../../dist/nodes/ContentMarketing/pollTrigger/eventsSource';
import {
	createLeads,
	describeItems,
	flat,
	pollSetup,
	poller,
	recordedEvents,
	setStatuses,
	SOURCES,
	useSource,
} from './poll-bed';

const { sandbox, harness } = pollSetup();

const BACKLOG = 5000;
const STATUS_CHANGES = 500;
/** Making 5,000 events over HTTP takes about 10 s on an idle machine; this leaves room for a loaded one. */
const TIMEOUT_MS = 300_000;

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test(
		`${BACKLOG} events are emitted exactly once, oldest first, within the per-poll bound`,
		async () => {
			const trigger = poller(harness());
			await trigger.activate();
			const leads = await createLeads(sandbox, BACKLOG - STATUS_CHANGES, 50);
			await sandbox.control.post('/_sandbox/clock/advance', { hours: 60 });
			await setStatuses(sandbox, leads.slice(0, STATUS_CHANGES), 'converted', 50);

			const executions = await trigger.pollUntilQuiet();
			const emitted = describeItems(flat(executions));
			expect(emitted).toEqual(await recordedEvents(sandbox, source));
			expect(emitted).toHaveLength(BACKLOG);
			const sizes = executions.map((items) => items.length);
			if (source === 'events') {
				expect(Math.max(...sizes)).toBe(MAX_EVENTS_PER_POLL);
				expect(sizes).toHaveLength(Math.ceil(BACKLOG / MAX_EVENTS_PER_POLL));
			} else {
				expect(sizes).toEqual([BACKLOG]);
			}
		},
		TIMEOUT_MS,
	);
});
