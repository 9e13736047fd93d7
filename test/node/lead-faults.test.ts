// Volume and injected faults: every lead exactly once, every create exactly once, batches of at most 100.
// Waits are virtual (see virtualSleep): the delays the node asks for are recorded, not slept.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { jsonOf, NodeTestBed } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
const clock = virtualSleepEachTest();

interface LoggedRequest {
	method: string;
	path: string;
	status: number;
}

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

test('Get Many (Return All) over 1,000 leads with 20% 429s and 10% 500s returns each lead exactly once', async () => {
	await bed.control.post('/_sandbox/seed', { seed: 42, leads: 1000, resources: 10 });
	const seeded = await bed.allLeadIds();
	expect(seeded).toHaveLength(1000);
	await bed.control.delete('/_sandbox/requests');
	await bed.control.put('/_sandbox/faults', {
		rate_429: 0.2,
		rate_500: 0.1,
		methods: ['GET'],
		path_prefix: '/v1/leads',
		seed: 5,
	});

	const result = await bed.run({
		resource: 'lead',
		operation: 'getAll',
		returnAll: true,
		simplify: false,
	});

	expect(result.error).toBeUndefined();
	const ids = jsonOf(result).map((lead) => String(lead.id));
	expect(ids).toHaveLength(1000);
	expect(new Set(ids).size).toBe(1000);
	expect([...ids].sort()).toEqual([...seeded].sort());

	const log = (await bed.control.get<LoggedRequest[]>('/_sandbox/requests')).body;
	const statuses = log.map((request) => request.status);
	expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
	expect(statuses.filter((status) => status === 500).length).toBeGreaterThan(0);
	expect(statuses.filter((status) => status === 200)).toHaveLength(10);
	// One wait per refused answer; a 429's wait is its Retry-After: 1 (a 500's backoff is 1 s plus up to 10 % jitter).
	const refused = statuses.filter((status) => status === 429 || status === 500).length;
	expect(clock.delays).toHaveLength(refused);
	expect(clock.delays.filter((delay) => delay === 1000).length).toBeGreaterThanOrEqual(
		statuses.filter((status) => status === 429).length,
	);
});

test('500 Create Lead items with 20% 429s create exactly 500 leads', async () => {
	await bed.control.put('/_sandbox/faults', {
		rate_429: 0.2,
		methods: ['POST'],
		path_prefix: '/v1/leads',
		seed: 9,
	});
	const input: INodeExecutionData[] = Array.from({ length: 500 }, (_, index) => ({
		json: { email: `lead${index}@example.com` },
	}));

	const result = await bed.run(
		{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
		{ input },
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(500);
	expect(result.items.map((item) => item.json.email)).toEqual(input.map((item) => item.json.email));
	expect(result.items.map((item) => item.pairedItem)).toEqual(
		input.map((_, index) => ({ item: index })),
	);
	await bed.control.delete('/_sandbox/faults');

	const log = (await bed.control.get<LoggedRequest[]>('/_sandbox/requests')).body.filter(
		(request) => request.method === 'POST',
	);
	expect(log.filter((request) => request.status === 429).length).toBeGreaterThan(50);
	expect(log.filter((request) => request.status === 201)).toHaveLength(500);
	expect(await bed.allLeadIds()).toHaveLength(500);

	// Counted through the node too.
	const count = await bed.run({ resource: 'lead', operation: 'getAll', returnAll: true });
	expect(count.items).toHaveLength(500);
});

test('creates survive 500s and dropped connections without duplicates', async () => {
	await bed.control.put('/_sandbox/faults', {
		rate_500: 0.15,
		drop_rate: 0.1,
		methods: ['POST'],
		path_prefix: '/v1/leads',
		seed: 3,
	});
	const input: INodeExecutionData[] = Array.from({ length: 60 }, (_, index) => ({
		json: { email: `x${index}@example.com` },
	}));

	const result = await bed.run(
		{ resource: 'lead', operation: 'create', email: '={{ $json.email }}' },
		{ input },
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(60);
	await bed.control.delete('/_sandbox/faults');
	const emails = (await bed.allLeadIds()).length;
	expect(emails).toBe(60);
	// 5xx and resets were waited out with exponential backoff starting at 1 s.
	expect(clock.delays.length).toBeGreaterThan(0);
	expect(Math.min(...clock.delays)).toBeGreaterThanOrEqual(1000);
});

test('2,000 Sync Many to CRM items make at most 20 HTTP calls', async () => {
	await bed.control.post('/_sandbox/seed', { seed: 8, leads: 2000, resources: 5 });
	const ids = await bed.allLeadIds();
	await bed.control.delete('/_sandbox/requests');
	const input: INodeExecutionData[] = ids.map((id) => ({ json: { id } as IDataObject }));

	const result = await bed.run(
		{ resource: 'lead', operation: 'syncManyToCrm', leadId: rl('={{ $json.id }}') },
		{ input },
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2000);
	result.items.forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		expect(item.json.lead_id).toBe(ids[index]);
		expect(item.json.synced).toBe(true);
	});
	const log = (await bed.control.get<LoggedRequest[]>('/_sandbox/requests')).body;
	expect(log.length).toBeLessThanOrEqual(20);
	expect(
		log.every(
			(request) => request.method === 'POST' && request.path === '/v1/leads/batch-sync-crm',
		),
	).toBe(true);
	const pushes = (await bed.control.get<Array<{ reason: string }>>('/_sandbox/crm/pushes')).body;
	expect(pushes.filter((push) => push.reason === 'batch')).toHaveLength(2000);
});
