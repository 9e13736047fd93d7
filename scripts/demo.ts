// npm run demo: build the package, start the sandbox with its demo data, run the bundled tour workflow
// (examples/content-marketing-tour.json) through n8n-core's engine and print what it found.
// `npm run demo -- --keep` leaves the sandbox running afterwards (Ctrl+C stops it).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

const root = path.resolve(__dirname, '..');
process.env.N8N_USER_FOLDER ??= path.join(root, '.n8n-test');

const TOUR = 'content-marketing-tour.json';
const keep = process.argv.includes('--keep');

async function step<T>(label: string, work: () => Promise<T> | T): Promise<T> {
	const started = Date.now();
	const tty = process.stdout.isTTY;
	if (tty) process.stdout.write(`  … ${label}`);
	const result = await work();
	process.stdout.write(
		`${tty ? '\r' : ''}  ✓ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
	);
	return result;
}

function table(rows: Array<Record<string, string | number>>): string {
	if (rows.length === 0) return '    (none)';
	const columns = Object.keys(rows[0]);
	const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
	const line = (cells: string[]) =>
		'    ' + cells.map((cell, i) => cell.padEnd(widths[i])).join('  ');
	return [
		line(columns),
		line(widths.map((w) => '─'.repeat(w))),
		...rows.map((r) => line(columns.map((c) => String(r[c])))),
	].join('\n');
}

const json = (items: INodeExecutionData[]): IDataObject[] => items.map((item) => item.json);
const text = (value: unknown): string =>
	value === null || value === undefined || value === '' ? '—' : String(value);

function printLeads(leads: IDataObject[]): void {
	console.log('\nHottest leads (Lead › Get Many, sorted by score)');
	console.log(
		table(
			leads.map((lead) => ({
				score: Number(lead.score),
				name: text(lead.name),
				email: text(lead.email),
				company: text(lead.company),
				status: text(lead.status),
			})),
		),
	);
}

function printFunnel(funnel: IDataObject): void {
	console.log('\nFunnel, last 30 days (Analytics › Get Funnel)');
	const steps = ['page_view', 'scroll_50pct', 'cta_view', 'cta_click', 'form_submit'];
	const first = Number(funnel.page_view_count) || 1;
	for (const name of steps) {
		const count = Number(funnel[`${name}_count`]);
		const bar = '█'.repeat(Math.max(1, Math.round((count / first) * 40)));
		console.log(
			`    ${name.padEnd(13)} ${String(count).padStart(7)}  ${String(funnel[`${name}_rate`]).padStart(8)}  ${bar}`,
		);
	}
}

function printChannels(channels: IDataObject[]): void {
	console.log('\nTop channels, last 30 days (Analytics › Get Channels)');
	console.log(
		table(
			channels.slice(0, 6).map((c) => ({
				source: text(c.source),
				visits: Number(c.visits),
				leads: Number(c.leads),
				conversion: text(c.conversion_rate),
			})),
		),
	);
}

async function main(): Promise<void> {
	const demoStarted = Date.now();
	console.log('Content Marketing for n8n: demo\n');

	await step('Building the package (dist/)', () => {
		execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
			cwd: root,
			stdio: 'inherit',
		});
	});

	const { startSandbox } = await import('../sandbox/src/server');
	const sandbox = await step('Starting the sandbox with its demo data', () =>
		startSandbox({ port: keep ? 4010 : 0, host: '127.0.0.1', seedDemo: true }),
	);
	console.log(`    sandbox: ${sandbox.url}  (API key with full access: ${sandbox.keys.full})`);

	const { createExampleHarness, readExample } = await import('../test/harness');
	const harness = await step(
		"Loading the package into n8n's engine (n8n-core WorkflowExecute)",
		() => createExampleHarness({ url: sandbox.url, apiKey: sandbox.keys.full }),
	);

	try {
		const result = await step(`Running examples/${TOUR}`, () => harness.run(readExample(TOUR)));
		if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);

		printLeads(json(result.outputOf('Hot Leads')));
		printFunnel(json(result.outputOf('Funnel'))[0]);
		printChannels(json(result.outputOf('Top Channels')));

		const [lead] = json(result.outputOf('Create Lead'));
		const [sync] = json(result.outputOf('Sync to CRM'));
		console.log('\nNew lead → CRM (Lead › Create, then Lead › Sync to CRM)');
		console.log(
			`    ${lead.email} created as ${lead.id} (status ${lead.status}); ${sync.crm_type} record ${sync.crm_record_id}`,
		);
	} finally {
		await harness.close();
		if (!keep) await sandbox.close();
	}

	if (keep) {
		console.log(`\nThe sandbox keeps running at ${sandbox.url} with the demo data. API keys:`);
		for (const [role, key] of Object.entries(sandbox.keys))
			console.log(`    ${role.padEnd(24)} ${key}`);
		console.log(
			'Point a Content Marketing API credential at it (Base URL above, the "full" key). Ctrl+C stops it.',
		);
		await new Promise<void>((resolve) => {
			process.once('SIGINT', resolve);
			process.once('SIGTERM', resolve);
		});
		await sandbox.close();
		return;
	}

	console.log(`\nDone in ${((Date.now() - demoStarted) / 1000).toFixed(1)} s. Next:`);
	console.log(
		'    npm run sandbox -- --seed-demo   keep a sandbox running (prints its URL and API keys for a credential)',
	);
	console.log(
		'    npm run dev:n8n                  a real n8n with this package, the sandbox and the example workflows',
	);
	console.log('    npm test                         the tests');
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(`\nThe demo failed: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	},
);
