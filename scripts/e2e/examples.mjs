// The example workflows (examples/*.json) and the credentials they reference, made ready to import
// into a test n8n: credentials pointing at the sandbox and the SMTP sink, and the few values a user
// would change (file path, download URL) set for this machine.
import fs from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from './install-n8n.mjs';
import { importJson } from './n8n.mjs';

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, 'examples');
export const CSV_FILE = path.join(EXAMPLES_DIR, 'data', 'leads.csv');
/** The import-without-duplicates example's rows (an e-mail repeated in another case and with a space). */
export const IMPORT_CSV_FILE = path.join(EXAMPLES_DIR, 'data', 'leads-to-import.csv');

/** Credential ids and names as the example workflows reference them. */
export const CREDENTIALS = {
	contentMarketing: {
		id: 'cmExampleCred0001',
		name: 'Content Marketing account',
		type: 'contentMarketingApi',
	},
	smtp: { id: 'smtpExampleCred01', name: 'SMTP account', type: 'smtp' },
};

export const WORKFLOWS = {
	newLead: { file: 'new-lead-to-crm-and-email.json', id: 'cmNewLeadToCrmEmail' },
	digest: { file: 'weekly-analytics-digest.json', id: 'cmWeeklyDigest' },
	bulkImport: { file: 'bulk-import-leads-from-spreadsheet.json', id: 'cmBulkImportLeads' },
	importWithoutDuplicates: {
		file: 'import-leads-without-duplicates.json',
		id: 'cmImportNoDuplicates',
	},
	uploadPdf: { file: 'upload-pdf-publish-and-report-link.json', id: 'cmUploadPdfPublish' },
	tour: { file: 'content-marketing-tour.json', id: 'cmContentMarketingTour' },
};

export function readExample(key) {
	const workflow = JSON.parse(
		fs.readFileSync(path.join(EXAMPLES_DIR, WORKFLOWS[key].file), 'utf8'),
	);
	if (workflow.id !== WORKFLOWS[key].id)
		throw new Error(`${WORKFLOWS[key].file}: id is ${workflow.id}, expected ${WORKFLOWS[key].id}`);
	return workflow;
}

export function findNode(workflow, name) {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`workflow "${workflow.name}" has no node "${name}"`);
	return node;
}

/** `import:credentials` input: plain data, encrypted by n8n with the e2e key. */
export function credentialsFor({ sandboxUrl, apiKey, smtpPort }) {
	const { contentMarketing, smtp } = CREDENTIALS;
	return [
		{ ...contentMarketing, data: { apiKey, baseUrl: sandboxUrl } },
		{
			...smtp,
			data: {
				user: '',
				password: '',
				host: '127.0.0.1',
				port: smtpPort,
				secure: false,
				disableStartTls: true,
				hostName: '',
			},
		},
	];
}

/** All examples, with the CSV path and the PDF URL of this machine. */
export function workflowsFor({ sandboxUrl, csvFile = CSV_FILE }) {
	const bulk = readExample('bulkImport');
	findNode(bulk, 'Read leads.csv').parameters.fileSelector = csvFile;
	const upsert = readExample('importWithoutDuplicates');
	findNode(upsert, 'Read leads-to-import.csv').parameters.fileSelector = IMPORT_CSV_FILE;
	const upload = readExample('uploadPdf');
	findNode(upload, 'Download PDF').parameters.url = `${sandboxUrl}/_sandbox/files/sample.pdf`;
	return [readExample('newLead'), readExample('digest'), bulk, upsert, upload, readExample('tour')];
}

/** The package name our nodes' types start with (`n8n-nodes-content-marketing.contentMarketing`). */
export const PACKAGE_NAME = 'n8n-nodes-content-marketing';
/**
 * The package name n8n gives every node it loads from `<user folder>/.n8n/custom/` (n8n-core's
 * CUSTOM_NODES_PACKAGE_NAME), where `n8n-node dev` links the project: there our nodes are
 * `CUSTOM.contentMarketing`, ... Credential types carry no package name and stay as they are.
 */
export const CUSTOM_PACKAGE_NAME = 'CUSTOM';

/** The workflow with our nodes' types as n8n names them when loaded from the custom folder. */
export function withCustomNodeTypes(workflow) {
	const prefix = `${PACKAGE_NAME}.`;
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.startsWith(prefix)
				? { ...node, type: `${CUSTOM_PACKAGE_NAME}.${node.type.slice(prefix.length)}` }
				: node,
		),
	};
}

/** n8n 2.x reads files only below N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files). */
export const n8nFileAccessEnv = { N8N_RESTRICT_FILE_ACCESS_TO: path.dirname(CSV_FILE) };

/** Minimal CSV reader for the shipped leads.csv (quoted fields, no newlines inside them). */
export function readCsv(file = CSV_FILE) {
	const rows = fs
		.readFileSync(file, 'utf8')
		.split(/\r?\n/)
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const cells = [];
			let cell = '';
			let quoted = false;
			for (let i = 0; i < line.length; i++) {
				const c = line[i];
				if (quoted && c === '"' && line[i + 1] === '"') {
					cell += '"';
					i++;
				} else if (c === '"') {
					quoted = !quoted;
				} else if (c === ',' && !quoted) {
					cells.push(cell);
					cell = '';
				} else {
					cell += c;
				}
			}
			cells.push(cell);
			return cells;
		});
	const [header, ...body] = rows;
	return body.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

/**
 * Imports the Content Marketing credential for `sandbox`'s full key into the n8n of `cli`
 * (`{ userFolder, env }`, n8n stopped); resolves to its id.
 */
export async function importSandboxCredential(sandbox, cli) {
	const [credential] = credentialsFor({
		sandboxUrl: sandbox.url,
		apiKey: sandbox.keys.full,
		smtpPort: 25,
	});
	await importJson('import:credentials', [credential], cli);
	return credential.id;
}
