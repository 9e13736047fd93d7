// Where the project keeps what it fetches: Node 24 and pnpm (scripts/node24.mjs), pnpm's store and the n8n
// installs of the end-to-end check (scripts/e2e/install-n8n.mjs), about 3.5 GB. Outside the project root on
// purpose: `npm run dev` links the project root into n8n's custom folder, and n8n walks all of it on every
// hot reload, following links and entering dot folders; with the 2.2 M entries of these installs inside
// the project a change reached n8n after 39 s or not at all (CONTRIBUTING.md, "npm run dev through
// n8n-node dev"). So: `$CONTENT_MARKETING_CACHE` when set (e.g. an empty folder for a cold run), else
// `$XDG_CACHE_HOME/n8n-nodes-content-marketing`, else `~/.cache/n8n-nodes-content-marketing`. Every
// checkout of the same user shares it; what installs into it holds a lock (withCacheLock).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function cacheDir() {
	if (process.env.CONTENT_MARKETING_CACHE) return path.resolve(process.env.CONTENT_MARKETING_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-content-marketing');
}

export const CACHE_DIR = cacheDir();

/** Where the cache lived before (inside the project): n8n-node dev's reloads walk it while it is there. */
export const OLD_CACHE_DIR = path.join(PROJECT_ROOT, '.cache');

const inProject = (real) => (real + path.sep).startsWith(PROJECT_ROOT + path.sep);
if (inProject(CACHE_DIR))
	throw new Error(
		`the cache folder ${CACHE_DIR} is inside the project: n8n-node dev's reloads would walk it ` +
			'(unset CONTENT_MARKETING_CACHE or point it outside the project)',
	);

/** A path for messages: relative to the project inside it, `~/...` under the home folder. */
export function shownPath(file) {
	if (inProject(file)) return path.relative(PROJECT_ROOT, file) || '.';
	const home = os.homedir();
	return (file + path.sep).startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}

function processAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

const log = (message) => process.stderr.write(`[cache] ${message}\n`);

/** One attempt at `<CACHE_DIR>/.<name>.lock` (a directory with the holder's pid; a dead holder's is taken over). */
function tryLock(lock) {
	fs.mkdirSync(CACHE_DIR, { recursive: true });
	try {
		fs.mkdirSync(lock);
		fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
		return { taken: true };
	} catch (error) {
		if (error.code !== 'EEXIST') throw error;
	}
	let holder = NaN;
	try {
		holder = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
	} catch {
		// just created: the holder writes its pid next
	}
	if (holder > 0 && !processAlive(holder)) {
		log(`removing the lock of a finished install (pid ${holder})`);
		fs.rmSync(lock, { recursive: true, force: true });
		return tryLock(lock);
	}
	return { taken: false, holder };
}

const lockPath = (name) => path.join(CACHE_DIR, `.${name}.lock`);

/** Tries the lock `name` until taken: yields after each failed try, so that the caller waits a second. */
function* untilLocked(name) {
	for (let waited = 0; ; waited++) {
		const { taken, holder } = tryLock(lockPath(name));
		if (taken) return;
		if (waited % 30 === 0)
			log(`another process installs ${name} (pid ${holder || '?'}); waiting for it`);
		yield;
	}
}

const unlock = (name) => fs.rmSync(lockPath(name), { recursive: true, force: true });

/**
 * Runs async fn holding the cache's lock `name` (one install of the same thing at a time). It waits
 * without blocking: a process may hold one lock while it waits for another (both n8n releases install at
 * once), and must still see its own install's child exit.
 */
export async function withCacheLock(name, fn) {
	for (const _ of untilLocked(name)) await new Promise((resolve) => setTimeout(resolve, 1000));
	try {
		return await fn();
	} finally {
		unlock(name);
	}
}

/** The same for synchronous fn (scripts/node24.mjs installs Node 24 before anything else runs). */
export function withCacheLockSync(name, fn) {
	const pause = new Int32Array(new SharedArrayBuffer(4));
	for (const _ of untilLocked(name)) Atomics.wait(pause, 0, 0, 1000);
	try {
		return fn();
	} finally {
		unlock(name);
	}
}
