// One real run per operation of the Content Marketing node, against a sandbox with its demo data: the
// answers that scripts/generate-schemas.ts turns into the shipped output schemas and that
// test/node/outputSchemas.test.ts checks them against.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

export interface SchemaApi {
	api(method: string, path: string, body?: unknown): Promise<{ status: number; body: IDataObject }>;
}

/** The objects the cases work on, created once by `prepare`. */
export interface Prepared {
	leadId: string;
	userId: string;
	ctaId: string;
	draftId: string;
	toPublishId: string;
	toArchiveId: string;
	toDeleteId: string;
	webhookId: string;
	webhookToDeleteId: string;
	receiverUrl: string;
}

export interface SchemaCase {
	resource: string;
	operation: string;
	parameters: (prepared: Prepared) => INodeParameters;
	input?: (prepared: Prepared) => INodeExecutionData[];
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

async function created(api: SchemaApi, path: string, body: unknown): Promise<string> {
	const answer = await api.api('POST', path, body);
	if (answer.status >= 300)
		throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
	return String(answer.body.id);
}

/** A lead with every field filled, resources in each state, two webhook endpoints to a local receiver. */
export async function prepare(api: SchemaApi, receiverUrl: string): Promise<Prepared> {
	const users = (await api.api('GET', '/v1/users')).body.data as IDataObject[];
	const ctas = (await api.api('GET', '/v1/ctas')).body.data as IDataObject[];
	const userId = String(users[0].id);
	const ctaId = String(ctas[0].id);
	const leadId = await created(api, '/v1/leads', {
		email: `schema.${Date.now()}@example.com`,
		name: 'Ada Schema',
		company: 'Example GmbH',
		job_title: 'Head of Marketing',
		source_channel: 'api',
		custom_fields: { plan: 'pro' },
	});
	await api.api('PATCH', `/v1/leads/${leadId}`, { assigned_to: userId, notes: 'Asked for a demo' });
	const resource = (title: string) => ({
		title,
		type: 'article',
		description: 'About schemas',
		tags: ['docs'],
		cta_id: ctaId,
	});
	const draftId = await created(api, '/v1/resources', resource('Draft'));
	const toPublishId = await created(api, '/v1/resources', resource('To publish'));
	const toArchiveId = await created(api, '/v1/resources', resource('To archive'));
	await api.api('POST', `/v1/resources/${toArchiveId}/publish`);
	const toDeleteId = await created(api, '/v1/resources', resource('To delete'));
	const hook = (path: string) => ({
		url: `${receiverUrl}/${path}`,
		events: ['lead.created'],
		description: 'schemas',
	});
	const webhookId = await created(api, '/v1/webhooks', hook('a'));
	const webhookToDeleteId = await created(api, '/v1/webhooks', hook('b'));
	return {
		leadId,
		userId,
		ctaId,
		draftId,
		toPublishId,
		toArchiveId,
		toDeleteId,
		webhookId,
		webhookToDeleteId,
		receiverUrl,
	};
}

const LEAD = { resource: 'lead' };
const RESOURCE = { resource: 'contentResource' };
const ANALYTICS = { resource: 'analytics', days: 30 };
const WEBHOOK = { resource: 'webhookEndpoint' };

export const SCHEMA_CASES: SchemaCase[] = [
	{
		...LEAD,
		operation: 'create',
		parameters: () => ({
			...LEAD,
			operation: 'create',
			email: 'schema.create@example.com',
			additionalFields: {
				name: 'Grace',
				company: 'Example',
				job_title: 'CTO',
				source_channel: 'api',
			},
		}),
	},
	{
		...LEAD,
		operation: 'get',
		parameters: (p) => ({ ...LEAD, operation: 'get', leadId: byId(p.leadId) }),
	},
	{ ...LEAD, operation: 'getAll', parameters: () => ({ ...LEAD, operation: 'getAll', limit: 20 }) },
	{
		...LEAD,
		operation: 'update',
		parameters: (p) => ({
			...LEAD,
			operation: 'update',
			leadId: byId(p.leadId),
			updateFields: { status: 'contacted' },
		}),
	},
	{
		...LEAD,
		operation: 'syncToCrm',
		parameters: (p) => ({ ...LEAD, operation: 'syncToCrm', leadId: byId(p.leadId) }),
	},
	{
		...LEAD,
		operation: 'syncManyToCrm',
		parameters: () => ({ ...LEAD, operation: 'syncManyToCrm', leadId: byId('={{ $json.id }}') }),
		input: (p) => [{ json: { id: p.leadId } }],
	},
	{
		...RESOURCE,
		operation: 'create',
		parameters: (p) => ({
			...RESOURCE,
			operation: 'create',
			title: 'Schema guide',
			type: 'article',
			additionalFields: { description: 'How to map fields', tags: 'docs', ctaId: p.ctaId },
		}),
	},
	{
		...RESOURCE,
		operation: 'get',
		parameters: (p) => ({ ...RESOURCE, operation: 'get', resourceId: byId(p.draftId) }),
	},
	{
		...RESOURCE,
		operation: 'getAll',
		parameters: () => ({ ...RESOURCE, operation: 'getAll', limit: 20 }),
	},
	{
		...RESOURCE,
		operation: 'update',
		parameters: (p) => ({
			...RESOURCE,
			operation: 'update',
			resourceId: byId(p.draftId),
			updateFields: { title: 'Draft 2' },
		}),
	},
	{
		...RESOURCE,
		operation: 'publish',
		parameters: (p) => ({ ...RESOURCE, operation: 'publish', resourceId: byId(p.toPublishId) }),
	},
	{
		...RESOURCE,
		operation: 'archive',
		parameters: (p) => ({ ...RESOURCE, operation: 'archive', resourceId: byId(p.toArchiveId) }),
	},
	{
		...RESOURCE,
		operation: 'delete',
		parameters: (p) => ({ ...RESOURCE, operation: 'delete', resourceId: byId(p.toDeleteId) }),
	},
	{
		resource: 'analytics',
		operation: 'getOverview',
		parameters: () => ({ ...ANALYTICS, operation: 'getOverview' }),
	},
	{
		resource: 'analytics',
		operation: 'getResourceRanking',
		parameters: () => ({ ...ANALYTICS, operation: 'getResourceRanking', limit: 10 }),
	},
	{
		resource: 'analytics',
		operation: 'getResourceAnalytics',
		parameters: (p) => ({
			...ANALYTICS,
			operation: 'getResourceAnalytics',
			resourceId: byId(p.toArchiveId),
		}),
	},
	{
		resource: 'analytics',
		operation: 'getChannels',
		parameters: () => ({ ...ANALYTICS, operation: 'getChannels' }),
	},
	{
		resource: 'analytics',
		operation: 'getLeadTrend',
		parameters: () => ({ ...ANALYTICS, operation: 'getLeadTrend' }),
	},
	{
		resource: 'analytics',
		operation: 'getFunnel',
		parameters: () => ({ ...ANALYTICS, operation: 'getFunnel' }),
	},
	{
		...WEBHOOK,
		operation: 'create',
		parameters: (p) => ({
			...WEBHOOK,
			operation: 'create',
			url: `${p.receiverUrl}/created`,
			events: ['lead.created', 'lead.status_updated'],
			additionalFields: { description: 'n8n: new leads' },
		}),
	},
	{
		...WEBHOOK,
		operation: 'get',
		parameters: (p) => ({ ...WEBHOOK, operation: 'get', webhookId: byId(p.webhookId) }),
	},
	{
		...WEBHOOK,
		operation: 'getAll',
		parameters: () => ({ ...WEBHOOK, operation: 'getAll', limit: 20 }),
	},
	{
		...WEBHOOK,
		operation: 'update',
		parameters: (p) => ({
			...WEBHOOK,
			operation: 'update',
			webhookId: byId(p.webhookId),
			updateFields: { description: 'renamed' },
		}),
	},
	{
		...WEBHOOK,
		operation: 'sendTest',
		parameters: (p) => ({ ...WEBHOOK, operation: 'sendTest', webhookId: byId(p.webhookId) }),
	},
	{
		...WEBHOOK,
		operation: 'delete',
		parameters: (p) => ({ ...WEBHOOK, operation: 'delete', webhookId: byId(p.webhookToDeleteId) }),
	},
];

/** `__schema__/<resource>/<operation>.json` below the node's folder (one copy per node version in dist/). */
export function schemaFile(schemaCase: Pick<SchemaCase, 'resource' | 'operation'>): string {
	return `${schemaCase.resource}/${schemaCase.operation}.json`;
}
