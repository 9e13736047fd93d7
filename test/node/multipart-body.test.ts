// The multipart body builder of the upload transport (compiled, as the node uses it): binary data that is
// a stream stays a stream (never buffered), inline data is one Buffer, and both frame the parts alike.
import { Readable } from 'node:stream';

import { buildMultipartBody } from '../../dist/nodes/ContentMarketing/transport/upload';

async function text(body: Buffer | Readable): Promise<string> {
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
	return Buffer.concat(chunks).toString('utf8');
}

const fields = { title: 'Report "2026"', type: 'pdf', tags: '["a","b"]', track_visitors: 'true' };

function boundaryOf(contentType: string): string {
	return /boundary=(.+)$/.exec(contentType)?.[1] ?? '';
}

it('streams a stream: the file chunks pass through, text parts first, Content-Length from the known size', async () => {
	let pulled = 0;
	const source = Readable.from(
		(async function* () {
			for (let i = 0; i < 3; i++) {
				pulled++;
				yield Buffer.from(`chunk${i}`);
			}
		})(),
	);
	const multipart = await buildMultipartBody(fields, {
		fileName: 'Bericht über "Q4".pdf',
		mimeType: 'application/pdf',
		size: 18,
		open: async () => source,
	});
	expect(Buffer.isBuffer(multipart.body)).toBe(false);
	expect(pulled).toBe(0);

	const boundary = boundaryOf(multipart.contentType);
	expect(multipart.contentType).toBe(`multipart/form-data; boundary=${boundary}`);
	const body = await text(multipart.body);
	expect(Buffer.byteLength(body)).toBe(multipart.contentLength);
	expect(body).toBe(
		`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nReport "2026"\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\npdf\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="tags"\r\n\r\n["a","b"]\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="track_visitors"\r\n\r\ntrue\r\n` +
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Bericht über %22Q4%22.pdf"\r\n` +
			`Content-Type: application/pdf\r\n\r\nchunk0chunk1chunk2\r\n--${boundary}--\r\n`,
	);
});

it('sends a stream of unknown size chunked (no Content-Length)', async () => {
	const multipart = await buildMultipartBody(
		{},
		{
			fileName: 'a.pdf',
			mimeType: 'application/pdf',
			open: async () => Readable.from([Buffer.from('x')]),
		},
	);
	expect(multipart.contentLength).toBeUndefined();
	expect(await text(multipart.body)).toContain('\r\n\r\nx\r\n');
});

it('sends inline binary data as one Buffer with its exact length', async () => {
	const multipart = await buildMultipartBody(
		{ title: 'T' },
		{
			fileName: 'a.pdf',
			mimeType: 'application/pdf',
			size: 3,
			open: async () => Buffer.from('abc'),
		},
	);
	expect(Buffer.isBuffer(multipart.body)).toBe(true);
	expect(multipart.contentLength).toBe((multipart.body as Buffer).length);
});
