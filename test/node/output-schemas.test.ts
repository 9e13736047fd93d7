// The output schemas the package ships for n8n's editor (GET /schemas/<node type>/<version>/<resource>/
// <operation>.json, served from dist/nodes/ContentMarketing/__schema__/v<version>/): one per operation and
// node version, in the form the editor accepts, and each matching what the operation really outputs now.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { IDataObject, INodeTypeDescription } from 'n8n-workflow';

import { SCHEMA_CASES, prepare, schemaFile, type Prepared } from '../../scripts/schemas/cases';
import { misfit, type JsonSchema } from '../../scripts/schemas/infer';
import { checksOperation } from './checked-operation';
import { NodeTestBed, PACKAGE_ROOT } from './node-test-bed';

const bed = NodeTestBed.forFile({ resetEachTest: false });
const NODE_DIR = path.join(PACKAGE_ROOT, 'dist', 'nodes', 'ContentMarketing');
let receiver: Server;
let prepared: Prepared;

beforeAll(async () => {
	await bed.reset();
	await bed.control.post('/_sandbox/seed', { demo: true });
	receiver = createServer((_request, response) => response.end('ok'));
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const api = {
		api: async (method: string, urlPath: string, body?: unknown) =>
			await bed.api.call<IDataObject>(method, urlPath, { json: body }),
	};
	prepared = await prepare(api, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`);
});

afterAll(async () => {
	await new Promise((resolve) => receiver.close(resolve));
});

/** resource/operation of every operation the node offers. */
function operations(): string[] {
	const description = bed.harness.nodeTypes.getByNameAndVersion(bed.nodeType)
		.description as INodeTypeDescription;
	return description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => {
			const [resource] = property.displayOptions?.show?.resource as string[];
			return (property.options ?? []).map(
				(option) => `${resource}/${String((option as { value: string }).value)}`,
			);
		})
		.sort();
}

function shipped(version: string, file: string): JsonSchema {
	return JSON.parse(
		readFileSync(path.join(NODE_DIR, '__schema__', version, file), 'utf8'),
	) as JsonSchema;
}

test('a schema for every operation and node version, in the form the editor accepts', () => {
	const description = bed.harness.nodeTypes.getByNameAndVersion(bed.nodeType)
		.description as INodeTypeDescription;
	const versions = [description.version]
		.flat()
		.map((version) => `v${String(version).split('.').concat(['0', '0']).slice(0, 3).join('.')}`);
	expect(versions).toEqual(['v1.0.0', 'v1.1.0']);
	expect(
		SCHEMA_CASES.map((schemaCase) => `${schemaCase.resource}/${schemaCase.operation}`).sort(),
	).toEqual(operations());
	for (const version of versions) {
		for (const operation of operations()) {
			expect(existsSync(path.join(NODE_DIR, '__schema__', version, `${operation}.json`))).toBe(
				true,
			);
			// The editor's isNonEmptyJsonSchema: an object with a type and at least one property.
			const schema = shipped(version, `${operation}.json`);
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
		}
	}
});

test.each(
	SCHEMA_CASES.filter((schemaCase) =>
		checksOperation(`${schemaCase.resource}.${schemaCase.operation}`),
	).map((schemaCase) => [`${schemaCase.resource} › ${schemaCase.operation}`, schemaCase] as const),
)('%s: the real output fits the shipped schema, field for field', async (_label, schemaCase) => {
	const result = await bed.run(schemaCase.parameters(prepared), {
		input: schemaCase.input?.(prepared),
	});
	expect(result.error).toBeUndefined();
	expect(result.items.length).toBeGreaterThan(0);
	const schema = shipped('v1.1.0', schemaFile(schemaCase));
	expect(
		result.items.map((item) => misfit(schema, item.json)).filter((problem) => problem !== ''),
	).toEqual([]);
});
