import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../helpers/itemErrors';
import * as analytics from './analytics';
import * as contentResource from './contentResource';
import * as lead from './lead';
import type { Operation, ResourceName } from './types';
import * as webhookEndpoint from './webhookEndpoint';

/** Every operation of the node, by resource (scripts/schemas/cases.ts runs each one's example). */
export const resources: Record<ResourceName, Record<string, Operation>> = {
	analytics: analytics.operations,
	contentResource: contentResource.operations,
	lead: lead.operations,
	webhookEndpoint: webhookEndpoint.operations,
};

/** Runs the chosen operation over all input items; every error leaves as a NodeApiError or NodeOperationError. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as ResourceName;
	const operation = this.getNodeParameter('operation', 0) as string;
	const operations = Object.prototype.hasOwnProperty.call(resources, resource)
		? resources[resource]
		: {};
	const selected = Object.prototype.hasOwnProperty.call(operations, operation)
		? operations[operation]
		: undefined;
	if (selected === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	try {
		return [await selected.execute.call(this, items)];
	} catch (error) {
		throw asNodeError(this.getNode(), error);
	}
}
