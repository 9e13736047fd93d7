// Upload size limits (docs/api-contract.md §6: free 50 MB, paid 500 MB) with a file of 50 MB + 1 byte, stored by the
// binary data service on the filesystem, so the upload is streamed from disk.
import { ACCOUNT_A } from '../support/sandbox-client';
import { BIG_FILE_NODE_TYPE, BigFileNode, CREDENTIAL, NodeTestBed } from './node-test-bed';
import { chain, startNode } from '../harness';
import type { RunResult } from '../harness';

const FREE_LIMIT = 52_428_800;

const bed = NodeTestBed.forFile({ extraNodes: { [BIG_FILE_NODE_TYPE]: new BigFileNode() } });

async function upload(options: {
	uploadLimit?: string;
	continueOnFail?: boolean;
}): Promise<RunResult> {
	return await bed.harness.run({
		nodes: [
			startNode(),
			{
				name: 'Big File',
				type: BIG_FILE_NODE_TYPE,
				parameters: { size: FREE_LIMIT + 1, fileName: 'webinar.mp4' },
			},
			{
				name: 'Upload',
				type: bed.nodeType,
				parameters: {
					resource: 'contentResource',
					operation: 'create',
					inputData: 'binary',
					title: 'Webinar recording',
					type: 'video',
					options: options.uploadLimit === undefined ? {} : { uploadLimit: options.uploadLimit },
				},
				credentials: {
					[CREDENTIAL]: bed.harness.credentials.referenceFor(CREDENTIAL) ?? { id: '1', name: '' },
				},
				onError: options.continueOnFail ? 'continueRegularOutput' : undefined,
			},
		],
		connections: chain('Start', 'Big File', 'Upload'),
	});
}

it('refuses a file over the free limit before sending anything, naming the item and the fix', async () => {
	const result = await upload({});
	const error = result.errorOf('Upload');
	expect(error?.message).toBe(
		'The file "webinar.mp4" is 50.0 MB, over the 50.0 MB upload limit of the Free plan [item 0]',
	);
	expect(error?.description).toContain('set Options > Upload Size Limit to "Paid Plan (500 MB)"');
	expect(await bed.requests()).toEqual([]);
});

it('gives the error as an item under Continue On Fail', async () => {
	const result = await upload({ continueOnFail: true });
	const [item] = result.outputOf('Upload');
	expect(item.json.error).toContain('over the 50.0 MB upload limit of the Free plan');
	expect(item.pairedItem).toEqual({ item: 0 });
});

it("with No Check, streams the file and reports the service's 413 file_too_large", async () => {
	const result = await upload({ uploadLimit: 'none' });
	const error = result.errorOf('Upload');
	expect({
		name: error?.name,
		httpCode: (error as { httpCode?: string } | undefined)?.httpCode,
	}).toEqual({
		name: 'NodeApiError',
		httpCode: '413',
	});
	expect(error?.message).toContain('file_too_large');
	expect((await bed.requests()).map((request) => request.status)).toEqual([413]);
	expect((await bed.api.get<{ data: unknown[] }>('/v1/resources')).body.data).toEqual([]);
});

it('on a paid plan with the Paid limit, streams the whole 50 MB file and the service stores its size', async () => {
	await bed.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { plan: 'paid' });
	const result = await upload({ uploadLimit: 'paid' });
	expect(result.errorOf('Upload')).toBeUndefined();
	const [item] = result.outputOf('Upload');
	expect(item.json).toMatchObject({
		title: 'Webinar recording',
		type: 'video',
		status: 'draft',
		file: { name: 'webinar.mp4', size: FREE_LIMIT + 1, mime_type: 'video/mp4' },
	});
});
