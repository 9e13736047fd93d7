#!/usr/bin/env node
// `npm run test:e2e:dev`: `npm run dev`'s hot reload, checked and timed: does a saved change to a node
// reach the n8n that `n8n-node dev` feeds, and how long does it take. Runs `npm run dev` in a copy of this
// checkout (its tracked and untracked files, so uncommitted work counts; node_modules/ linked, not
// copied), edits the Poll Trigger's description there `--edits` times (default 3) and times each edit
// until tsc --watch has written it to dist/ and until n8n's /types/nodes.json (what the editor reads)
// shows it. Prints the figures with the core count; exits 1 when an edit did not reach n8n within
// `--timeout` seconds (default 120) or a process outlived the stop (SIGTERM to `npm run dev`'s group).
// Runs on n8n 2.8.4, then on 2.41.3 (one after the other: the figures are timings, and two n8n side by
// side on 2 cores would slow each other); `--n8n=<version>` runs one. Run by .ci/run.
//
// `--old-layout` measures the layout before the cache moved out of the project: the copy gets a `.cache`
// link to the cache folder (n8n's walk follows it as it walked the folder itself).
//
//   node scripts/e2e/check-dev-reload.mjs [--n8n=2.41.3] [--edits=3] [--timeout=120] [--old-layout]
//   (E2E_VERBOSE=1: npm run dev's output)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { fileURLToPath } from 'node:url';

import { N8N_VERSION, PROJECT_ROOT } from './install-n8n.mjs';
import { freePort, ownerCookie } from './n8n.mjs';
import { chosenVersions, isReleaseChild, runEveryRelease } from './releases.mjs';
import { CACHE_DIR } from '../cache-dir.mjs';
import { walkAsCustomLoader } from '../custom-loader-files.mjs';
import { ensureNode24 } from '../node24.mjs';

await ensureNode24();

if (!isReleaseChild())
	process.exit(
		await runEveryRelease({
			script: fileURLToPath(import.meta.url),
			args: process.argv.slice(2).filter((a) => !a.startsWith('--n8n=')),
			versions: chosenVersions(),
			prefix: 'e2e:dev',
		}),
	);

const arg = (name, fallback) =>
	Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const EDITS = arg('edits', 3);
const TIMEOUT_S = arg('timeout', 120);
const SOURCE = 'nodes/ContentMarketing/ContentTriggerMarketing/ContentTriggerMarketing.node.ts';
const BUILT = 'dist/nodes/ContentMarketing/ContentTriggerMarketing/ContentTriggerMarketing.node.js';
const TYPE = 'CUSTOM.contentTriggerMarketing';
const verbose = process.env.E2E_VERBOSE === '1';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (from) => ((Date.now() - from) / 1000).toFixed(1);

/** A copy of the checkout as git sees it (tracked and untracked, not ignored), node_modules/ linked. */
function copyCheckout(to) {
	const listed = spawnSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
		cwd: PROJECT_ROOT,
		encoding: 'utf8',
	});
	if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
	for (const file of listed.stdout.split('\0').filter(Boolean)) {
		const from = path.join(PROJECT_ROOT, file);
		if (!fs.existsSync(from)) continue; // deleted, not yet committed
		fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
		fs.copyFileSync(from, path.join(to, file));
	}
	// what a checkout holds after `npm ci` and `npm test` (the second generation's packages): n8n walks it too
	for (const modules of ['node_modules', 'compat/n8n-2.41/node_modules'])
		if (fs.existsSync(path.join(PROJECT_ROOT, modules)))
			fs.symlinkSync(path.join(PROJECT_ROOT, modules), path.join(to, modules));
}

/** Entries below `dir` as n8n's custom loader walks them at each reload (dot folders entered). */
function walkedEntries(dir) {
	let count = 0;
	walkAsCustomLoader(dir, () => count++);
	return count;
}

/** The descriptions n8n serves for the Poll Trigger (a reload may list a node twice for a while). */
async function servedDescriptions(baseUrl, cookie) {
	const res = await fetch(`${baseUrl}/types/nodes.json`, { headers: { cookie } });
	if (!res.ok) return [];
	let types;
	try {
		types = JSON.parse(await res.text());
	} catch {
		return []; // read while n8n writes it again after a reload
	}
	return types.filter((type) => type.name === TYPE).map((type) => type.description);
}

function startDev(cwd, env) {
	const child = spawn('npm', ['run', 'dev'], {
		cwd,
		env: { ...process.env, ...env }, // E2E_N8N_VERSION: the release npm run dev starts (dev.mjs)
		detached: true, // a process group: everything it starts stops with it
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const lines = [];
	const waiters = [];
	const onText = (text) => {
		for (const line of text.split('\n')) {
			if (!line.trim()) continue;
			lines.push({ at: Date.now(), line });
			if (verbose) console.log(`  | ${line}`);
			for (const waiter of waiters) waiter(line);
		}
	};
	child.stdout.setEncoding('utf8').on('data', onText);
	child.stderr.setEncoding('utf8').on('data', onText);
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve(signal ?? code)),
	);
	return {
		child,
		lines,
		exited,
		/** The first line matching `pattern` (from now on), or a rejection after `ms`. */
		waitFor(pattern, ms) {
			return new Promise((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`no "${pattern}" within ${ms / 1000} s`)),
					ms,
				);
				const waiter = (line) => {
					const match = pattern.exec(line);
					if (!match) return;
					clearTimeout(timer);
					waiters.splice(waiters.indexOf(waiter), 1);
					resolve(match);
				};
				waiters.push(waiter);
				void exited.then((how) =>
					reject(
						new Error(
							`npm run dev exited (${how}): ${lines
								.slice(-15)
								.map((l) => l.line)
								.join('\n')}`,
						),
					),
				);
			});
		},
		async stop() {
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				return 'already gone';
			}
			const how = await Promise.race([
				exited,
				sleep(20_000).then(() => 'still running after 20 s'),
			]);
			return how;
		},
	};
}

/** Processes still running from the copy (their command line or working folder inside it). */
function leftovers(dir) {
	const found = [];
	for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
			const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
			if (cmd.includes(dir) || cwd.startsWith(dir)) found.push(`${pid} ${cmd.slice(0, 100)}`);
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return found;
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-dev-reload-'));
const copy = path.join(workDir, 'repo');
let dev;
const results = [];
let failed = false;
try {
	copyCheckout(copy);
	if (process.argv.includes('--old-layout')) fs.symlinkSync(CACHE_DIR, path.join(copy, '.cache'));
	const entries = walkedEntries(copy);
	console.log(
		`[reload ${N8N_VERSION}] ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; the copy in ${copy}: ${entries.toLocaleString('en')} entries for n8n to walk at each reload`,
	);
	const started = Date.now();
	dev = startDev(copy, {
		N8N_PORT: String(await freePort()),
		SANDBOX_PORT: String(await freePort()),
	});
	const [, baseUrl] = await dev.waitFor(/editor:\s+(http:\/\/\S+?)\/?\s/, 600_000);
	console.log(
		`[reload ${N8N_VERSION}] npm run dev: editor at ${baseUrl} after ${seconds(started)} s`,
	);
	const cookie = await ownerCookie(baseUrl);
	const original = (await servedDescriptions(baseUrl, cookie))[0];
	if (!original) throw new Error(`${TYPE} is not in /types/nodes.json`);
	const sourcePath = path.join(copy, SOURCE);
	const source = fs.readFileSync(sourcePath, 'utf8');
	if (!source.includes(`'${original}'`)) throw new Error(`${SOURCE} does not hold "${original}"`);
	await sleep(5000); // n8n sets its watchers up in the seconds after the editor is reachable
	for (let edit = 1; edit <= EDITS; edit++) {
		const marker = `${original} (edit ${edit})`;
		const reloadsBefore = dev.lines.filter(({ line }) => /Hot reload triggered/.test(line)).length;
		const saved = Date.now();
		fs.writeFileSync(sourcePath, source.replace(`'${original}'`, `'${marker}'`));
		let compiled;
		let served;
		while (Date.now() - saved < TIMEOUT_S * 1000) {
			if (!compiled && fs.readFileSync(path.join(copy, BUILT), 'utf8').includes(marker))
				compiled = seconds(saved);
			if (compiled && (await servedDescriptions(baseUrl, cookie)).includes(marker)) {
				served = seconds(saved);
				break;
			}
			await sleep(250);
		}
		const reloads =
			dev.lines.filter(({ line }) => /Hot reload triggered/.test(line)).length - reloadsBefore;
		results.push({ edit, compiled, served, reloads });
		console.log(
			`[reload ${N8N_VERSION}] edit ${edit}: in dist/ after ${compiled ?? '-'} s, in n8n's /types/nodes.json after ${served ?? `more than ${TIMEOUT_S}`} s (n8n logged ${reloads} reload(s))`,
		);
		if (!served) failed = true;
		await sleep(3000);
	}
} catch (error) {
	console.error(`[reload ${N8N_VERSION}] FAILED: ${error.stack ?? error}`);
	if (dev)
		console.error(
			dev.lines
				.slice(-20)
				.map(({ line }) => `  | ${line}`)
				.join('\n'),
		);
	failed = true;
} finally {
	if (dev) console.log(`[reload ${N8N_VERSION}] stopping npm run dev: ${await dev.stop()}`);
	await sleep(1000);
	const left = leftovers(copy);
	if (left.length) {
		console.error(`[reload ${N8N_VERSION}] processes left running:\n  ${left.join('\n  ')}`);
		failed = true;
	}
	fs.rmSync(workDir, { recursive: true, force: true });
	// the user folder scripts/e2e/dev.mjs gave n8n-node dev for the copy
	const hash = createHash('sha256').update(copy).digest('hex').slice(0, 8);
	fs.rmSync(path.join(os.tmpdir(), `n8n-nodes-content-marketing-dev-${hash}`), {
		recursive: true,
		force: true,
	});
}
const served = results.filter((r) => r.served).map((r) => Number(r.served));
console.log(
	`[reload ${N8N_VERSION}] ${served.length} of ${EDITS} edits reached n8n within ${TIMEOUT_S} s` +
		(served.length
			? `; slowest ${Math.max(...served).toFixed(1)} s, fastest ${Math.min(...served).toFixed(1)} s`
			: ''),
);
process.exit(failed ? 1 : 0);
