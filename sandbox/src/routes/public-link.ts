// The public link of a resource on the content host (docs/api-contract.md §6): GET /c/{id}.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Sandbox } from '../sandbox';

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
	return reply
		.code(status)
		.header('Cache-Control', 'no-store')
		.type('text/html; charset=utf-8')
		.send(
			`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
				`<body>${body}</body></html>\n`,
		);
}

export function registerPublicLink(app: FastifyInstance, sandbox: Sandbox): void {
	app.get('/c/:id', async (request, reply) => {
		const { id } = request.params as { id: string };
		const query = request.query as Record<string, unknown>;
		const resource = sandbox.store.resources.get(id);
		const preview =
			resource?.status === 'draft' &&
			typeof query.preview === 'string' &&
			query.preview === resource.preview_token;
		if (!resource || resource.deleted || !(resource.status === 'published' || preview)) {
			return page(
				reply,
				404,
				'Not found',
				'<h1>Not found</h1><p>This content is not available.</p>',
			);
		}
		if (preview) reply.header('X-Robots-Tag', 'noindex');
		const cta = resource.cta_id ? sandbox.store.ctas.get(resource.cta_id) : undefined;
		const parts = [
			`<article data-resource-id="${escapeHtml(resource.id)}" data-type="${escapeHtml(resource.type)}">`,
			`<h1>${escapeHtml(resource.title)}</h1>`,
			preview ? '<p><strong>Preview</strong> (draft, not tracked)</p>' : '',
			resource.description ? `<p>${escapeHtml(resource.description)}</p>` : '',
			resource.file ? `<p>${escapeHtml(resource.file.name)} (${resource.file.size} bytes)</p>` : '',
			cta
				? `<p><a data-cta-id="${escapeHtml(cta.id)}" href="${escapeHtml(cta.url)}">${escapeHtml(cta.name)}</a></p>`
				: '',
			'</article>',
		];
		return page(reply, 200, resource.title, parts.join(''));
	});
}
