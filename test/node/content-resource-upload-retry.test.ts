// Retries of multipart uploads under injected faults: a 429 is re-sent with a freshly opened file stream,
// a 500 or a dropped connection is not re-sent (an upload is not idempotent, docs/api-contract.md §8).
import type { INodeExecutionData } from 'n8n-workflow';

import { binary } from '../harness';
import { NodeTestBed, errorKind, jsonOf } from './node-test-bed';
import { virtualSleepEachTest } from './virtual-sleep';

const bed = NodeTestBed.forFile({ clearFaultsEachTest: true });
const sleep = virtualSleepEachTest();

const files = (sizes: number[]): INodeExecutionData[] =>
	sizes.map((size, index) => ({
		json: { title: `Report ${index}` },
		binary: {
			data: binary(Buffer.alloc(size, index + 1), {
				mimeType: 'application/pdf',
				fileName: `report-${index}.pdf`,
			}),
		},
	}));

const createFromBinary = {
	resource: 'contentResource',
	operation: 'create',
	inputData: 'binary',
	title: '={{ $json.title }}',
	type: 'pdf',
};

it('re-sends an upload answered 429 with the whole file again', async () => {
	await bed.control.put('/_sandbox/faults', {
		rate_429: 0.5,
		methods: ['POST'],
		path_prefix: '/v1/resources',
		seed: 3,
	});
	const sizes = [10_000, 20_000, 30_000, 40_000];
	// One upload at a time: the seeded faults then fall on the same requests in every run (in parallel the
	// order of arrival, and so which request gets which fault, varies).
	const result = await bed.run(
		{ ...createFromBinary, options: { maxParallelRequests: 1 } },
		{ input: files(sizes) },
	);

	expect(result.error).toBeUndefined();
	expect(jsonOf(result).map((resource) => (resource.file as { size: number }).size)).toEqual(sizes);
	const statuses = (await bed.requests()).map((request) => request.status);
	expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
	expect(statuses.filter((status) => status === 201)).toHaveLength(4);
	expect(sleep.delays.length).toBe(statuses.filter((status) => status === 429).length);
});

it('does not re-send an upload answered 500', async () => {
	await bed.control.put('/_sandbox/faults', {
		rate_500: 1,
		methods: ['POST'],
		path_prefix: '/v1/resources',
	});
	const result = await bed.run(createFromBinary, { input: files([5_000]) });

	expect(errorKind(result)).toEqual({ name: 'NodeApiError', httpCode: '500' });
	expect((await bed.requests()).map((request) => request.status)).toEqual([500]);
});

it('does not re-send an upload whose connection was dropped, and says the upload may have been refused', async () => {
	await bed.control.put('/_sandbox/faults', {
		drop_rate: 1,
		methods: ['POST'],
		path_prefix: '/v1/resources',
	});
	const result = await bed.run(createFromBinary, { input: files([5_000]) });

	expect(result.error?.message).toBe('Could not connect to the Content Marketing API [item 0]');
	expect(result.error?.description).toContain('while the file "report-0.pdf" was being uploaded');
	expect((await bed.requests()).map((request) => request.status)).toEqual([null]);
});
