// One real run per operation of the Content Marketing node, against a sandbox with its demo data: the
// answers that scripts/generate-schemas.ts turns into the shipped output schemas and that
// test/node/output-schemas.test.ts checks them against.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { resources } from '../../nodes/ContentMarketing/actions/router';
import type { ExampleIds } from '../../nodes/ContentMarketing/actions/types';

export interface SchemaApi {
	api(method: string, path: string, body?: unknown): Promise<{ status: number; body: IDataObject }>;
}

/** The objects the cases work on, created once by `prepare`. */
export type Prepared = ExampleIds;

export interface SchemaCase {
	resource: string;
	operation: string;
	parameters: (prepared: Prepared) => INodeParameters;
	input?: (prepared: Prepared) => INodeExecutionData[];
}

async function created(api: SchemaApi, path: string, body: unknown): Promise<string> {
	const answer = await api.api('POST', path, body);
	if (answer.status >= 300)
		throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
	return String(answer.body.id);
}

/** A lead with every field filled (and one to delete), resources in each state, two webhook endpoints to a local receiver. */
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
	const leadToDeleteId = await created(api, '/v1/leads', {
		email: `schema.delete.${Date.now()}@example.com`,
	});
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
		leadToDeleteId,
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

/**
 * One case per operation of the node, from the example declared next to it (`example` in
 * `<operation>.operation.ts`): adding an operation adds its case.
 */
export const SCHEMA_CASES: SchemaCase[] = Object.entries(resources).flatMap(
	([resource, operations]) =>
		Object.entries(operations).map(([operation, { example }]): SchemaCase => {
			const { parameters, input } = example;
			return {
				resource,
				operation,
				parameters: (prepared) => ({ resource, operation, ...parameters(prepared) }),
				input: input && ((prepared) => input(prepared).map((json) => ({ json }))),
			};
		}),
);

/** `__schema__/<resource>/<operation>.json` below the node's folder (one copy per node version in dist/). */
export function schemaFile(schemaCase: Pick<SchemaCase, 'resource' | 'operation'>): string {
	return `${schemaCase.resource}/${schemaCase.operation}.json`;
}
