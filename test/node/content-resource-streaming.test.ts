// A large upload is streamed from n8n's binary data storage to the service: the node's process never holds
// the file in memory (docs/api-contract.md §6 paid plan, 500 MB videos).
import { Readable } from 'node:stream';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ACCOUNT_A } from '../support/sandbox-client';
import { CREDENTIAL, NodeTestBed } from './node-test-bed';
import { chain, startNode } from '../harness';

const SIZE = 200 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const STREAMED_FILE_NODE_TYPE = 'n8n-nodes-harness.streamedFile';

/** Emits a binary file written to the binary data storage from a stream, never whole in memory. */
class StreamedFileNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Streamed File',
		name: 'streamedFile',
		group: ['transform'],
		version: 1,
		description: 'Test node emitting a large binary file written chunk by chunk',
		defaults: { name: 'Streamed File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const chunk = Buffer.alloc(CHUNK, 7);
		const stream = Readable.from(
			(function* () {
				for (let sent = 0; sent < SIZE; sent += CHUNK) yield chunk;
			})(),
		);
		const data = await this.helpers.prepareBinaryData(stream, 'keynote.mp4', 'video/mp4');
		return [[{ json: {}, binary: { data }, pairedItem: { item: 0 } }]];
	}
}

const bed = NodeTestBed.forFile({
	extraNodes: { [STREAMED_FILE_NODE_TYPE]: new StreamedFileNode() },
});

it('streams a 200 MB file: the upload adds far less than the file size to the process memory', async () => {
	await bed.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { plan: 'paid' });
	const run = () =>
		bed.harness.run({
			nodes: [
				startNode(),
				{ name: 'Streamed File', type: STREAMED_FILE_NODE_TYPE, parameters: {} },
				{
					name: 'Upload',
					type: bed.nodeType,
					parameters: {
						resource: 'contentResource',
						operation: 'create',
						inputData: 'binary',
						title: 'Keynote',
						type: 'video',
						options: { uploadLimit: 'paid' },
					},
					credentials: {
						[CREDENTIAL]: bed.harness.credentials.referenceFor(CREDENTIAL) ?? { id: '1', name: '' },
					},
				},
			],
			connections: chain('Start', 'Streamed File', 'Upload'),
		});

	global.gc?.();
	const baseline = process.memoryUsage().rss;
	let peak = baseline;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 10);
	const result = await run().finally(() => clearInterval(sampler));

	expect(result.errorOf('Upload')).toBeUndefined();
	expect(result.outputOf('Upload')[0].json).toMatchObject({
		file: { name: 'keynote.mp4', size: SIZE, mime_type: 'video/mp4' },
	});
	expect(peak - baseline).toBeLessThan(SIZE / 2);
});
