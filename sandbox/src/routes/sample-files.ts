// GET /_sandbox/files/sample.pdf: a small, valid one-page PDF to download and upload (examples, e2e).
import type { FastifyInstance } from 'fastify';

function samplePdf(): Buffer {
	const text = 'BT /F1 24 Tf 72 720 Td (Content Marketing sample PDF) Tj ET';
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, index) => {
		offsets.push(pdf.length);
		pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = pdf.length;
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}

export const SAMPLE_PDF = samplePdf();

export function registerSampleFiles(app: FastifyInstance): void {
	app.get('/_sandbox/files/sample.pdf', async (_request, reply) =>
		reply
			.header('Content-Disposition', 'attachment; filename="sample.pdf"')
			.type('application/pdf')
			.send(SAMPLE_PDF),
	);
}
