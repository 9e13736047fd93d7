// The Manual-Trigger examples, each run from its Manual Trigger in one started n8n (as the editor's
// "Execute workflow" does) and checked against what the sandbox and the SMTP sink recorded.
// check-manual-install.mjs runs an example with `n8n execute`, as README says.
import assert from 'node:assert/strict';

import { IMPORT_CSV_FILE, readCsv, WORKFLOWS } from './examples.mjs';
import { nodeOutput } from './n8n.mjs';

const json = (items) => items.map((item) => item.json);

/** `runWorkflow(id)`: check.mjs's runManually() on its n8n, resolving to `{ run }`. */
async function run(runWorkflow, key) {
	const { run: result } = await runWorkflow(WORKFLOWS[key].id);
	assert.equal(
		result.status,
		'success',
		`execution of ${WORKFLOWS[key].id} ended with status ${result.status}`,
	);
	return result;
}

/** /v1 requests the sandbox logged after `mark` (an index into the log). */
async function requestsSince(client, mark) {
	return (await client.control('GET', '/_sandbox/requests')).slice(mark);
}

async function requestMark(client) {
	return (await client.control('GET', '/_sandbox/requests')).length;
}

/** bulk-import-leads-from-spreadsheet: every CSV row became a lead, and all were synced in one batch call. */
export async function checkBulkImport(stack, runWorkflow) {
	const { client } = stack.sandbox;
	const rows = readCsv();
	const mark = await requestMark(client);
	const result = await run(runWorkflow, 'bulkImport');

	const extracted = json(nodeOutput(result, 'Extract Rows'));
	assert.deepEqual(
		extracted.map((r) => r.email),
		rows.map((r) => r.email),
		'Extract Rows: the CSV rows in order',
	);

	const created = json(nodeOutput(result, 'Create Lead'));
	assert.equal(created.length, rows.length, 'Create Lead: one lead per CSV row');
	for (const [i, row] of rows.entries()) {
		const lead = created[i];
		assert.match(lead.id, /^lead_/, `row ${i + 1}: lead id`);
		const stored = await client.api('GET', `/v1/leads/${lead.id}`);
		assert.equal(stored.email, row.email, `row ${i + 1}: e-mail in the sandbox`);
		assert.equal(stored.name, row.name || null, `row ${i + 1}: name`);
		assert.equal(stored.company, row.company || null, `row ${i + 1}: company`);
		assert.equal(stored.job_title, row.job_title || null, `row ${i + 1}: job title`);
		assert.equal(stored.source_channel, 'import', `row ${i + 1}: source channel`);
		assert.deepEqual(
			stored.custom_fields,
			{ country: row.country, plan: row.plan },
			`row ${i + 1}: custom fields`,
		);
	}

	const synced = json(nodeOutput(result, 'Sync Leads to CRM'));
	assert.deepEqual(
		synced.map((s) => s.lead_id),
		created.map((l) => l.id),
		'Sync Leads to CRM: one result per lead, in order',
	);
	assert.ok(
		synced.every((s) => s.synced === true && /^crm_/.test(s.crm_record_id)),
		'Sync Leads to CRM: every lead synced',
	);

	const ids = new Set(created.map((l) => l.id));
	const pushes = (await client.control('GET', '/_sandbox/crm/pushes')).filter((p) =>
		ids.has(p.lead_id),
	);
	for (const id of ids) {
		assert.equal(
			pushes.filter((p) => p.lead_id === id && p.reason === 'batch').length,
			1,
			`${id}: one batch CRM push`,
		);
	}
	const requests = await requestsSince(client, mark);
	assert.equal(
		requests.filter((r) => r.method === 'POST' && r.path === '/v1/leads').length,
		rows.length,
		'one POST /v1/leads per row',
	);
	assert.equal(
		requests.filter((r) => r.method === 'POST' && r.path === '/v1/leads/batch-sync-crm').length,
		1,
		'one batch-sync-crm call for all rows',
	);
	return {
		detail: `${rows.length} leads created from leads.csv, synced in 1 batch call, ${pushes.length} CRM pushes`,
	};
}

/** Every lead whose e-mail is `email` (case aside), through the list's search and cursor. */
async function leadsWithEmail(client, email) {
	const key = email.trim().toLowerCase();
	const leads = [];
	let cursor;
	do {
		const page = await client.api(
			'GET',
			`/v1/leads?q=${encodeURIComponent(key)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		leads.push(...page.data.filter((lead) => lead.email.toLowerCase() === key));
		cursor = page.has_more ? page.next_cursor : undefined;
	} while (cursor);
	return leads;
}

/**
 * import-leads-without-duplicates, run three times: one lead per e-mail of the CSV (its repeats in another
 * case or with a space included), a welcome e-mail to each new lead on the first run and none after; on
 * the second no write to the leads at all (the sandbox's request log); before the third a lead's plan is
 * changed in the service, and the third writes one PATCH that puts it back. Each run, Preview Import
 * (Preview Only) shows the outcomes and changes the import then has, and writes nothing.
 */
export async function checkImportWithoutDuplicates(stack, runWorkflow) {
	const { client } = stack.sandbox;
	const rows = readCsv(IMPORT_CSV_FILE);
	const keys = rows.map((row) => row.email.trim().toLowerCase());
	const distinct = [...new Set(keys)];
	assert.ok(distinct.length < rows.length, 'the CSV repeats an e-mail');
	const firstOf = keys.map((key, index) => keys.indexOf(key) === index);
	const mailsTo = () =>
		stack.smtp.messages.filter((m) =>
			m.envelope.to.some((to) => distinct.includes(to.toLowerCase())),
		).length;
	// Changed in the service before run 3: the first row's lead, whose plan the import then restores.
	const changedKey = keys[0];
	const changedPlan = 'changed-in-the-service';

	const runs = [];
	const writesPerRun = [];
	for (const round of [1, 2, 3]) {
		let changed;
		if (round === 3) {
			[changed] = await leadsWithEmail(client, changedKey);
			await client.api('PATCH', `/v1/leads/${changed.id}`, {
				custom_fields: { plan: changedPlan },
			});
		}
		const mailsBefore = mailsTo();
		const mark = await requestMark(client);
		const result = await run(runWorkflow, 'importWithoutDuplicates');
		// Preview Import writes nothing: every write of the run is the import's.
		const writes = (await requestsSince(client, mark))
			.filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/leads'))
			.map((r) => `${r.method} ${r.path}`);
		writesPerRun.push(writes.length);
		const expectedWrites = {
			1: distinct.map(() => 'POST /v1/leads'),
			2: [],
			3: [`PATCH /v1/leads/${changed?.id}`],
		}[round];
		assert.deepEqual(writes, expectedWrites, `run ${round}: the import's writes only`);
		const output = json(nodeOutput(result, 'Create or Update Lead'));
		const preview = json(nodeOutput(result, 'Preview Import'));
		assert.equal(output.length, rows.length, `run ${round}: one item per CSV row`);
		assert.deepEqual(
			output.map((lead) => lead.created),
			round === 1 ? firstOf : rows.map(() => false),
			`run ${round}: created only for the first row of each new e-mail`,
		);
		const expectedOutcomes = {
			1: firstOf.map((first) => (first ? 'created' : 'unchanged')),
			2: rows.map(() => 'unchanged'),
			3: rows.map((_row, index) => (index === 0 ? 'updated' : 'unchanged')),
		}[round];
		assert.deepEqual(
			output.map((lead) => lead.outcome),
			expectedOutcomes,
			`run ${round}: outcomes`,
		);
		assert.deepEqual(
			preview.map((lead) => [lead.outcome, lead.changes]),
			output.map((lead) => [lead.outcome, lead.changes]),
			`run ${round}: Preview Import showed the outcomes and changes the import then had`,
		);
		if (round === 3)
			assert.deepEqual(
				output[0].changes,
				{ custom_fields: { plan: { old: changedPlan, new: rows[0].plan } } },
				'run 3: changes names the custom field put back, with its old and new value',
			);
		const newOnes = json(nodeOutput(result, 'New lead?'));
		assert.equal(newOnes.length, round === 1 ? distinct.length : 0, `run ${round}: new leads`);
		// With no new lead the Filter passes nothing on and Welcome Email does not run.
		const welcomed = newOnes.length === 0 ? [] : json(nodeOutput(result, 'Welcome Email'));
		assert.equal(welcomed.length, newOnes.length, `run ${round}: one welcome e-mail per new lead`);
		if (round === 1) {
			for (const key of distinct) {
				await stack.smtp.waitFor((m) => m.envelope.to.some((to) => to.toLowerCase() === key), {
					label: `welcome e-mail to ${key}`,
				});
			}
		}
		runs.push(mailsTo() - mailsBefore);
	}
	assert.deepEqual(runs, [distinct.length, 0, 0], 'welcome e-mails per run: every new lead once');

	for (const key of distinct) {
		const leads = await leadsWithEmail(client, key);
		assert.equal(leads.length, 1, `${key}: exactly one lead after three runs (${leads.length})`);
		const row = rows[keys.indexOf(key)];
		assert.equal(leads[0].company, row.company, `${key}: company`);
		assert.equal(leads[0].source_channel, 'import', `${key}: source channel`);
		assert.deepEqual(leads[0].custom_fields, { country: row.country, plan: row.plan });
	}
	return {
		detail: `${rows.length} rows, ${distinct.length} e-mails: ${distinct.length} leads, welcome e-mails per run ${runs.join(', ')}, writes to the leads per run ${writesPerRun.join(', ')}; Preview Import's outcomes and changes equal the import's each run`,
	};
}

/** upload-pdf-publish-and-report-link: the PDF was uploaded, the resource is published and its link answers. */
export async function checkUploadPdf(stack, runWorkflow) {
	const { client, url: sandboxUrl } = stack.sandbox;
	const pdf = Buffer.from(
		await (await fetch(`${sandboxUrl}/_sandbox/files/sample.pdf`)).arrayBuffer(),
	);
	const result = await run(runWorkflow, 'uploadPdf');

	const output = json(nodeOutput(result, 'Title and Link'));
	assert.equal(output.length, 1, 'Title and Link: one item');
	const { title, link } = output[0];
	assert.deepEqual(
		Object.keys(output[0]).sort(),
		['link', 'title'],
		'Title and Link: exactly { title, link }',
	);
	assert.equal(title, 'Content Marketing sample PDF');
	const match = new RegExp(`^${sandboxUrl.replace(/[.]/g, '\\.')}/c/(res_[A-Za-z0-9]+)$`).exec(
		link,
	);
	assert.ok(match, `link ${link} is the public link of a resource`);

	const resource = await client.api('GET', `/v1/resources/${match[1]}`);
	assert.equal(resource.status, 'published', 'resource status');
	assert.ok(resource.published_at, 'published_at is set');
	assert.equal(resource.type, 'pdf');
	assert.deepEqual(resource.tags, ['report', 'n8n']);
	assert.deepEqual(
		resource.file,
		{ name: 'sample.pdf', size: pdf.length, mime_type: 'application/pdf' },
		'uploaded file',
	);

	const page = await fetch(link);
	assert.equal(page.status, 200, `GET ${link}`);
	assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
	assert.ok((await page.text()).includes(title), 'the public page shows the title');
	return { detail: `${match[1]} published (${pdf.length}-byte PDF), ${link} answers 200` };
}

const FUNNEL_LABELS = {
	page_view: 'Viewed a resource',
	scroll_50pct: 'Scrolled past 50%',
	cta_view: 'Saw the call to action',
	cta_click: 'Clicked the call to action',
	form_submit: 'Submitted the form',
};

/** The lines the digest must hold, computed from the sandbox's own answers. */
function expectedDigestLines(overview, funnel, channels) {
	const s = overview.summary;
	const t = overview.trend;
	return [
		`Content Marketing digest, ${overview.period.start_date} to ${overview.period.end_date}`,
		`Page views: ${s.total_page_views} (${t.page_views_vs_prev} vs previous period)`,
		`Unique visitors: ${s.unique_visitors}`,
		`Leads: ${s.total_leads} (${t.leads_vs_prev} vs previous period)`,
		`Lead conversion rate: ${s.lead_conversion_rate}`,
		`Average dwell time: ${s.avg_dwell_seconds} s`,
		`Average scroll depth: ${s.avg_scroll_depth}`,
		...funnel.funnel_steps.map((f) => `${FUNNEL_LABELS[f.step]}: ${f.count} (${f.rate})`),
		...channels.data
			.slice(0, 5)
			.map(
				(c, i) =>
					`${i + 1}. ${c.source}: ${c.visits} visits, ${c.unique_visitors} visitors, ${c.leads} leads (${c.conversion_rate})`,
			),
	];
}

/** weekly-analytics-digest: one e-mail whose numbers are the sandbox's answers to the node's queries. */
export async function checkDigest(stack, runWorkflow) {
	const { client } = stack.sandbox;
	const mark = await requestMark(client);
	const before = stack.smtp.to('marketing@example.com').length;
	const result = await run(runWorkflow, 'digest');
	assert.equal(nodeOutput(result, 'Email Digest').length, 1, 'Email Digest: one e-mail sent');

	const requests = (await requestsSince(client, mark)).filter((r) => r.method === 'GET');
	const replay = async (path) => {
		const sent = requests.filter((r) => r.path === path);
		assert.equal(sent.length, 1, `one GET ${path}`);
		assert.equal(sent[0].status, 200, `GET ${path} answered 200`);
		const query = new URLSearchParams(sent[0].query);
		assert.equal(query.get('days'), '7', `${path}: days=7`);
		assert.equal(query.get('timezone'), 'UTC', `${path}: the workflow time zone (UTC here)`);
		return client.api('GET', `${path}?${sent[0].query}`);
	};
	const overview = await replay('/v1/analytics/overview');
	const funnel = await replay('/v1/analytics/funnel');
	const channels = await replay('/v1/analytics/channels');
	assert.ok(
		overview.summary.total_page_views > 0,
		'the demo data has page views in the last 7 days',
	);

	const mail = await stack.smtp.waitFor((m) => m.envelope.to.includes('marketing@example.com'), {
		label: 'digest e-mail',
	});
	assert.equal(
		stack.smtp.to('marketing@example.com').length,
		before + 1,
		'exactly one digest e-mail',
	);
	assert.equal(
		mail.subject,
		`Content Marketing digest ${overview.period.start_date} to ${overview.period.end_date}: ${overview.summary.total_page_views} page views, ${overview.summary.total_leads} leads`,
	);
	const lines = mail.text.split('\n');
	for (const line of expectedDigestLines(overview, funnel, channels)) {
		assert.ok(
			lines.includes(line),
			`digest e-mail holds "${line}"\n--- e-mail text ---\n${mail.text}`,
		);
	}
	return {
		detail: `e-mail "${mail.subject}" matches the sandbox (${funnel.funnel_steps.length} funnel steps, ${Math.min(5, channels.data.length)} channels)`,
	};
}

/** content-marketing-tour (what `npm run demo` runs): hot leads, funnel and channels equal the API's answers; the new lead reached the CRM. */
export async function checkTour(stack, runWorkflow) {
	const { client } = stack.sandbox;
	const result = await run(runWorkflow, 'tour');

	const hot = json(nodeOutput(result, 'Hot Leads'));
	const expectedHot = await client.api('GET', '/v1/leads?sort=score&order=desc&limit=5');
	assert.deepEqual(
		hot.map((l) => l.id),
		expectedHot.data.map((l) => l.id),
		'Hot Leads: the five highest scores',
	);

	const [funnel] = json(nodeOutput(result, 'Funnel'));
	const expectedFunnel = await client.api('GET', '/v1/analytics/funnel?days=30');
	for (const { step, count, rate } of expectedFunnel.funnel_steps) {
		assert.deepEqual(
			[funnel[`${step}_count`], funnel[`${step}_rate`]],
			[count, rate],
			`Funnel: step ${step}`,
		);
	}

	const channels = json(nodeOutput(result, 'Top Channels'));
	const expectedChannels = await client.api('GET', '/v1/analytics/channels?days=30');
	assert.deepEqual(
		channels.map((c) => [c.source, c.visits]),
		expectedChannels.data.map((c) => [c.source, c.visits]),
		'Top Channels',
	);

	const [lead] = json(nodeOutput(result, 'Create Lead'));
	const [sync] = json(nodeOutput(result, 'Sync to CRM'));
	assert.equal(sync.synced, true, 'Sync to CRM: synced');
	const pushes = (await client.control('GET', '/_sandbox/crm/pushes')).filter(
		(p) => p.lead_id === lead.id,
	);
	assert.deepEqual(
		pushes.map((p) => p.reason).sort(),
		['created', 'manual'],
		'the new lead reached the CRM on create and on sync',
	);
	return {
		detail: `${hot.length} hot leads, ${expectedFunnel.funnel_steps.length} funnel steps, ${channels.length} channels, ${lead.id} synced`,
	};
}

/**
 * The check as scripts/e2e/check.mjs runs it: each example from its Manual Trigger in the n8n started
 * before anything is published, so that no trigger turns the leads they create into executions.
 */
export default {
	async manually({ stack, step, runWorkflow }) {
		await step('bulk-import-leads-from-spreadsheet: run', () =>
			checkBulkImport(stack, runWorkflow),
		);
		await step('import-leads-without-duplicates: run three times', () =>
			checkImportWithoutDuplicates(stack, runWorkflow),
		);
		await step('upload-pdf-publish-and-report-link: run', () => checkUploadPdf(stack, runWorkflow));
		await step('weekly-analytics-digest: run', () => checkDigest(stack, runWorkflow));
		await step('content-marketing-tour: run', () => checkTour(stack, runWorkflow));
	},
};
