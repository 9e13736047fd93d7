// Calls the node's list searches and load options as n8n's editor does: through n8n-core's
// LoadOptionsContext for a node of a workflow, with the credential from the test bed's harness.
import { LoadOptionsContext } from 'n8n-core';
import type {
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { createAdditionalData } from '../harness/additional-data';
import { CREDENTIAL, type NodeTestBed } from './node-test-bed';

function context(bed: NodeTestBed, parameterPath = 'parameters.leadId'): ILoadOptionsFunctions {
	const node: INode = {
		id: 'cm',
		name: 'Content Marketing',
		type: bed.nodeType,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'lead', operation: 'get' },
		credentials: { [CREDENTIAL]: { id: '1', name: 'Content Marketing account' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: bed.harness.nodeTypes,
	});
	const additionalData = createAdditionalData({
		credentialsHelper: bed.harness.credentials,
		urls: bed.harness.urls(),
	});
	return new LoadOptionsContext(workflow, node, additionalData, parameterPath);
}

function nodeType(bed: NodeTestBed): INodeType {
	return NodeHelpers.getVersionedNodeType(bed.harness.nodeTypes.getByName(bed.nodeType), 1);
}

export async function listSearch(
	bed: NodeTestBed,
	method: string,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> {
	const search = nodeType(bed).methods?.listSearch?.[method];
	if (search === undefined) throw new Error(`no list search ${method}`);
	return await search.call(context(bed), filter, token);
}

export async function loadOptions(
	bed: NodeTestBed,
	method: string,
): Promise<INodePropertyOptions[]> {
	const load = nodeType(bed).methods?.loadOptions?.[method];
	if (load === undefined) throw new Error(`no load options ${method}`);
	return await load.call(context(bed));
}
