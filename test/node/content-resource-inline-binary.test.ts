// Uploads when n8n keeps binary data in memory (binary data mode "default": base64 inline in the item, no id).
import { binary } from '../harness';
import { NodeTestBed, jsonOf } from './node-test-bed';

const bed = NodeTestBed.forFile({ binaryDataMode: 'default' });

it('uploads inline binary data on create and on update', async () => {
	const content = Buffer.alloc(4096, 9);
	const created = await bed.run(
		{
			resource: 'contentResource',
			operation: 'create',
			inputData: 'binary',
			binaryPropertyName: 'doc',
			title: 'E-Book',
			type: 'ebook',
		},
		{
			input: [
				{
					json: {},
					binary: {
						doc: binary(content, { mimeType: 'application/epub+zip', fileName: 'guide.epub' }),
					},
				},
			],
		},
	);
	expect(created.error).toBeUndefined();
	const [resource] = jsonOf(created);
	expect(resource).toMatchObject({
		type: 'ebook',
		file: { name: 'guide.epub', size: 4096, mime_type: 'application/epub+zip' },
	});

	const updated = await bed.run(
		{
			resource: 'contentResource',
			operation: 'update',
			resourceId: { __rl: true, mode: 'id', value: String(resource.id) },
			replaceFile: true,
			binaryPropertyName: 'doc',
		},
		{
			input: [
				{ json: {}, binary: { doc: binary('new edition', { mimeType: 'application/epub+zip' }) } },
			],
		},
	);
	expect(updated.error).toBeUndefined();
	// Without a file name in the binary data, the name falls back to "file" plus its extension if known.
	expect(jsonOf(updated)[0]).toMatchObject({
		id: resource.id,
		title: 'E-Book',
		file: { size: 11, mime_type: 'application/epub+zip' },
	});
});
