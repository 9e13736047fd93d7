// Which n8n this run loaded. `npm test` runs the suites twice: on n8n 2.8's packages (the project's
// devDependencies, Node 20) and on n8n 2.41's (compat/n8n-2.41/, Node 24, scripts/test-gen2.mjs, which
// names that manifest in CM_N8N_MANIFEST). The built package must get the same n8n-workflow as the engine,
// as its peer dependency does inside a real n8n.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const root = path.resolve(__dirname, '..', '..');
const manifestPath = process.env.CM_N8N_MANIFEST ?? path.join(root, 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
	dependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
};
const pinned = { ...manifest.devDependencies, ...manifest.dependencies };

/** The package.json of the copy of `name` that `require` loads (packages' `exports` hide it). */
function installed(name: string, from?: string): { version: string; dir: string } {
	let dir = path.dirname(require.resolve(name, from === undefined ? undefined : { paths: [from] }));
	while (!existsSync(path.join(dir, 'package.json')) || !isPackage(dir, name)) {
		const parent = path.dirname(dir);
		if (parent === dir) throw new Error(`no package.json of ${name} above its main file`);
		dir = parent;
	}
	const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
		version: string;
	};
	return { version, dir };
}

function isPackage(dir: string, name: string): boolean {
	return (
		(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name ===
		name
	);
}

describe(`the run loads the n8n packages ${path.relative(root, manifestPath)} pins`, () => {
	test.each(['n8n-core', 'n8n-workflow'])(`%s`, (name) => {
		expect(pinned[name]).toBeDefined();
		expect(installed(name).version).toBe(pinned[name]);
		expect(path.relative(path.dirname(manifestPath), installed(name).dir)).toBe(
			path.join('node_modules', name),
		);
	});

	test(`the built package gets the engine's n8n-workflow ${pinned['n8n-workflow']}`, () => {
		const dist = path.join(root, 'dist', 'nodes', 'ContentMarketing', 'helpers');
		expect(installed('n8n-workflow', dist)).toEqual(installed('n8n-workflow'));
		// The same module instance, not only the same version: an error the built code creates is the
		// class the engine checks against.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled file, as n8n loads it
		const { invalidField } = require(path.join(dist, 'itemErrors.js')) as {
			invalidField: (
				this: { getNode(): INode },
				field: string,
				problem: string,
				itemIndex: number,
			) => Error;
		};
		const node: INode = {
			id: 'n',
			name: 'Content Marketing',
			type: 'cm',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		expect(invalidField.call({ getNode: () => node }, 'Email', 'is required', 0)).toBeInstanceOf(
			NodeOperationError,
		);
	});
});
