// The editor a user sees: n8n's own UI in headless Chromium (Debian's package, driven by playwright-core),
// on a workflow with each of our nodes. Asserts what the canvas, the node panel and the node details view
// show: subtitles in the panel's words, the webhook trigger's notice on that trigger only, the Docs link
// opening the trigger's README section, the notices of Lead › Create and Create or Update, the hint of Max Parallel
// Requests on Get Many, the Time Zone option's labels, short action labels in the node panel (and a new
// node named after one), the credential's Test of an expired key and of a Base URL where nothing answers
// (n8n's own text, the Base URL's hint pointing to README's Troubleshooting, which explains it), the Poll Trigger's Fetch Test Event hint
// naming the options that are set, and Get Many running with a filter added and left empty. Screenshots of
// each view are left in .tmp/e2e-editor-<n8n version>/ to look at.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import os from 'node:os';
import path from 'node:path';

import { CREDENTIALS } from './examples.mjs';
import { N8N_VERSION, N8N_VERSIONS, PROJECT_ROOT } from './install-n8n.mjs';
import { E2E_OWNER, ownerCookie } from './n8n.mjs';

export const EDITOR_WORKFLOW_ID = 'cmE2eEditorCheck01';
const EXPIRED_CREDENTIAL = {
	id: 'cmE2eExpiredCred01',
	name: 'Content Marketing (expired key)',
	type: 'contentMarketingApi',
};
// A Base URL where nothing listens (the discard port): n8n's tester gets no answer, so no rule words it.
const NO_SERVER_CREDENTIAL = {
	id: 'cmE2eNoServerCred01',
	name: 'Content Marketing (nothing at the Base URL)',
	type: 'contentMarketingApi',
	baseUrl: 'http://127.0.0.1:9',
};
// What n8n's tester shows for a refused connection: 2.8.4 its NodeApiError message, 2.41.3 the error's
// code (packages/cli credentials-tester.service.ts reads `error.cause.code` first there).
const REFUSED_TEXT = {
	'2.8.4': /^The service refused the connection - perhaps it is offline$/,
	'2.41.3': /^ECONNREFUSED$/,
};
const BASE_URL_HELP =
	/check this address's https or http, host and port, not the API key \(README, Troubleshooting/;
const NO_MATCH_HINT =
	'Change the status of a lead in Content Marketing, select more Events or widen Only Previous ' +
	'Statuses (set to Lost) and Only Source Channels (set to Email), then fetch a test event again.';
const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const SHOTS = path.join(PROJECT_ROOT, '.tmp', `e2e-editor-${N8N_VERSION}`);
// On every release: the editor is n8n's, and 2.41's differs (its node panel keeps the search results behind
// the node's actions). It adds about 45 s per release, inside the minutes the poll schedulers take beside
// them; E2E_EDITOR=oldest runs it on the oldest supported n8n only.
const RUN_HERE = process.env.E2E_EDITOR !== 'oldest' || N8N_VERSION === N8N_VERSIONS[0];
const WAIT_MS = 30_000;

/** Debian's chromium, installed with apt-get when missing (a fresh CI machine); throws saying what to do. */
export function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return CHROMIUM;
	const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit' });
	if (apt(['install', '-y', 'chromium']).status !== 0) apt(['update']);
	if (!fs.existsSync(CHROMIUM) && apt(['install', '-y', 'chromium']).status !== 0)
		throw new Error(
			`Chromium is missing at ${CHROMIUM} and \`apt-get install -y chromium\` failed: install Debian's ` +
				'chromium package (as root), or set E2E_CHROMIUM to a Chromium binary',
		);
	return CHROMIUM;
}

const node = (name, type, typeVersion, position, parameters, withCredential = true) => ({
	id: `e2e-editor-${name.toLowerCase().replace(/\W+/g, '-')}`,
	name,
	type: `n8n-nodes-content-marketing.${type}`,
	typeVersion,
	position,
	parameters,
	...(withCredential
		? {
				credentials: {
					contentMarketingApi: {
						id: CREDENTIALS.contentMarketing.id,
						name: CREDENTIALS.contentMarketing.name,
					},
				},
			}
		: {}),
});

/** One node of each kind the points above are about (never published: no endpoint, no polls). */
function editorWorkflow() {
	return {
		id: EDITOR_WORKFLOW_ID,
		name: 'e2e: the editor a user sees',
		active: false,
		nodes: [
			node('Webhook Trigger', 'contentMarketingTrigger', 1, [0, 0], { events: ['lead.created'] }),
			node('Poll Trigger', 'contentTriggerMarketing', 1, [0, 300], {
				events: ['lead.created', 'lead.status_updated'],
			}),
			node('Leads', 'contentMarketing', 1.1, [300, 0], {
				resource: 'lead',
				operation: 'getAll',
				options: { maxParallelRequests: 4 },
			}),
			node('Add Lead', 'contentMarketing', 1.1, [600, 0], {
				resource: 'lead',
				operation: 'create',
				email: 'ada@example.com',
			}),
			node('Sync Lead', 'contentMarketing', 1.1, [900, 0], {
				resource: 'lead',
				operation: 'createOrUpdate',
				email: 'ada@example.com',
			}),
			node('Overview', 'contentMarketing', 1.1, [300, 300], {
				resource: 'analytics',
				operation: 'getOverview',
				options: { timezone: { values: { zone: 'custom', custom: 'Europe/Berlin' } } },
			}),
			// Fetch Test Event finds nothing: a status change away from Lost of a lead that came by e-mail
			node('Fetch Hint', 'contentTriggerMarketing', 1, [600, 300], {
				events: ['lead.status_updated'],
				options: { previousStatuses: ['lost'], sourceChannels: ['email'] },
			}),
			{
				id: 'e2e-editor-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 600],
				parameters: {},
			},
			// Created Since and Email added and left empty, as a user leaves them
			node('Empty Filters', 'contentMarketing', 1.1, [300, 600], {
				resource: 'lead',
				operation: 'getAll',
				limit: 3,
				filters: { createdSince: '', email: '' },
			}),
		],
		connections: {
			'Webhook Trigger': { main: [[{ node: 'Leads', type: 'main', index: 0 }]] },
			Leads: { main: [[{ node: 'Add Lead', type: 'main', index: 0 }]] },
			'Add Lead': { main: [[{ node: 'Sync Lead', type: 'main', index: 0 }]] },
			'Poll Trigger': { main: [[{ node: 'Overview', type: 'main', index: 0 }]] },
			Start: { main: [[{ node: 'Empty Filters', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function openEditor(n8n) {
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_FLAGS });
	const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
	page.setDefaultTimeout(WAIT_MS);
	await ownerCookie(n8n.baseUrl); // sets the owner up on a fresh n8n
	const login = await page.request.post(`${n8n.baseUrl}/rest/login`, {
		data: { emailOrLdapLoginId: E2E_OWNER.email, password: E2E_OWNER.password },
	});
	assert.equal(login.status(), 200, `login: ${await login.text()}`);
	fs.mkdirSync(SHOTS, { recursive: true });
	return {
		browser,
		page,
		shot: (name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) }),
	};
}

const canvasNode = (page, name) =>
	page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first();

async function openWorkflow(page, n8n) {
	await page.goto(`${n8n.baseUrl}/workflow/${EDITOR_WORKFLOW_ID}`);
	await canvasNode(page, 'Overview').waitFor();
}

/** Opens a node's details view (double click, as a user) and returns its parameters panel's text. */
async function openNode(page, name) {
	await canvasNode(page, name)
		.locator('[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]')
		.first()
		.dblclick();
	const panel = page.locator('[data-test-id="node-parameters"]');
	await panel.waitFor();
	await page.waitForTimeout(500); // the parameters render after the panel
	return panel;
}

/** Closes the node's details view: Escape, as a user; its close button when n8n 2.8.4 keeps the view open after a failed Fetch Test Event. */
async function closeNode(page) {
	const parameters = page.locator('[data-test-id="node-parameters"]');
	await page.keyboard.press('Escape');
	const closed = await parameters.waitFor({ state: 'detached', timeout: 5_000 }).then(
		() => true,
		() => false,
	);
	if (closed) return;
	await page.locator('[data-test-id="ndv-close-button"]').first().click();
	await parameters.waitFor({ state: 'detached' });
}

async function subtitles(page, n8n) {
	await openWorkflow(page, n8n);
	const text = async (name) =>
		(await canvasNode(page, name).innerText()).replace(/\s+/g, ' ').trim();
	const seen = {
		Leads: await text('Leads'),
		'Add Lead': await text('Add Lead'),
		Overview: await text('Overview'),
		'Webhook Trigger': await text('Webhook Trigger'),
		'Poll Trigger': await text('Poll Trigger'),
	};
	assert.match(seen.Leads, /Get Many: Lead/);
	assert.match(seen['Add Lead'], /Create: Lead/);
	assert.match(seen.Overview, /Get Overview: Analytics/);
	assert.match(seen['Webhook Trigger'], /Lead Created/);
	assert.match(seen['Poll Trigger'], /Lead Created, Lead Status Updated/);
	for (const value of Object.values(seen))
		assert.doesNotMatch(value, /getAll|getOverview|lead\.created|lead\.status_updated|: lead\b/);
	return { detail: Object.values(seen).join(' / ') };
}

async function triggersAndDocs(page, n8n, shot) {
	await openWorkflow(page, n8n);
	const webhook = await openNode(page, 'Webhook Trigger');
	assert.match(await webhook.innerText(), /WEBHOOK_URL/, 'the webhook trigger shows its notice');
	const docs = page.getByRole('link', { name: 'Docs' });
	const href = await docs.getAttribute('href');
	await shot('webhook-trigger');
	await closeNode(page);
	const poll = await openNode(page, 'Poll Trigger');
	const pollText = await poll.innerText();
	await shot('poll-trigger');
	assert.doesNotMatch(
		pollText,
		/WEBHOOK_URL|public HTTPS URL/,
		'no webhook notice on the poll trigger',
	);
	assert.match(pollText, /Poll Times/);
	await closeNode(page);
	// the node's documentationUrl, as written: n8n appends ?utm_… only to a codex link, after its #section
	assert.equal(
		href,
		'https://github.com/content-marketing/n8n-nodes-content-marketing#content-marketing-trigger',
		"the Docs link opens the trigger's section",
	);
	return { detail: `Docs → ${href}` };
}

async function actionFields(page, n8n, shot) {
	await openWorkflow(page, n8n);
	const create = await openNode(page, 'Add Lead');
	assert.match(
		await create.innerText(),
		/creates a new lead, also for an e-mail the service already has/,
	);
	await shot('lead-create');
	await closeNode(page);
	const sync = await openNode(page, 'Sync Lead');
	const syncText = (await sync.innerText()).replace(/\s+/g, ' ');
	assert.match(syncText, /Updates the lead with this e-mail, or creates one when there is none/);
	assert.match(
		syncText,
		/Name, Company, Job Title and Source Channel are only set on new leads: an existing lead keeps its own/,
	);
	await shot('lead-create-or-update');
	await closeNode(page);
	const getMany = await openNode(page, 'Leads');
	const text = await getMany.innerText();
	assert.match(text, /Max Parallel Requests/);
	assert.match(text, /Matters only with several input items/);
	await shot('lead-get-many');
	await closeNode(page);
	const overview = await openNode(page, 'Overview');
	const zone = (await overview.innerText()).replace(/\s+/g, ' ');
	await shot('analytics-time-zone');
	await closeNode(page);
	assert.doesNotMatch(zone, /Time Zone Time Zone/, `Time Zone labels: ${zone}`);
	assert.match(zone, /Time Zone Zone .*Custom Zone/);
	return {
		detail: 'duplicate notice, Create or Update notices, Get Many hint, Time Zone labels',
	};
}

/** The canvas nodes named after the Get Many leads action ("Get many leads", "Get many leads1", ...). */
async function newNodeNames(page) {
	const names = await page.locator('[data-test-id="canvas-node"]').allInnerTexts();
	return names
		.map((text) => text.split('\n')[0].trim())
		.filter((name) => /^Get many leads\d*$/.test(name));
}

async function nodePanel(page, n8n, shot) {
	await openWorkflow(page, n8n);
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	const labels = await appActions(page, shot, 'node-panel', ['Get many leads']);
	assert.ok(
		labels.some((l) => l.startsWith('Get many leads')),
		`actions: ${labels.join(' | ')}`,
	);
	for (const label of labels) assert.ok(label.length <= 60, `a short action label: ${label}`);
	const before = await newNodeNames(page);
	await page
		.locator('[data-test-id="node-creator"]')
		.getByText('Get many leads', { exact: true })
		.first()
		.click();
	await page.locator('[data-test-id="node-parameters"]').waitFor();
	await shot('node-panel-new-node');
	await closeNode(page);
	// the new node on the canvas: named after the action, as n8n's own nodes are
	const after = await newNodeNames(page);
	const title = after.find((name) => !before.includes(name));
	assert.ok(title, `a new node named "Get many leads" on the canvas: ${after.join(' | ')}`);
	return {
		detail: `one app "Content Marketing", ${labels.length} actions, the new node is "${title}"`,
	};
}

/**
 * Searches the open node panel for "Content Marketing", asserts one entry in the results (no separate
 * one for the Poll Trigger), opens it and returns its action labels (screenshots `<name>-search`, `-actions`).
 */
async function appActions(page, shot, name, awaited) {
	await page
		.locator('[data-test-id="node-creator-search-bar"], input[placeholder*="Search"]')
		.first()
		.fill('Content Marketing');
	const results = page.locator('[data-test-id="item-iterator-item"]');
	await results.filter({ hasText: 'Content Marketing' }).first().waitFor();
	const entries = (await results.allInnerTexts())
		.map((text) => text.trim().split('\n')[0].trim())
		.filter((entry) => entry.startsWith('Content Marketing'));
	await shot(`${name}-search`);
	assert.deepEqual(entries, ['Content Marketing'], `search results: ${entries.join(' | ')}`);
	await page.getByText('Content Marketing', { exact: true }).first().click();
	// the actions only: n8n 2.41 keeps the search results (the node's own item, its description as text)
	// behind the node's panel, and "node-creator-action-item" names a node item that has actions
	const actions = page.locator(
		'[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"]',
	);
	// n8n renders the list in parts: read it once the actions the caller looks for are there
	for (const label of awaited) await actions.filter({ hasText: label }).first().waitFor();
	const labels = (await actions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
	await shot(`${name}-actions`);
	return labels;
}

/** Adding a trigger: the same one app, holding both triggers' events. */
async function triggersInApp(page, n8n, shot) {
	await openWorkflow(page, n8n);
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await page
		.locator('[data-test-id="item-iterator-item"]', { hasText: 'Add another trigger' })
		.click();
	const labels = await appActions(page, shot, 'node-panel-trigger', [
		'On lead created',
		'On lead created (polling)',
		'On lead status updated',
		'On lead status updated (polling)',
	]);
	// in the order n8n merges the triggers (package.json's): the last one's description is the app's
	const triggers = labels.filter((label) => label.startsWith('On '));
	assert.deepEqual(
		[...triggers].sort(),
		[
			'On lead created',
			'On lead created (polling)',
			'On lead status updated',
			'On lead status updated (polling)',
		],
		`the app's trigger events: ${labels.join(' | ')}`,
	);
	await page.keyboard.press('Escape');
	return { detail: `one app "Content Marketing" with ${triggers.join(', ')}` };
}

async function credentialTest(page, n8n, shot) {
	await page.goto(`${n8n.baseUrl}/home/credentials/${EXPIRED_CREDENTIAL.id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	// opening a saved credential tests it; Retry tests again
	const failed = modal.locator('.el-tag--danger');
	await failed.getByRole('button', { name: 'Retry' }).click();
	await failed.getByText('More details', { exact: true }).first().click();
	const message = modal.getByText(/The API key has expired/);
	await message.waitFor();
	const text = (await message.innerText()).trim();
	await shot('credential-test-expired');
	assert.match(text, /^The API key has expired \(HTTP 401 unauthorized: "API key expired"\)/);
	return { detail: `Test: "${text}"` };
}

/** Opens a saved credential (which tests it), tests again and returns the failure n8n shows. */
async function credentialFailure(page, n8n, id, text) {
	await page.goto(`${n8n.baseUrl}/home/credentials/${id}`);
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	const failed = modal.locator('.el-tag--danger');
	await failed.getByRole('button', { name: 'Retry' }).click();
	await failed.getByText('More details', { exact: true }).first().click();
	const message = modal.getByText(text);
	await message.waitFor();
	return { modal, text: (await message.innerText()).trim() };
}

/** A local HTTPS server with a self-signed certificate (openssl makes it for this run). */
async function selfSignedServer() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-e2e-tls-'));
	const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
	execFileSync(
		'openssl',
		[
			...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
			...['-keyout', key, '-out', cert],
		],
		{ stdio: 'ignore' },
	);
	const server = createHttpsServer(
		{ key: fs.readFileSync(key), cert: fs.readFileSync(cert) },
		(_, response) => response.end('{"data":[]}'),
	);
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `https://127.0.0.1:${server.address().port}`,
		close: () => {
			server.close();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/**
 * A Base URL where nothing answers: in the editor, n8n's own text (no rule of the credential can word a
 * request without an answer) beside the Base URL's hint, which says what to check and points to README's
 * Troubleshooting. Through n8n's Test endpoint, the texts of the two TLS failures, each explained there.
 */
async function credentialNothingAnswers(page, n8n, shot, stack) {
	const refused = REFUSED_TEXT[N8N_VERSION] ?? /ECONNREFUSED|refused the connection/;
	const { modal, text } = await credentialFailure(page, n8n, NO_SERVER_CREDENTIAL.id, refused);
	const form = (await modal.innerText()).replace(/\s+/g, ' ');
	await shot('credential-test-nothing-answers');
	assert.match(text, refused, `Test of ${NO_SERVER_CREDENTIAL.baseUrl}: ${text}`);
	assert.match(form, BASE_URL_HELP, `the Base URL's hint in the credential form: ${form}`);
	// what the hint points to: README's Troubleshooting, which names each text n8n shows
	const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
	const help = readme
		.slice(readme.indexOf('## Troubleshooting'), readme.indexOf('## Resources'))
		.replace(/\s+/g, ' ');

	const tls = await selfSignedServer();
	const shown = {};
	try {
		for (const [label, baseUrl] of [
			['https to an http port', stack.sandbox.url.replace(/^http:/, 'https:')],
			['self-signed certificate', tls.url],
		]) {
			const response = await page.request.post(`${n8n.baseUrl}/rest/credentials/test`, {
				data: {
					credentials: {
						id: NO_SERVER_CREDENTIAL.id,
						name: NO_SERVER_CREDENTIAL.name,
						type: NO_SERVER_CREDENTIAL.type,
						data: { apiKey: stack.sandbox.keys.full, baseUrl },
					},
				},
			});
			const { data } = await response.json();
			assert.equal(data.status, 'Error', `${label}: ${JSON.stringify(data)}`);
			shown[label] = data.message.trim();
		}
	} finally {
		tls.close();
	}
	// each text names a code README's Troubleshooting lists (EPROTO, DEPTH_ZERO_SELF_SIGNED_CERT) or a certificate
	assert.match(shown['https to an http port'], /EPROTO/);
	assert.match(help, /EPROTO/);
	assert.match(shown['self-signed certificate'], /SELF_SIGNED|self-signed certificate/i);
	assert.match(help, /a certificate error/);
	const tlsTexts = Object.entries(shown).map(
		([label, message]) => `${label}: "${message.slice(0, 80)}"`,
	);
	return {
		detail: `Test: "${text}"; ${tlsTexts.join('; ')}; README's Troubleshooting explains them`,
	};
}

/** Fetch Test Event with nothing matching: the hint names the options that are set, with their values. */
async function pollTriggerHint(page, n8n, shot) {
	await openWorkflow(page, n8n);
	await openNode(page, 'Fetch Hint');
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const description = page.locator('[data-test-id="node-error-description"]').first();
	await description.waitFor();
	const message = (
		await page.locator('[data-test-id="node-error-message"]').first().innerText()
	).trim();
	const hint = (await description.innerText()).replace(/\s+/g, ' ').trim();
	await shot('poll-trigger-no-match');
	await closeNode(page);
	assert.equal(message, 'No lead event matches the Events and Options of this trigger');
	assert.equal(hint, NO_MATCH_HINT);
	return { detail: `"${message}": "${hint}"` };
}

/** Get Many with Created Since and Email added and left empty: runs (they count as not set). */
async function emptyFilterRuns(page, n8n, shot) {
	await openWorkflow(page, n8n);
	const panel = await openNode(page, 'Empty Filters');
	assert.match(await panel.innerText(), /Created Since[\s\S]*Email/, 'the two filters are added');
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const output = page.locator('[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]');
	const outcome = output
		.locator('[data-test-id="ndv-items-count"], [data-test-id="node-error-message"]')
		.first();
	await outcome.waitFor();
	const errors = page.locator('[data-test-id="node-error-message"]');
	const error = (await errors.count()) > 0 ? await errors.first().innerText() : '';
	const count = (await output.innerText()).match(/\d+ items?/)?.[0] ?? '';
	await shot('lead-get-many-empty-filters');
	await closeNode(page);
	assert.equal(error, '', `Get Many with empty filters failed: ${error}`);
	assert.match(count, /^[1-3] items?$/, `Get Many's output: ${count}`);
	return { detail: `Created Since and Email left empty: ${count}, no error` };
}

/** The check as scripts/e2e/check.mjs runs it. */
export default {
	prepare: ({ stack }) => {
		if (!RUN_HERE) return {};
		ensureChromium();
		return {
			credentials: [
				{
					...EXPIRED_CREDENTIAL,
					data: { apiKey: stack.sandbox.keys.expired, baseUrl: stack.sandbox.url },
				},
				{
					id: NO_SERVER_CREDENTIAL.id,
					name: NO_SERVER_CREDENTIAL.name,
					type: NO_SERVER_CREDENTIAL.type,
					data: { apiKey: stack.sandbox.keys.full, baseUrl: NO_SERVER_CREDENTIAL.baseUrl },
				},
			],
			workflows: [editorWorkflow()],
		};
	},
	async whileRunning({ step, n8n, stack }) {
		if (!RUN_HERE) {
			await step('editor: not run on this release', () => ({
				detail: `checked on n8n ${N8N_VERSIONS[0]} only (E2E_EDITOR=oldest)`,
			}));
			return;
		}
		const { browser, page, shot } = await step('editor: headless Chromium logged in', async () => {
			const editor = await openEditor(n8n);
			return Object.assign(editor, {
				detail: `screenshots in ${path.relative(PROJECT_ROOT, SHOTS)}`,
			});
		});
		try {
			await step("editor: canvas subtitles in the panel's words", () => subtitles(page, n8n));
			await step(
				'editor: the webhook notice on the webhook trigger only; the Docs link opens its README section',
				() => triggersAndDocs(page, n8n, shot),
			);
			await step(
				'editor: Lead › Create and Create or Update notices, Max Parallel hint, Time Zone labels',
				() => actionFields(page, n8n, shot),
			);
			await step(
				'editor: one app in the node panel, short actions, a new node named after one',
				() => nodePanel(page, n8n, shot),
			);
			await step("editor: adding a trigger, the same app holds both triggers' events", () =>
				triggersInApp(page, n8n, shot),
			);
			await step('editor: Test of an expired key says expired, as runs do', () =>
				credentialTest(page, n8n, shot),
			);
			await step(
				"editor: Test of a Base URL where nothing answers shows n8n's text beside the Base URL's explanation",
				() => credentialNothingAnswers(page, n8n, shot, stack),
			);
			await step(
				'editor: Fetch Test Event finds nothing; the hint names the options that are set',
				() => pollTriggerHint(page, n8n, shot),
			);
			await step('editor: Get Many runs with a filter added and left empty', () =>
				emptyFilterRuns(page, n8n, shot),
			);
		} finally {
			await browser.close();
		}
	},
};
