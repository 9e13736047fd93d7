// The set-up the single-n8n figures share: a fresh user folder holding the package, the bench credential
// for the sandbox, the figure's workflows, those named published, before its n8n starts.
import { importJson, prepareUserFolder, runN8nOk } from '../scripts/e2e/n8n.mjs';
import { CREDENTIAL } from './workflow.mjs';

/**
 * Fills `userFolder` (made by the caller, who removes it) for an n8n that talks to `sandbox`; `env` is
 * the environment of the n8n commands it runs.
 */
export async function prepareBenchFolder(userFolder, sandbox, workflows, publishedIds, env = {}) {
	prepareUserFolder(userFolder, { clean: true });
	const opts = { userFolder, env };
	await importJson(
		'import:credentials',
		[{ ...CREDENTIAL, data: { apiKey: sandbox.keys.full, baseUrl: sandbox.url } }],
		opts,
	);
	await importJson('import:workflow', workflows, opts);
	for (const id of publishedIds) await runN8nOk(['publish:workflow', `--id=${id}`], opts);
}
