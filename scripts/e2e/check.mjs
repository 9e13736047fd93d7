// npm run test:e2e: the examples on a real n8n 2.8.4 against the sandbox, end to end.
// Installs n8n if needed, builds the package, runs the Manual-Trigger examples headless, then the
// trigger example under `n8n start`. Exits non-zero, naming the failed step, on any failure.
import path from 'node:path';

import { checkBulkImport, checkDigest, checkTour, checkUploadPdf } from './check-manual-examples.mjs';
import { checkExampleParameters } from './check-parameters.mjs';
import { checkPollTrigger } from './check-poll-trigger.mjs';
import { checkCompanyLead, checkEndpoint, checkFilteredLead, checkTestWebhook, publishTrigger, startServer } from './check-trigger.mjs';
import { N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { createProgress } from './progress.mjs';
import { createStack } from './stack.mjs';

const userFolder = path.join(PROJECT_ROOT, '.cache', 'e2e-run');
const progress = createProgress({ prefix: 'e2e' });
const { step } = progress;
const stack = createStack({ userFolder });

let failure;
try {
	await stack.setUp({
		step,
		afterBuild: () => step('example workflows use node types, versions and parameters that exist', checkExampleParameters),
	});
	await step('bulk-import-leads-from-spreadsheet: n8n execute', () => checkBulkImport(stack));
	await step('upload-pdf-publish-and-report-link: n8n execute', () => checkUploadPdf(stack));
	await step('weekly-analytics-digest: n8n execute', () => checkDigest(stack));
	await step('content-marketing-tour: n8n execute', () => checkTour(stack));
	await step('new-lead-to-crm-and-email: publish', () => publishTrigger(stack));
	const n8n = await step('n8n start', () => startServer(stack));
	const endpoint = await step('one webhook endpoint registered in the sandbox', () => checkEndpoint(stack, n8n));
	await step('company lead -> 1 execution, CRM sync, sales e-mail', () => checkCompanyLead(stack, endpoint));
	await step('lead without company -> 1 execution, stopped by the filter', () => checkFilteredLead(stack, endpoint));
	await step('test webhook: listen, 1 manual execution, test endpoint deleted', () => checkTestWebhook(stack, n8n, endpoint));
	await checkPollTrigger(stack, step, n8n);
} catch (error) {
	failure = error;
} finally {
	await step('stop n8n, the SMTP sink and the sandbox', () => stack.close()).catch((error) => {
		failure ??= error;
	});
}

const total = progress.seconds().toFixed(1);
if (failure) {
	console.error(`\ne2e FAILED in step "${failure.step ?? 'unknown'}" after ${total} s (n8n ${N8N_VERSION}):\n${failure.stack ?? failure}`);
	process.exitCode = 1;
} else {
	const passed = progress.steps.filter((s) => s.ok).length;
	console.log(`\ne2e passed: ${passed} steps on n8n ${N8N_VERSION} (Node ${process.versions.node}) in ${total} s`);
}
