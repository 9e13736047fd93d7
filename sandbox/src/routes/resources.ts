// Content resources (docs/api-contract.md §6): CRUD, uploads, and the draft → published → archived lifecycle.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findOwned } from '../auth';
import type { RequestAuth } from '../behaviour/host';
import { ApiError } from '../errors';
import {
	FILE_TYPES,
	isFileType,
	RESOURCE_STATUSES,
	RESOURCE_TYPES,
	UPLOAD_LIMIT_BYTES,
	type FileInfo,
	type StoredResource,
} from '../model';
import { readMultipart } from '../multipart';
import { paginate, pagingQuery } from '../paging';
import { createResource } from '../resource-service';
import { apiRoute } from '../route';
import type { Sandbox } from '../sandbox';
import { idString, parseOrThrow, sortOrder, textQuery } from '../validation';
import { resourceView } from '../views';

const fields = {
	title: z.string().min(1).max(200),
	type: z.enum(RESOURCE_TYPES),
	description: z.string().max(5000).nullable(),
	tags: z.array(z.string().min(1).max(50)).max(20),
	cta_id: idString('cta').nullable(),
	track_visitors: z.boolean(),
};

const createBody = z
	.object({
		title: fields.title,
		type: fields.type,
		description: fields.description.optional(),
		tags: fields.tags.optional(),
		cta_id: fields.cta_id.optional(),
		track_visitors: fields.track_visitors.optional(),
	})
	.strict();

const updateFields = z.object(fields).strict().partial();
const updateBody = updateFields.refine((body) => Object.keys(body).length > 0, {
	message: 'at least one of title, type, description, tags, cta_id, track_visitors is required',
});

export const RESOURCE_SORTS = ['created_at', 'updated_at', 'title'] as const;

const listQuery = z
	.object({
		status: z.enum(RESOURCE_STATUSES).optional(),
		type: z.enum(RESOURCE_TYPES).optional(),
		tag: z.string().min(1).max(50).optional(),
		q: textQuery(200).optional(),
		sort: z.enum(RESOURCE_SORTS).default('created_at'),
		order: sortOrder.default('desc'),
		...pagingQuery,
	})
	.strict();

const MULTIPART_FIELDS = [
	'title',
	'type',
	'description',
	'tags',
	'cta_id',
	'track_visitors',
] as const;

/** Multipart text parts as the JSON body would carry them (`track_visitors` "true"/"false", `tags` a JSON array). */
function formFields(parts: Map<string, unknown>): Record<string, unknown> {
	const body: Record<string, unknown> = {};
	for (const [name, value] of parts) {
		if (name === 'track_visitors') {
			if (value !== 'true' && value !== 'false' && typeof value !== 'boolean') {
				throw ApiError.invalid(name, 'must be "true" or "false"');
			}
			body[name] = value === true || value === 'true';
		} else if (name === 'tags') {
			let tags: unknown = value;
			if (typeof value === 'string') {
				try {
					tags = JSON.parse(value);
				} catch {
					throw ApiError.invalid(name, 'must be a JSON array of strings');
				}
			}
			body[name] = tags;
		} else if ((name === 'description' || name === 'cta_id') && value === '') {
			body[name] = null;
		} else {
			body[name] = value;
		}
	}
	return body;
}

function checkCta(sandbox: Sandbox, auth: RequestAuth, ctaId: string | null | undefined): void {
	if (!ctaId) return;
	const cta = sandbox.store.ctas.get(ctaId);
	if (!cta || cta.account_id !== auth.accountId)
		throw ApiError.invalid('cta_id', `no CTA ${ctaId} in this account`);
}

function uploadLimit(sandbox: Sandbox, auth: RequestAuth): number {
	return UPLOAD_LIMIT_BYTES[sandbox.store.account(auth.accountId).plan];
}

async function readUpload(sandbox: Sandbox, auth: RequestAuth, request: FastifyRequest) {
	const form = await readMultipart(request, MULTIPART_FIELDS, uploadLimit(sandbox, auth));
	return { body: formFields(form.fields), file: form.file };
}

export function registerResourceRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	const view = (resource: StoredResource) => resourceView(resource, sandbox.contentHost());
	const isGone = (resource: StoredResource) => resource.deleted;
	const find = (id: string, auth: RequestAuth) =>
		findOwned(sandbox.store.resources, id, auth, 'resource', isGone);

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/resources',
		query: listQuery,
		handler: ({ auth, query }) => {
			const q = query.q?.toLowerCase();
			const items = [...sandbox.store.resources.values()].filter(
				(r) =>
					r.account_id === auth.accountId &&
					!r.deleted &&
					(query.status === undefined || r.status === query.status) &&
					(query.type === undefined || r.type === query.type) &&
					(query.tag === undefined || r.tags.includes(query.tag)) &&
					(q === undefined || r.title.toLowerCase().includes(q)),
			);
			return paginate(items, query, (r) => r[query.sort], view);
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/resources',
		body: createBody,
		multipart: true,
		status: 201,
		handler: async ({ auth, body, multipart, request }) => {
			let input = body;
			let file: FileInfo | null = null;
			if (multipart) {
				const upload = await readUpload(sandbox, auth, request);
				input = parseOrThrow(createBody, upload.body, 'body');
				if (!upload.file) throw ApiError.invalid('file', 'Required');
				if (!isFileType(input.type)) {
					throw ApiError.invalid(
						'type',
						`must be a file type (${FILE_TYPES.join(', ')}) when a file is uploaded`,
					);
				}
				file = upload.file;
			}
			checkCta(sandbox, auth, input.cta_id);
			return view(createResource(sandbox, auth.accountId, { ...input, file }));
		},
	});

	apiRoute(app, sandbox, {
		method: 'GET',
		url: '/v1/resources/:id',
		id: 'res',
		find,
		handler: ({ found }) => view(found),
	});

	apiRoute(app, sandbox, {
		method: 'PUT',
		url: '/v1/resources/:id',
		id: 'res',
		find,
		body: updateBody,
		multipart: true,
		handler: async ({ auth, found: resource, body, multipart, request }) => {
			if (resource.status === 'archived')
				throw ApiError.invalidState('An archived resource cannot be changed');
			let patch = body;
			let file: FileInfo | null = null;
			if (multipart) {
				const upload = await readUpload(sandbox, auth, request);
				patch = parseOrThrow(updateFields, upload.body, 'body');
				if (!upload.file && Object.keys(patch).length === 0) {
					throw ApiError.invalid('body', 'at least one part is required');
				}
				file = upload.file;
			}
			const type = patch.type ?? resource.type;
			if (file && !isFileType(type))
				throw ApiError.invalid('file', `a resource of type ${type} takes no file`);
			if (!file && resource.file && !isFileType(type)) {
				throw ApiError.invalid('type', `${type} takes no file, and this resource has one`);
			}
			checkCta(sandbox, auth, patch.cta_id);
			Object.assign(resource, patch);
			if (file) resource.file = file;
			resource.updated_at = sandbox.nowIso();
			return view(resource);
		},
	});

	apiRoute(app, sandbox, {
		method: 'DELETE',
		url: '/v1/resources/:id',
		id: 'res',
		find,
		handler: ({ found: resource }) => {
			resource.deleted = true;
			resource.updated_at = sandbox.nowIso();
			return { id: resource.id, deleted: true };
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/resources/:id/publish',
		id: 'res',
		find,
		handler: ({ found: resource }) => {
			if (resource.status !== 'draft') {
				throw ApiError.invalidState(
					`Only a draft can be published; this resource is ${resource.status}`,
				);
			}
			const now = sandbox.nowIso();
			resource.status = 'published';
			resource.published_at = now;
			resource.updated_at = now;
			return view(resource);
		},
	});

	apiRoute(app, sandbox, {
		method: 'POST',
		url: '/v1/resources/:id/archive',
		id: 'res',
		find,
		handler: ({ found: resource }) => {
			if (resource.status !== 'published') {
				throw ApiError.invalidState(
					`Only a published resource can be archived; this resource is ${resource.status}`,
				);
			}
			const now = sandbox.nowIso();
			resource.status = 'archived';
			resource.archived_at = now;
			resource.updated_at = now;
			return view(resource);
		},
	});
}
