// n8n 2.8.4 in queue mode: one main, workers and webhook processors, each in its own user folder
// with the package installed, all on one PostgreSQL and one Redis; and the front (a tiny
// round-robin HTTP proxy) that WEBHOOK_URL points at. Every process runs in its own process group
// and is stopped by its PID (the group: n8n forks a task runner).
import { spawn } from 'node:child_process';
import http from 'node:http';

import { N8N_NODE, READY_LINE, freePort, n8nBin, n8nEnv, prepareUserFolder } from '../n8n.mjs';

/** What each kind of process runs and the log line that says it is ready. */
const KINDS = {
	main: { args: ['start'], ready: READY_LINE },
	worker: { args: ['worker', '--concurrency=5'], ready: 'n8n worker is now ready' },
	webhook: { args: ['webhook'], ready: 'Webhook listener waiting for requests.' },
};

const groups = new Set();
process.on('exit', () => {
	for (const pid of groups) killGroup(pid, 'SIGKILL');
});

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** The environment every process of the cluster shares (plus its own port and user folder). */
export function queueEnv({ postgres, redis, webhookUrl }) {
	return {
		DB_TYPE: 'postgresdb',
		DB_SQLITE_POOL_SIZE: undefined,
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		WEBHOOK_URL: webhookUrl,
	};
}

/**
 * One n8n process. `start()` (again after `stop()`, as a restart) resolves when it is ready;
 * `output()` is everything it printed since its last start.
 */
export function n8nProcess({ kind, name, userFolder, sharedEnv, extraEnv = {} }) {
	prepareUserFolder(userFolder, { clean: true });
	let child;
	let exited;
	let output = '';
	let port;
	const handle = {
		kind,
		name,
		userFolder,
		get pid() {
			return child?.pid;
		},
		get port() {
			return port;
		},
		output: () => output,
		env: () =>
			n8nEnv({ userFolder, port, brokerPort: port + 1, env: { ...sharedEnv, ...extraEnv } }),
		async start({ timeoutMs = 180_000 } = {}) {
			port ??= await freePort();
			output = '';
			// The process's own port is free again after a stop, so a free port can be that one.
			let brokerPort = await freePort();
			while (brokerPort === port) brokerPort = await freePort();
			const env = n8nEnv({ userFolder, port, brokerPort, env: { ...sharedEnv, ...extraEnv } });
			child = spawn(N8N_NODE, [n8nBin(), ...KINDS[kind].args], {
				cwd: userFolder,
				env,
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			groups.add(child.pid);
			exited = new Promise((resolve) =>
				child.on('exit', (code, signal) => resolve({ code, signal })),
			);
			const started = Date.now();
			await new Promise((resolve, reject) => {
				const timer = setTimeout(
					() =>
						reject(new Error(`${name} not ready within ${timeoutMs / 1000} s\n${tail(output)}`)),
					timeoutMs,
				);
				const onData = (data) => {
					output += data;
					if (process.env.E2E_VERBOSE) process.stderr.write(`[${name}] ${data}`);
					if (output.includes(KINDS[kind].ready)) {
						clearTimeout(timer);
						resolve();
					}
				};
				child.stdout.on('data', onData);
				child.stderr.on('data', onData);
				exited.then(({ code, signal }) => {
					clearTimeout(timer);
					reject(new Error(`${name} exited (${signal ?? code}) while starting\n${tail(output)}`));
				});
			});
			return (Date.now() - started) / 1000;
		},
		/** SIGKILL to the group, as a crash; resolves when it is gone. */
		async kill() {
			if (!child) return;
			killGroup(child.pid, 'SIGKILL');
			await this.stop();
		},
		/** SIGTERM to the group, SIGKILL after graceMs; resolves when the group is gone. */
		async stop({ graceMs = 20_000 } = {}) {
			if (!child) return;
			const pid = child.pid;
			if (child.exitCode === null && child.signalCode === null) {
				killGroup(pid, 'SIGTERM');
				let timer;
				const timeout = new Promise(
					(resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
				);
				if ((await Promise.race([exited, timeout])) === 'timeout') killGroup(pid, 'SIGKILL');
				clearTimeout(timer);
			}
			await exited;
			for (let i = 0; i < 50 && killGroup(pid, 0); i++) {
				killGroup(pid, 'SIGKILL');
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			groups.delete(pid);
			child = undefined;
		},
	};
	return handle;
}

function tail(text, lines = 30) {
	return text.split('\n').slice(-lines).join('\n');
}

/**
 * The front: forwards every request to one of the webhook processors, round-robin. A re-delivery
 * (CM-Delivery-Attempt > 1) goes to the processor that did NOT take the previous attempt of that
 * event, the hardest case for de-duplication. Also serves `GET /_files/<bytes>.bin` (a file of that
 * many bytes, for the binary upload).
 */
export async function startFront() {
	let targets = [];
	let next = 0;
	const lastTarget = new Map();
	const routed = [];
	const server = http.createServer((req, res) => {
		const file = /^\/_files\/(\d+)\.bin$/.exec(req.url ?? '');
		if (file && req.method === 'GET') {
			const size = Number(file[1]);
			res.writeHead(200, {
				'content-type': 'application/pdf',
				'content-length': size,
				'content-disposition': 'attachment; filename="big.pdf"',
			});
			const chunk = Buffer.alloc(1 << 20, 0x25);
			let left = size;
			const write = () => {
				while (left > 0) {
					const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
					left -= part.length;
					if (!res.write(part)) return res.once('drain', write);
				}
				res.end();
			};
			return write();
		}
		if (targets.length === 0) {
			res.writeHead(503).end();
			return;
		}
		const eventId = req.headers['cm-event-id'];
		const attempt = Number(req.headers['cm-delivery-attempt'] ?? 1);
		let index = next++ % targets.length;
		if (typeof eventId === 'string' && attempt > 1 && lastTarget.has(eventId)) {
			index = (lastTarget.get(eventId) + 1) % targets.length;
		}
		if (typeof eventId === 'string') lastTarget.set(eventId, index);
		routed.push({ eventId, attempt, target: index });
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: targets[index].port,
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502);
			res.end();
		});
		req.pipe(upstream);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/`,
		routed,
		/** The processors to spread over (their `port`s are read at each request). */
		setTargets(list) {
			targets = list;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}
