// Static check of the example workflows against the node types they use (ours from dist/, n8n's from
// the installed n8n-nodes-base): each typeVersion exists and every parameter set in the JSON is one
// the node defines for that version and the chosen options. n8n ignores unknown parameters, so a
// renamed one would otherwise fall back to its default without a word.
import path from 'node:path';

import { readExample, WORKFLOWS } from './examples.mjs';
import { PROJECT_ROOT } from './install-n8n.mjs';
import { n8nRequire } from './n8n.mjs';

const OUR_PACKAGE = 'n8n-nodes-content-marketing';

function nodeFiles() {
	const files = new Map();
	const base = n8nRequire('n8n-nodes-base/package.json');
	for (const rel of base.n8n.nodes)
		files.set(
			`n8n-nodes-base.${path.basename(rel, '.node.js')}`.toLowerCase(),
			n8nRequire.resolve(`n8n-nodes-base/${rel}`),
		);
	const ours = n8nRequire(path.join(PROJECT_ROOT, 'package.json'));
	for (const rel of ours.n8n.nodes)
		files.set(
			`${OUR_PACKAGE}.${path.basename(rel, '.node.js')}`.toLowerCase(),
			path.join(PROJECT_ROOT, rel),
		);
	return files;
}

/** The node type description for `type` at `typeVersion`, or an error message. */
function describeNode(files, type, typeVersion) {
	const file = files.get(type.toLowerCase());
	if (!file) return { error: `unknown node type ${type}` };
	const NodeClass = Object.values(n8nRequire(file)).find((value) => typeof value === 'function');
	const instance = new NodeClass();
	const description = instance.nodeVersions
		? instance.nodeVersions[typeVersion]?.description
		: instance.description;
	const name = instance.nodeVersions ? instance.description.name : description?.name;
	if (`${type.split('.')[0]}.${name}` !== type)
		return { error: `${file} defines ${name}, not ${type}` };
	const versions = [description?.version ?? []].flat();
	if (!description || !versions.includes(typeVersion))
		return { error: `${type} has no typeVersion ${typeVersion}` };
	return { description };
}

function unknownKeys(given, known, prefix = '') {
	const missing = [];
	for (const [key, value] of Object.entries(given)) {
		if (known === null || typeof known !== 'object' || !(key in known))
			missing.push(`${prefix}${key}`);
		else if (value && typeof value === 'object' && !Array.isArray(value))
			missing.push(...unknownKeys(value, known[key], `${prefix}${key}.`));
	}
	return missing;
}

export function checkExampleParameters() {
	const { NodeHelpers } = n8nRequire('n8n-workflow');
	const files = nodeFiles();
	const problems = [];
	let count = 0;
	for (const key of Object.keys(WORKFLOWS)) {
		const workflow = readExample(key);
		for (const node of workflow.nodes) {
			count++;
			const where = `${WORKFLOWS[key].file} › ${node.name}`;
			const { description, error } = describeNode(files, node.type, node.typeVersion);
			if (error) {
				problems.push(`${where}: ${error}`);
				continue;
			}
			const resolved = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters,
				true,
				false,
				node,
				description,
			);
			const unknown = unknownKeys(node.parameters, resolved);
			if (unknown.length)
				problems.push(`${where}: parameters the node does not define here: ${unknown.join(', ')}`);
		}
	}
	if (problems.length)
		throw new Error(
			`the example workflows do not match the node types:\n  ${problems.join('\n  ')}`,
		);
	return { detail: `${count} nodes in ${Object.keys(WORKFLOWS).length} workflows` };
}
