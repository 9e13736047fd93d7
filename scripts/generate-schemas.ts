// npm run schemas: runs every operation of the Content Marketing node once through n8n's engine against a
// sandbox with its demo data and writes the JSON Schema of its output items to
// nodes/ContentMarketing/__schema__/<resource>/<operation>.json. scripts/build.mjs copies them to
// dist/nodes/ContentMarketing/__schema__/v<version>/..., where n8n serves them to the editor
// (GET /schemas/<node type>/<version>/<resource>/<operation>.json) so fields can be mapped before a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { SCHEMA_CASES, prepare, schemaFile } from './schemas/cases';
import { inferSchema } from './schemas/infer';

const root = path.resolve(__dirname, '..');
process.env.N8N_USER_FOLDER ??= path.join(root, '.n8n-test');
const NODE_TYPE = 'n8n-nodes-content-marketing.contentMarketing';
const OUT = path.join(root, 'nodes', 'ContentMarketing', '__schema__');

async function main(): Promise<void> {
	const { startSandbox } = await import('../sandbox/src/server');
	const { createExampleHarness } = await import('../test/harness');
	const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seedDemo: true });
	const receiver = createServer((_request, response) => response.end('ok'));
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const harness = await createExampleHarness({ url: sandbox.url, apiKey: sandbox.keys.full });
	try {
		const api = {
			async api(method: string, urlPath: string, body?: unknown) {
				const response = await fetch(`${sandbox.url}${urlPath}`, {
					method,
					headers: {
						authorization: `Bearer ${sandbox.keys.full}`,
						...(body === undefined ? {} : { 'content-type': 'application/json' }),
					},
					body: body === undefined ? undefined : JSON.stringify(body),
				});
				const text = await response.text();
				return { status: response.status, body: (text ? JSON.parse(text) : {}) as IDataObject };
			},
		};
		const prepared = await prepare(
			api,
			`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
		);
		for (const schemaCase of SCHEMA_CASES) {
			const result = await harness.runNode({
				type: NODE_TYPE,
				parameters: schemaCase.parameters(prepared),
				input: schemaCase.input?.(prepared),
			});
			if (result.error)
				throw new Error(
					`${schemaCase.resource} › ${schemaCase.operation}: ${result.error.message}`,
				);
			const items = result.items.map((item) => item.json);
			if (items.length === 0)
				throw new Error(`${schemaCase.resource} › ${schemaCase.operation}: no output`);
			const file = path.join(OUT, schemaFile(schemaCase));
			mkdirSync(path.dirname(file), { recursive: true });
			writeFileSync(file, `${JSON.stringify(inferSchema(items), null, '\t')}\n`);
			console.log(
				`  ${path.relative(root, file)} (${items.length} item${items.length === 1 ? '' : 's'})`,
			);
		}
	} finally {
		await harness.close();
		receiver.close();
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
