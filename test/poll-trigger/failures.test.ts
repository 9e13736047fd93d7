// A poll that fails part-way emits nothing and leaves the cursor where it was; the next poll catches up.
import { virtualSleepEachTest } from '../node/virtual-sleep';
import type { Hook } from './poll-bed';
import {
	createLeads,
	describeItems,
	flat,
	pollSetup,
	poller,
	recordedEvents,
	SOURCES,
	useSource,
} from './poll-bed';

const { sandbox, proxy, harness } = pollSetup();
const sleeps = virtualSleepEachTest();

/** Every request after the first page fails this way (beyond the transport's retries). */
const FAILURES: Array<[string, Hook]> = [
	[
		'a 429 storm',
		async (path) =>
			path.includes('cursor=')
				? { status: 429, body: { error: { code: 'rate_limited', message: 'slow down' } } }
				: 'forward',
	],
	[
		'a 5xx',
		async (path) =>
			path.includes('cursor=')
				? { status: 503, body: { error: { code: 'server_error', message: 'down' } } }
				: 'forward',
	],
	['dropped connections', async (path) => (path.includes('cursor=') ? 'drop' : 'forward')],
];

describe.each(SOURCES)('source: %s', (source) => {
	beforeEach(async () => {
		await useSource(sandbox, source);
	});

	test.each(FAILURES)(
		'%s part-way: nothing emitted, cursor kept, the next poll emits everything once',
		async (_name, hook) => {
			const trigger = poller(harness());
			await trigger.activate();
			await createLeads(sandbox, 150);
			const saved = trigger.nodeStaticData;

			proxy().hook = hook;
			const failed = await trigger.poll();
			expect(failed.error?.message).toEqual(expect.any(String));
			expect(failed.items).toBeUndefined();
			expect(trigger.executions).toHaveLength(0);
			expect(trigger.nodeStaticData).toEqual(saved);
			expect(sleeps.delays.length).toBeGreaterThan(0);

			proxy().reset();
			const emitted = describeItems(flat(await trigger.pollUntilQuiet()));
			expect(emitted).toEqual(await recordedEvents(sandbox, source));
			expect(emitted).toHaveLength(150);
		},
	);

	test('a failure of the first poll fails the activation and records nothing', async () => {
		const trigger = poller(harness());
		proxy().hook = async () => ({
			status: 500,
			body: { error: { code: 'server_error', message: 'down' } },
		});
		await expect(trigger.activate()).rejects.toThrow();
		expect(trigger.active).toBe(false);
		expect(trigger.nodeStaticData).toEqual({});
	});
});
