// `n8n-node dev --external-n8n --custom-user-folder <folder>` (@n8n/node-cli, the pinned devDependency) run for
// `npm run dev`: the CLI copies the static files into dist/ (as its build does), links the project root into
// `<folder>/.n8n/custom/node_modules/n8n-nodes-content-marketing` and runs `tsc --watch`; the n8n it would
// otherwise start (`npx n8n@latest`) is ours, from the cache folder (scripts/e2e/dev.mjs).
//
// The CLI draws a screen: every 100 ms that its output changes it writes the whole screen again (clear,
// header, one panel with the last lines of tsc, cut to 80 columns when stdout is not a terminal). It runs
// here with stdout piped, and only the panel's new lines are passed on, so they sit among dev.mjs's own.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from './install-n8n.mjs';

const CLI = path.join(PROJECT_ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');
/** What the CLI writes before each screen (ANSI clear screen, cursor home). */
const SCREEN = '\x1b[2J\x1b[H';
const ANSI = /\x1b(?:\[[0-9;?]*[A-Za-z]|c)/g;

/** The panel of one screen: its status ("running", "exit 1", ...) and its lines, trailing blank ones dropped. */
export function readPanel(screen) {
	const lines = screen.split('\n').map((line) => line.replace(ANSI, ''));
	const top = lines.findIndex((line) => line.startsWith('╭─'));
	const bottom = lines.findIndex((line, i) => i > top && line.startsWith('╰─'));
	if (top < 0 || bottom < 0) return undefined; // a screen not written in full yet
	const body = lines.slice(top + 1, bottom).map((line) => line.replace(/^│ ?/, '').trimEnd());
	while (body.length && body.at(-1) === '') body.pop();
	return { status: /\(([^()]*)\)\s*$/.exec(lines[top])?.[1], lines: body };
}

/**
 * The lines of `next` that `previous` did not show. The panel is a window on the last lines of the
 * output, so `next` starts with the longest end of `previous` it shares.
 */
export function newLines(previous, next) {
	for (let k = Math.min(previous.length, next.length); k > 0; k--) {
		if (previous.slice(-k).every((line, i) => line === next[i])) return next.slice(k);
	}
	return next;
}

/** Pids of a process's children (Linux /proc): the CLI starts tsc in a process group of its own. */
function childPids(pid) {
	try {
		return fs
			.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
			.split(/\s+/)
			.filter(Boolean)
			.map(Number);
	} catch {
		return [];
	}
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false; // gone
	}
}

/**
 * Starts the CLI. `onLine(line)` gets each new line of its tsc panel, `onCompile(errors)` each finished
 * compile ("Found N errors"). `compiled` resolves with the first compile's error count; `exited` with
 * `{ code, signal }`. stop(): SIGTERM (the CLI stops tsc, 5 s grace, and exits), SIGKILL after graceMs.
 */
export function startNodeCliDev({ userFolder, onLine = () => {}, onCompile = () => {} }) {
	const env = { ...process.env };
	// the CLI forces colours on tsc (FORCE_COLOR=3); a NO_COLOR beside it only makes Node warn
	delete env.NO_COLOR;
	const child = spawn(
		process.execPath,
		[CLI, 'dev', '--external-n8n', '--custom-user-folder', userFolder],
		{ cwd: PROJECT_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	// its tsc, in a group of its own, must not outlive this process either
	const groups = () => [child.pid, ...childPids(child.pid)];
	let known = [];
	const killAll = () => {
		for (const pid of new Set([...known, ...groups()])) killGroup(pid, 'SIGKILL');
	};
	process.on('exit', killAll);

	const exited = new Promise((resolve) => {
		child.on('exit', (code, signal) => resolve({ code, signal }));
		child.on('error', (error) => resolve({ code: null, signal: null, error }));
	});
	let resolveCompiled;
	let rejectCompiled;
	const compiled = new Promise((resolve, reject) => {
		resolveCompiled = resolve;
		rejectCompiled = reject;
	});
	compiled.catch(() => {});
	exited.then(({ code, signal, error }) =>
		rejectCompiled(
			new Error(
				`n8n-node dev exited (${error?.message ?? signal ?? code}) before its first compile`,
			),
		),
	);

	let shown = [];
	let pending = '';
	const onScreen = (screen) => {
		const panel = readPanel(screen);
		if (!panel) return;
		for (const line of newLines(shown, panel.lines)) {
			onLine(line);
			const found = /Found (\d+) errors?\./.exec(line);
			if (found) {
				onCompile(Number(found[1]));
				resolveCompiled(Number(found[1]));
			}
		}
		shown = panel.lines;
		known = groups(); // tsc's group, while the CLI is alive to tell it
	};
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (text) => {
		const screens = (pending + text).split(SCREEN);
		pending = screens.at(-1);
		// the last one too: a screen written in full is read now, a partial one (no panel bottom) is not
		for (const screen of screens) onScreen(screen);
	});
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text) => {
		for (const line of text.split('\n')) if (line.trim()) onLine(line.replace(ANSI, ''));
	});

	let stopping;
	return {
		pid: child.pid,
		compiled,
		exited,
		stop: ({ graceMs = 10_000 } = {}) =>
			(stopping ??= (async () => {
				known = groups();
				if (child.exitCode === null && child.signalCode === null) {
					killGroup(child.pid, 'SIGTERM');
					let timer;
					const late = new Promise((r) => (timer = setTimeout(() => r('late'), graceMs)));
					if ((await Promise.race([exited, late])) === 'late') killAll();
					clearTimeout(timer);
				}
				const result = await exited;
				killAll(); // nothing of its own may stay behind
				process.off('exit', killAll);
				return result;
			})()),
	};
}
