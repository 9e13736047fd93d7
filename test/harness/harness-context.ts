import type { INode, INodeCredentials, INodeParameters } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessUrls } from './additional-data';
import type { HarnessCredentialsHelper } from './credentials-helper';
import type { HarnessNodeTypes } from './node-types';
import { completeNodes } from './workflow';

/** What the harness' parts share: node types, the credential store and the current base URLs. */
export interface HarnessContext {
	nodeTypes: HarnessNodeTypes;
	credentials: HarnessCredentialsHelper;
	urls(): HarnessUrls;
	/** A fresh execution id, remembered so the harness can delete the execution's binary data. */
	nextExecutionId(workflowId: string): string;
}

/**
 * Credentials for a node: the given type -> id map, or (if none is given) every credential type
 * the node's description lists that the harness holds data for.
 */
export function nodeCredentials(
	context: HarnessContext,
	type: string,
	typeVersion: number | undefined,
	explicit: Record<string, string> | undefined,
): INodeCredentials | undefined {
	const credentials: INodeCredentials = {};
	if (explicit !== undefined) {
		for (const [credentialType, id] of Object.entries(explicit)) {
			const stored = context.credentials.get(credentialType, id);
			if (stored === undefined)
				throw new UnexpectedError(`No "${credentialType}" credential with id "${id}"`);
			credentials[credentialType] = { id, name: stored.name };
		}
	} else {
		const version = typeVersion ?? context.nodeTypes.defaultVersion(type);
		const described = context.nodeTypes.getByNameAndVersion(type, version).description.credentials;
		for (const { name: credentialType } of described ?? []) {
			const reference = context.credentials.referenceFor(credentialType);
			if (reference !== undefined) credentials[credentialType] = reference;
		}
	}
	return Object.keys(credentials).length > 0 ? credentials : undefined;
}

/** The one node a trigger harness runs (webhook or poll), as n8n stores it, with its credentials. */
export function triggerNodeJson(
	context: HarnessContext,
	options: {
		name: string;
		type: string;
		typeVersion?: number;
		parameters?: INodeParameters;
		credentials?: Record<string, string>;
		webhookId?: string;
	},
): INode {
	const credentials = nodeCredentials(
		context,
		options.type,
		options.typeVersion,
		options.credentials,
	);
	const [json] = completeNodes(
		[
			{
				name: options.name,
				type: options.type,
				typeVersion: options.typeVersion,
				parameters: options.parameters ?? {},
				credentials,
				webhookId: options.webhookId,
			},
		],
		context.nodeTypes,
	);
	return json;
}
