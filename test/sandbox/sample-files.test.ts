// Sandbox control surface (docs/api-contract.md §13): the sample PDF that upload examples download.
import { useSandbox } from '../support/sandbox-client';

const sandbox = useSandbox();

test('GET /_sandbox/files/sample.pdf answers a small PDF as an attachment', async () => {
	const res = await fetch(`${sandbox.url}/_sandbox/files/sample.pdf`);
	expect(res.status).toBe(200);
	expect(res.headers.get('content-type')).toBe('application/pdf');
	expect(res.headers.get('content-disposition')).toBe('attachment; filename="sample.pdf"');
	const body = Buffer.from(await res.arrayBuffer());
	expect(body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
	expect(body.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
	const startxref = Number(/startxref\n(\d+)\n/.exec(body.toString('latin1'))?.[1]);
	expect(body.subarray(startxref, startxref + 4).toString('latin1')).toBe('xref');
});
