// Spec "Limits: upload file size", docs/api-contract.md §6: multipart create/update and the 413 per plan.
import {
	ACCOUNT_A,
	expectError,
	useSandbox,
	type ListPage,
	type Resource,
} from '../support/sandbox-client';

const sandbox = useSandbox();

const FREE_LIMIT = 52_428_800;
const MiB = 1 << 20;

/**
 * A multipart body generated while it is sent (the test never holds the file in memory). With `hold`, the
 * stream stops before its closing boundary until `hold` resolves, so the request is still in progress.
 */
function streamedUpload(fileSize: number, fields: Record<string, string>, hold?: Promise<void>) {
	const boundary = `cmtest${Date.now().toString(36)}`;
	const fieldParts = Object.entries(fields)
		.map(
			([name, value]) =>
				`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
		)
		.join('');
	const head = Buffer.from(
		`${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const chunk = Buffer.alloc(MiB, 0x25);
	let sent = -1;
	const progress = { fileBytesSent: 0, finished: false };
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (sent < 0) {
				controller.enqueue(head);
				sent = 0;
			} else if (sent < fileSize) {
				const n = Math.min(MiB, fileSize - sent);
				controller.enqueue(chunk.subarray(0, n));
				sent += n;
				progress.fileBytesSent = sent;
			} else {
				if (hold) await hold;
				controller.enqueue(tail);
				controller.close();
				progress.finished = true;
			}
		},
	});
	return { body, progress, contentType: `multipart/form-data; boundary=${boundary}` };
}

function sendUpload(
	upload: ReturnType<typeof streamedUpload>,
	method = 'POST',
	path = '/v1/resources',
) {
	return sandbox.api.call(method, path, {
		body: upload.body,
		duplex: 'half',
		headers: { 'Content-Type': upload.contentType },
	});
}

function form(
	fields: Record<string, string>,
	file?: { name: string; type: string; content: string },
	fileField = 'file',
): FormData {
	const data = new FormData();
	for (const [name, value] of Object.entries(fields)) data.append(name, value);
	if (file) data.append(fileField, new Blob([file.content], { type: file.type }), file.name);
	return data;
}

const PDF = { name: 'report.pdf', type: 'application/pdf', content: '%PDF-1.7 tiny test file' };

async function setPlan(plan: 'free' | 'paid'): Promise<void> {
	expect((await sandbox.control.patch(`/_sandbox/accounts/${ACCOUNT_A}`, { plan })).status).toBe(
		200,
	);
}

async function resourceCount(): Promise<number> {
	return (await sandbox.api.get<ListPage<Resource>>('/v1/resources?limit=100')).body.data.length;
}

describe('Limits: upload file size per plan', () => {
	test('Errors: 413 file_too_large — free plan upload over 50 MB (51 MB streamed over HTTP), nothing stored', async () => {
		await setPlan('free');
		const before = await resourceCount();
		const upload = streamedUpload(51 * MiB, {
			title: 'Too big',
			type: 'pdf',
			track_visitors: 'true',
		});
		const answer = await sendUpload(upload);
		expectError(answer, 413, 'file_too_large', 'file');
		expect(await resourceCount()).toBe(before);
	});

	test('Errors: 413 file_too_large reaches the client while it is still sending', async () => {
		await setPlan('free');
		let release: () => void = () => undefined;
		const hold = new Promise<void>((resolve) => {
			release = resolve;
		});
		const upload = streamedUpload(FREE_LIMIT + MiB, { title: 'Held', type: 'video' }, hold);
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error('no answer before the body ended')), 15_000);
		});
		try {
			const answer = await Promise.race([sendUpload(upload), timeout]);
			expect(upload.progress.finished).toBe(false);
			expectError(answer, 413, 'file_too_large', 'file');
		} finally {
			clearTimeout(timer);
			release();
		}
		expect((await sandbox.api.get('/v1/resources')).status).toBe(200);
	});

	test('Limits: free plan accepts a file of exactly 52,428,800 bytes', async () => {
		await setPlan('free');
		const answer = await sendUpload(
			streamedUpload(FREE_LIMIT, { title: 'Exactly 50 MB', type: 'pdf' }),
		);
		expect(answer.status).toBe(201);
		expect((answer.body as unknown as Resource).file).toEqual({
			name: 'big.pdf',
			size: FREE_LIMIT,
			mime_type: 'application/pdf',
		});
	});

	test('Limits: paid plan accepts an upload over 50 MB (51 MB)', async () => {
		await setPlan('paid');
		const answer = await sendUpload(
			streamedUpload(51 * MiB, { title: 'Big video', type: 'video', track_visitors: 'false' }),
		);
		expect(answer.status).toBe(201);
		expect(answer.body).toMatchObject({
			status: 'draft',
			type: 'video',
			track_visitors: false,
			file: { size: 51 * MiB },
		});
		await setPlan('free');
	});

	test('Errors: 413 file_too_large on PUT with a file over the plan limit; the resource keeps its file', async () => {
		await setPlan('free');
		const created = await sandbox.api.call<Resource>('POST', '/v1/resources', {
			body: form({ title: 'Small', type: 'pdf' }, PDF),
		});
		expect(created.status).toBe(201);
		const answer = await sendUpload(
			streamedUpload(51 * MiB, {}),
			'PUT',
			`/v1/resources/${created.body.id}`,
		);
		expectError(answer, 413, 'file_too_large', 'file');
		expect((await sandbox.api.get<Resource>(`/v1/resources/${created.body.id}`)).body).toEqual(
			created.body,
		);
	});
});

describe('Resources: create and update with a file (multipart)', () => {
	test('multipart create: 201, status draft, file { name, size, mime_type }, tags from a JSON array part', async () => {
		const answer = await sandbox.api.call<Resource>('POST', '/v1/resources', {
			body: form(
				{
					title: 'Report',
					type: 'pdf',
					track_visitors: 'false',
					tags: '["report","2026"]',
					description: 'Yearly',
				},
				PDF,
			),
		});
		expect(answer.status).toBe(201);
		expect(answer.body).toMatchObject({
			title: 'Report',
			type: 'pdf',
			status: 'draft',
			track_visitors: false,
			tags: ['report', '2026'],
			description: 'Yearly',
			file: { name: 'report.pdf', size: PDF.content.length, mime_type: 'application/pdf' },
		});
	});

	test.each([
		['missing file part', form({ title: 'T', type: 'pdf' }), 'file'],
		['missing title', form({ type: 'pdf' }, PDF), 'title'],
		['a type that takes no file', form({ title: 'T', type: 'article' }, PDF), 'type'],
		['an unknown type', form({ title: 'T', type: 'podcast' }, PDF), 'type'],
		['an unknown text part', form({ title: 'T', type: 'pdf', status: 'published' }, PDF), 'status'],
		[
			'a file under another part name',
			form({ title: 'T', type: 'pdf' }, PDF, 'document'),
			'document',
		],
		[
			'track_visitors not true/false',
			form({ title: 'T', type: 'pdf', track_visitors: 'yes' }, PDF),
			'track_visitors',
		],
		['tags not a JSON array', form({ title: 'T', type: 'pdf', tags: 'a,b' }, PDF), 'tags'],
		['an empty file', form({ title: 'T', type: 'pdf' }, { ...PDF, content: '' }), 'file'],
	])(
		'multipart create with %s is 400 naming the part, nothing stored',
		async (_label, body, param) => {
			const before = await sandbox.snapshot();
			expectError(
				await sandbox.api.call('POST', '/v1/resources', { body }),
				400,
				'invalid_params',
				param,
			);
			expect(await sandbox.snapshot()).toBe(before);
		},
	);

	test('two file parts are 400 file', async () => {
		const body = form({ title: 'T', type: 'pdf' }, PDF);
		body.append('file', new Blob(['second']), 'second.pdf');
		expectError(
			await sandbox.api.call('POST', '/v1/resources', { body }),
			400,
			'invalid_params',
			'file',
		);
	});

	test('multipart PUT replaces the file and updates the given fields only', async () => {
		const created = (
			await sandbox.api.call<Resource>('POST', '/v1/resources', {
				body: form({ title: 'V1', type: 'ebook' }, PDF),
			})
		).body;
		const answer = await sandbox.api.call<Resource>('PUT', `/v1/resources/${created.id}`, {
			body: form(
				{ title: 'V2' },
				{ name: 'v2.epub', type: 'application/epub+zip', content: 'epub!' },
			),
		});
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			title: 'V2',
			type: 'ebook',
			file: { name: 'v2.epub', size: 5, mime_type: 'application/epub+zip' },
		});
	});

	test('multipart PUT of a file on a type that takes none is 400 file; changing a resource with a file to such a type is 400 type', async () => {
		const article = await sandbox.createResource({ type: 'article' });
		expectError(
			await sandbox.api.call('PUT', `/v1/resources/${article.id}`, { body: form({}, PDF) }),
			400,
			'invalid_params',
			'file',
		);
		const pdf = (
			await sandbox.api.call<Resource>('POST', '/v1/resources', {
				body: form({ title: 'P', type: 'pdf' }, PDF),
			})
		).body;
		expectError(
			await sandbox.api.put(`/v1/resources/${pdf.id}`, { type: 'webinar' }),
			400,
			'invalid_params',
			'type',
		);
		expect(
			(await sandbox.api.put<Resource>(`/v1/resources/${pdf.id}`, { type: 'whitepaper' })).body
				.type,
		).toBe('whitepaper');
	});

	test('multipart is refused where JSON is expected (400 Content-Type); the read-only key gets 403', async () => {
		expectError(
			await sandbox.api.call('POST', '/v1/leads', { body: form({ email: 'a@example.com' }) }),
			400,
			'invalid_params',
			'Content-Type',
		);
		expectError(
			await sandbox.readOnly.call('POST', '/v1/resources', {
				body: form({ title: 'T', type: 'pdf' }, PDF),
			}),
			403,
			'forbidden',
		);
	});

	test('Idempotency-Key is ignored on multipart requests (an upload is never replayed)', async () => {
		const headers = { 'Idempotency-Key': 'upload-key-1' };
		const first = await sandbox.api.call<Resource>('POST', '/v1/resources', {
			body: form({ title: 'U', type: 'pdf' }, PDF),
			headers,
		});
		const second = await sandbox.api.call<Resource>('POST', '/v1/resources', {
			body: form({ title: 'U', type: 'pdf' }, PDF),
			headers,
		});
		expect([first.status, second.status]).toEqual([201, 201]);
		expect(first.body.id).not.toBe(second.body.id);
		expect(second.headers.get('idempotent-replayed')).toBeNull();
	});
});
