import type { ICredentialType, ICredentialTypes, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

/** In-memory registry of credential types, keyed by the credential type's `name`. */
export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	private readonly supportedNodes = new Map<string, string[]>();

	add(type: ICredentialType, supportedNodes: string[] = []): void {
		this.types.set(type.name, type);
		this.supportedNodes.set(type.name, supportedNodes);
	}

	recognizes(typeName: string): boolean {
		return this.types.has(typeName);
	}

	getByName(typeName: string): ICredentialType {
		const type = this.types.get(typeName);
		if (type === undefined) {
			throw new UnexpectedError(
				`Unknown credential type "${typeName}". Known types: ${[...this.types.keys()].join(', ')}`,
			);
		}
		return type;
	}

	getSupportedNodes(typeName: string): string[] {
		return this.supportedNodes.get(typeName) ?? [];
	}

	getParentTypes(typeName: string): string[] {
		const parents = this.getByName(typeName).extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	/** Properties of the type merged with its parents' (the type's own win), as n8n's CredentialsHelper does. */
	getProperties(typeName: string): INodeProperties[] {
		const type = this.getByName(typeName);
		if (type.extends === undefined) return type.properties;
		const combined: INodeProperties[] = [];
		for (const parent of type.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, type.properties);
		return combined;
	}
}
