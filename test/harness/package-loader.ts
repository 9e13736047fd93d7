import { PackageDirectoryLoader } from 'n8n-core';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from 'n8n-workflow';

import type { HarnessCredentialTypes } from './credential-types';
import type { HarnessNodeTypes } from './node-types';

export interface LoadedPackage {
	packageName: string;
	/** Full node type names, e.g. `n8n-nodes-foo.fooTrigger`. */
	nodeTypes: string[];
	credentialTypes: string[];
}

/**
 * Loads a community package's nodes and credentials with n8n-core's own PackageDirectoryLoader
 * (package.json `n8n.nodes` / `n8n.credentials`), registering nodes under `<package>.<name>`
 * as n8n's LoadNodesAndCredentials does.
 */
export async function loadPackage(
	packageRoot: string,
	nodeTypes: HarnessNodeTypes,
	credentialTypes: HarnessCredentialTypes,
): Promise<LoadedPackage> {
	const loader = new PackageDirectoryLoader(packageRoot);
	const { n8n } = loader.packageJson;
	const missing = [...(n8n?.nodes ?? []), ...(n8n?.credentials ?? [])].filter(
		(file) => !existsSync(path.resolve(packageRoot, file)),
	);
	if (missing.length > 0) {
		throw new UserError(
			`${loader.packageName} is not built (missing ${missing.join(', ')}); run \`node scripts/build.mjs\` first`,
		);
	}
	await loader.loadAll();

	const { packageName } = loader;
	const loaded: LoadedPackage = { packageName, nodeTypes: [], credentialTypes: [] };
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		nodeTypes.add(`${packageName}.${name}`, type);
		loaded.nodeTypes.push(`${packageName}.${name}`);
	}
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		const supportedNodes = loader.known.credentials[name]?.supportedNodes ?? [];
		credentialTypes.add(
			type,
			supportedNodes.map((node) => `${packageName}.${node}`),
		);
		loaded.credentialTypes.push(name);
	}
	return loaded;
}
