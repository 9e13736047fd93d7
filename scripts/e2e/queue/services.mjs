// PostgreSQL and Redis for the queue-mode check: Debian's packages (installed with apt-get when
// missing; the check runs as root on the development and CI machines), each started as a child of
// this script on a free loopback port with its data in a temp folder, and stopped by its PID.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { freePort } from '../n8n.mjs';

const POSTGRES_ROOT = '/usr/lib/postgresql';

function postgresBin() {
	if (!fs.existsSync(POSTGRES_ROOT)) return undefined;
	const versions = fs
		.readdirSync(POSTGRES_ROOT)
		.filter((v) => /^\d+$/.test(v))
		.sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = path.join(POSTGRES_ROOT, version, 'bin');
		if (fs.existsSync(path.join(bin, 'postgres')) && fs.existsSync(path.join(bin, 'initdb')))
			return { bin, version };
	}
	return undefined;
}

function which(command) {
	return (
		spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim() ||
		undefined
	);
}

function run(command, args, options = {}) {
	const res = spawnSync(command, args, {
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
		...options,
	});
	if (res.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} exited with ${res.status ?? res.signal}\n${(res.stdout ?? '') + (res.stderr ?? '')}`.trim(),
		);
	}
	return res.stdout;
}

/** apt-get installs `redis-server` and `postgresql` when either is missing. */
export function ensurePackages() {
	const missing = [];
	if (!which('redis-server')) missing.push('redis-server');
	if (!postgresBin() || !which('psql')) missing.push('postgresql');
	if (missing.length === 0) return { installed: [] };
	if (process.getuid?.() !== 0) {
		throw new Error(
			`missing ${missing.join(' and ')}; install them (apt-get install ${missing.join(' ')}) or run as root`,
		);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	run('apt-get', ['update', '-qq'], { env });
	run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
	return { installed: missing };
}

/** Ends a child we started, by its PID: SIGTERM, then SIGKILL after graceMs. */
async function stopChild(child, exited, graceMs = 10_000) {
	if (child.exitCode === null && child.signalCode === null) {
		child.kill('SIGTERM');
		let timer;
		const timeout = new Promise(
			(resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
		);
		if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
		clearTimeout(timer);
	}
	await exited;
}

/** Spawns a server and resolves once its output shows `readyPattern`. */
async function startServer(command, args, { readyPattern, options = {}, timeoutMs = 30_000 }) {
	const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
	let output = '';
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	// The backstop if this script dies without its cleanup.
	const killOnExit = () => child.kill('SIGKILL');
	process.on('exit', killOnExit);
	exited.then(() => process.off('exit', killOnExit));
	await new Promise((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`${command} did not start within ${timeoutMs / 1000} s\n${output}`)),
			timeoutMs,
		);
		const onData = (data) => {
			output += data;
			if (readyPattern.test(output)) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		exited.then(({ code, signal }) => {
			clearTimeout(timer);
			reject(new Error(`${command} exited (${signal ?? code}) while starting\n${output}`));
		});
	});
	return { pid: child.pid, stop: () => stopChild(child, exited), output: () => output };
}

/** PostgreSQL with trust auth on 127.0.0.1:<free port>, data in `dir`, database `n8n`. */
export async function startPostgres(dir) {
	const found = postgresBin();
	if (!found) throw new Error('PostgreSQL is not installed');
	const port = await freePort();
	const dataDir = path.join(dir, 'pgdata');
	const socketDir = path.join(dir, 'pgsocket');
	fs.mkdirSync(socketDir, { recursive: true });
	// PostgreSQL refuses to run as root: as root, run it as the package's `postgres` user.
	const asUser = {};
	if (process.getuid?.() === 0) {
		asUser.uid = Number(run('id', ['-u', 'postgres']).trim());
		asUser.gid = Number(run('id', ['-g', 'postgres']).trim());
		fs.chownSync(dir, asUser.uid, asUser.gid);
		fs.chownSync(socketDir, asUser.uid, asUser.gid);
	}
	run(
		path.join(found.bin, 'initdb'),
		['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'],
		{ ...asUser, cwd: dir },
	);
	const launch = () =>
		startServer(
			path.join(found.bin, 'postgres'),
			[
				'-D',
				dataDir,
				'-p',
				String(port),
				'-k',
				socketDir,
				'-c',
				'listen_addresses=127.0.0.1',
				'-c',
				'fsync=off',
			],
			{ readyPattern: /ready to accept connections/, options: { ...asUser, cwd: dir } },
		);
	let server = await launch();
	/** psql's arguments to run `sql` in `database` as the superuser, stopping at the first error. */
	const psqlArgs = (sql, database = 'n8n') => [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		'postgres',
		'-d',
		database,
		'-v',
		'ON_ERROR_STOP=1',
		'-c',
		sql,
	];
	const psql = (sql, database = 'n8n') => run('psql', ['-At', ...psqlArgs(sql, database)]);
	psql('CREATE DATABASE n8n', 'postgres');
	return {
		get pid() {
			return server.pid;
		},
		stop: () => server.stop(),
		output: () => server.output(),
		/** Stops the server (fast shutdown: open connections are cut) and starts it again on the same port. */
		async restart() {
			await server.stop();
			// A postmaster killed after its grace leaves backends that hold its shared memory until they see
			// it gone: a start meanwhile fails, so it is tried again for a while.
			for (let tries = 1; ; tries++) {
				try {
					server = await launch();
					return;
				} catch (error) {
					if (tries >= 20 || !/pre-existing shared memory block/.test(error.message)) throw error;
					await new Promise((resolve) => setTimeout(resolve, 500));
				}
			}
		},
		/**
		 * Holds the write locks of the tables n8n writes for a webhook call (executions, their data, the
		 * workflow's static data) for `ms`, as a long transaction of another client would: reads go on,
		 * writes wait. Resolves when the locks are released.
		 */
		stallWrites(ms) {
			const sql =
				'BEGIN; LOCK TABLE execution_entity, execution_data, workflow_entity IN EXCLUSIVE MODE;' +
				` SELECT pg_sleep(${ms / 1000}); COMMIT;`;
			const child = spawn('psql', psqlArgs(sql), { stdio: ['ignore', 'ignore', 'pipe'] });
			let stderr = '';
			child.stderr.on('data', (data) => (stderr += data));
			return new Promise((resolve, reject) =>
				child.on('exit', (code) =>
					code === 0
						? resolve()
						: reject(new Error(`PostgreSQL stall: psql exited ${code}: ${stderr}`)),
				),
			);
		},
		/**
		 * From now on, keeps each event id an execution's stored data held when n8n replaces or deletes that
		 * data without it (`replacedEventIds`): n8n's own record of which event a dropped execution carried.
		 * Call once n8n has created its tables.
		 */
		keepReplacedEventIds() {
			psql(`CREATE TABLE cm_check_replaced_events ("executionId" integer, event_id text);
CREATE FUNCTION cm_check_keep_event_ids() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		INSERT INTO cm_check_replaced_events SELECT DISTINCT OLD."executionId", m[1]
			FROM regexp_matches(OLD.data::text, '(evt_[0-9A-Za-z]+)', 'g') AS m;
		RETURN OLD;
	END IF;
	INSERT INTO cm_check_replaced_events SELECT DISTINCT OLD."executionId", m[1]
		FROM regexp_matches(OLD.data::text, '(evt_[0-9A-Za-z]+)', 'g') AS m
		WHERE position(m[1] IN coalesce(NEW.data::text, '')) = 0;
	RETURN NEW;
END $$;
CREATE TRIGGER cm_check_keep_event_ids BEFORE UPDATE OR DELETE ON execution_data
	FOR EACH ROW EXECUTE FUNCTION cm_check_keep_event_ids();`);
		},
		/** Execution id -> the event ids its stored data held before n8n replaced it (keepReplacedEventIds). */
		replacedEventIds() {
			const held = new Map();
			for (const row of this.query(
				'SELECT DISTINCT "executionId" AS id, event_id FROM cm_check_replaced_events',
			))
				held.set(String(row.id), [...(held.get(String(row.id)) ?? []), row.event_id]);
			return held;
		},
		port,
		version: found.version,
		/** Rows of `sql` as objects (one json_agg round trip). */
		query(sql) {
			const text = psql(`SELECT coalesce(json_agg(t), '[]') FROM (${sql}) t`).trim();
			return JSON.parse(text);
		},
	};
}

/**
 * Redis on 127.0.0.1:<free port>, working folder `dir`, with what n8n's queue needs to survive a
 * Redis restart: every write in the append-only file before it is acknowledged (docs/queue-mode.md).
 */
export async function startRedis(dir) {
	const port = await freePort();
	const launch = () =>
		startServer(
			'redis-server',
			[
				'--port',
				String(port),
				'--bind',
				'127.0.0.1',
				'--save',
				'',
				'--appendonly',
				'yes',
				'--appendfsync',
				'always',
				'--dir',
				dir,
			],
			{ readyPattern: /Ready to accept connections/, options: { cwd: dir } },
		);
	let server = await launch();
	const version = run('redis-server', ['--version']).match(/v=(\S+)/)?.[1] ?? '?';
	return {
		get pid() {
			return server.pid;
		},
		stop: () => server.stop(),
		output: () => server.output(),
		/** Stops the server and starts it again on the same port, from its append-only file. */
		async restart() {
			await server.stop();
			server = await launch();
		},
		/** One command through redis-cli, its answer as text (e.g. `['LLEN', 'bull:jobs:wait']`). */
		command: (args) => run('redis-cli', ['-p', String(port), ...args]).trim(),
		port,
		version,
	};
}
