// `npm run sandbox -- --port 4010 [--host 127.0.0.1] [--seed-demo] [--rate-limit N] [--plan free|paid]`
import { parseArgs } from 'node:util';
import { PLANS, type Plan } from './model';
import { startSandbox } from './server';

function fail(message: string): never {
	process.stderr.write(`sandbox: ${message}\n`);
	process.exit(2);
}

function integer(text: string | undefined, name: string, fallback: number): number {
	if (text === undefined) return fallback;
	if (!/^\d+$/.test(text)) fail(`--${name} must be a non-negative integer`);
	return Number(text);
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			'seed-demo': { type: 'boolean' },
			'rate-limit': { type: 'string' },
			plan: { type: 'string' },
			'content-host': { type: 'string' },
			help: { type: 'boolean', short: 'h' },
		},
		strict: true,
	});
	if (values.help) {
		process.stdout.write(
			'Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--seed-demo] [--rate-limit N (0: off)]\n' +
				'                          [--plan free|paid] [--content-host URL]\n',
		);
		return;
	}
	const plan = values.plan ?? 'free';
	if (!(PLANS as readonly string[]).includes(plan)) fail('--plan must be free or paid');
	const port = integer(values.port, 'port', 4010);
	const rateLimit =
		values['rate-limit'] === undefined
			? undefined
			: integer(values['rate-limit'], 'rate-limit', 600);

	const sandbox = await startSandbox({
		port,
		host: values.host ?? '127.0.0.1',
		plan: plan as Plan,
		seedDemo: values['seed-demo'] ?? false,
		contentHost: values['content-host'],
		config:
			rateLimit === undefined
				? {}
				: { rate_limit: rateLimit === 0 ? null : { requests: rateLimit, window_seconds: 60 } },
	});
	const lines = [
		`Content-Marketing sandbox listening on ${sandbox.url}`,
		`  API base URL: ${sandbox.url}  (paths under /v1; control surface under /_sandbox)`,
		'  API keys:',
		...Object.entries(sandbox.keys).map(([role, key]) => `    ${role.padEnd(24)} ${key}`),
		'Press Ctrl+C to stop.',
	];
	process.stdout.write(`${lines.join('\n')}\n`);

	let stopping = false;
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\nsandbox: ${signal}, stopping\n`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				process.stderr.write(`sandbox: ${String(error)}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
