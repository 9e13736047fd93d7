import type {
	IDataObject,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

export type AnyNodeType = INodeType | IVersionedNodeType;

/** In-memory registry of node types, keyed by full type name (e.g. `n8n-nodes-foo.bar`). */
export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, AnyNodeType>();

	add(typeName: string, type: AnyNodeType): void {
		this.types.set(typeName, type);
	}

	has(typeName: string): boolean {
		return this.types.has(typeName);
	}

	typeNames(): string[] {
		return [...this.types.keys()];
	}

	getByName(typeName: string): AnyNodeType {
		const type = this.types.get(typeName);
		if (type === undefined) {
			throw new UnexpectedError(
				`Unknown node type "${typeName}". Known types: ${this.typeNames().join(', ')}`,
			);
		}
		return type;
	}

	getByNameAndVersion(typeName: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(typeName), version);
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const typeName of this.types.keys())
			known[typeName] = { className: typeName, sourcePath: '' };
		return known;
	}

	/** The version n8n's editor would give a newly added node of this type. */
	defaultVersion(typeName: string): number {
		const type = this.getByName(typeName);
		if (isVersioned(type)) return type.currentVersion;
		return latestVersion(type.description);
	}
}

export function isVersioned(type: AnyNodeType): type is IVersionedNodeType {
	return 'nodeVersions' in type;
}

function latestVersion(description: INodeTypeDescription): number {
	const { version, defaultVersion } = description;
	if (defaultVersion !== undefined) return defaultVersion;
	return Array.isArray(version) ? Math.max(...version) : version;
}
