import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UserError, Workflow, isExpression } from 'n8n-workflow';

import type { HarnessCredentialTypes } from './credential-types';
import { HarnessNodeTypes } from './node-types';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export const DEFAULT_CREDENTIAL_ID = '1';

const mockNode: INode = {
	id: 'credentials-mock-node',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

/**
 * n8n's CredentialsHelper (packages/cli/src/credentials-helper.ts) with the database replaced
 * by an in-memory store of decrypted data, keyed by credential type and id.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, Map<string, StoredCredential>>();

	constructor(private readonly credentialTypes: HarnessCredentialTypes) {
		super();
	}

	/** Stores (or replaces) decrypted data for a credential; returns the reference nodes use. */
	set(
		type: string,
		data: ICredentialDataDecryptedObject,
		{ id = DEFAULT_CREDENTIAL_ID, name = `${type} account` }: { id?: string; name?: string } = {},
	): INodeCredentialsDetails {
		this.credentialTypes.getByName(type);
		const byId = this.store.get(type) ?? new Map<string, StoredCredential>();
		byId.set(id, { id, name, type, data: structuredClone(data) });
		this.store.set(type, byId);
		return { id, name };
	}

	/** The stored (raw, decrypted) data, e.g. to assert what `updateCredentials` wrote. */
	get(type: string, id = DEFAULT_CREDENTIAL_ID): StoredCredential | undefined {
		const stored = this.store.get(type)?.get(id);
		return stored === undefined ? undefined : structuredClone(stored);
	}

	/** Reference to the first stored credential of a type, if any. */
	referenceFor(type: string): INodeCredentialsDetails | undefined {
		const first = this.store.get(type)?.values().next().value;
		return first === undefined ? undefined : { id: first.id, name: first.name };
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	/**
	 * n8n 2.41's engine asks this before handing a node its credential (n8n's CredentialsHelper: an
	 * unknown type passes, a type with `restrictToSupportedNodes` only serves its `supportedNodes`);
	 * n8n 2.8 never calls it.
	 */
	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type: ICredentialType & { restrictToSupportedNodes?: boolean } =
			this.credentialTypes.getByName(credentialType);
		if (type.restrictToSupportedNodes !== true) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getProperties(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}

		if (requestOptions.headers === undefined) requestOptions.headers = {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<
				string,
				Record<string, unknown> | undefined
			>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(
						value as string,
						{ $credentials: credentials },
						workflow,
						node,
					);
					const section = target[outerKey] ?? {};
					section[keyResolved] = valueResolved;
					target[outerKey] = section;
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirableProperty === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		if (credentials[expirableProperty.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirableProperty.name] === undefined) return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		if (nodeCredentials === undefined) return undefined;
		const stored = this.findStored(nodeCredentials, credentialType.name);
		await this.updateCredentials(nodeCredentials, credentialType.name, {
			...stored.data,
			...(output as ICredentialDataDecryptedObject),
		});
		return Object.assign(credentials, output);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const stored = this.findStored(nodeCredentials, type);
		const credentials = new Credentials({ id: stored.id, name: stored.name }, type);
		credentials.setData(stored.data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const original = structuredClone(this.findStored(nodeCredentials, type).data);
		if (raw === true) return original;

		let decrypted = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) decrypted.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { secretsEnabled: false });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			decrypted = workflow.expression.getParameterValue(
				decrypted as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decrypted,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({
				nodes: [],
				connections: {},
				active: false,
				nodeTypes: new HarnessNodeTypes(),
			});
			decrypted = workflow.expression.getComplexParameterValue(
				mockNode,
				decrypted as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decrypted,
			) as ICredentialDataDecryptedObject;
		}
		return decrypted;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.findStored(nodeCredentials, type);
		stored.data = structuredClone(data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.findStored(nodeCredentials, type);
		stored.data = { ...stored.data, oauthTokenData: structuredClone(data.oauthTokenData) };
	}

	private findStored(nodeCredentials: INodeCredentialsDetails, type: string): StoredCredential {
		if (!nodeCredentials.id) {
			throw new UserError(`The credential "${nodeCredentials.name}" of type "${type}" has no ID`);
		}
		const stored = this.store.get(type)?.get(nodeCredentials.id);
		if (stored === undefined) {
			throw new UserError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		return stored;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		return value ? value.toString() : '';
	}
}
