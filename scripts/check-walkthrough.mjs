// npm run check:walkthrough: replays docs/adding-an-operation.md in a scratch copy of the project, so a step
// of the walk-through that stops working fails CI (.ci/run). The page is the source of what is applied:
// each code block after a `<!-- replay: ... -->` comment is
//   create <file>                 the whole new file;
//   after <file> "<anchor>"       lines inserted after the line where the anchor ends (a JSON string; any
//                                 run of white space in it matches any run of white space);
//   append <file>                 lines added at the end;
//   replace <file> "<text>"       the block (one line) in place of the first occurrence of the text;
//   run                           bash commands run in the copy, stopping at the first failure.
// The copy is the working tree without node_modules (linked to the checkout's), .git, dist and the test
// folders n8n writes; it is removed at the end. An anchor that matches nothing fails the replay.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 'docs/adding-an-operation.md';

/** The marked steps of the page, in order: { action, file, anchor, code, line }. */
export function stepsOf(markdown) {
	const steps = [];
	const pattern =
		/<!-- replay: (\w+)(?: (\S+))?(?: ("(?:[^"\\]|\\.)*"))? -->\s*\n```\w*\n([\s\S]*?)\n```/g;
	for (const match of markdown.matchAll(pattern)) {
		const [, action, file, anchor, code] = match;
		const line = markdown.slice(0, match.index).split('\n').length;
		steps.push({ action, file, anchor: anchor && JSON.parse(anchor), code, line });
	}
	const marked = (markdown.match(/<!-- replay:/g) ?? []).length;
	if (marked !== steps.length)
		throw new Error(`${marked} replay comments but ${steps.length} followed by a code block`);
	return steps;
}

/** `text` with one step applied (a file step); throws naming the step when its anchor is not found. */
export function applyStep(text, step) {
	const where = `${PAGE}:${step.line} (${step.action} ${step.file})`;
	if (step.action === 'append') return `${text.replace(/\n*$/, '\n\n')}${step.code}\n`;
	if (step.action === 'replace') {
		if (!text.includes(step.anchor)) throw new Error(`${where}: "${step.anchor}" not found`);
		return text.replace(step.anchor, step.code.trim());
	}
	if (step.action === 'after') {
		const words = step.anchor.trim().split(/\s+/).map(escapeRegExp);
		const match = new RegExp(words.join('\\s+')).exec(text);
		if (!match) throw new Error(`${where}: "${step.anchor}" not found`);
		const lineEnd = text.indexOf('\n', match.index + match[0].length);
		const at = lineEnd === -1 ? text.length : lineEnd + 1;
		return `${text.slice(0, at)}${step.code}\n${text.slice(at)}`;
	}
	throw new Error(`${where}: unknown action`);
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The project's files to copy: the working tree without what is installed, built or written by tests. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.cache', '.tmp', 'coverage']);
function copyProject(target) {
	fs.cpSync(root, target, {
		recursive: true,
		filter: (source) => {
			const name = path.basename(source);
			return !SKIPPED.has(name) && !name.startsWith('.n8n-test');
		},
	});
	// every node_modules of the checkout (the root's, compat/n8n-2.41's), linked
	for (const folder of ['.', 'compat/n8n-2.41']) {
		const modules = path.join(root, folder, 'node_modules');
		if (fs.existsSync(modules))
			fs.symlinkSync(modules, path.join(target, folder, 'node_modules'), 'dir');
	}
}

async function main() {
	const started = Date.now();
	const steps = stepsOf(fs.readFileSync(path.join(root, PAGE), 'utf8'));
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-walkthrough-'));
	let status = 1;
	try {
		copyProject(scratch);
		for (const step of steps) {
			if (step.action === 'run') {
				console.log(`\n[walkthrough] ${PAGE}:${step.line}: run\n${step.code}`);
				const run = spawnSync('bash', ['-e', '-c', step.code], { cwd: scratch, stdio: 'inherit' });
				if (run.status !== 0) throw new Error(`${PAGE}:${step.line}: a command failed`);
				continue;
			}
			const file = path.join(scratch, step.file);
			console.log(`[walkthrough] ${PAGE}:${step.line}: ${step.action} ${step.file}`);
			if (step.action === 'create') {
				if (fs.existsSync(file)) throw new Error(`${PAGE}:${step.line}: ${step.file} exists`);
				fs.mkdirSync(path.dirname(file), { recursive: true });
				fs.writeFileSync(file, `${step.code}\n`);
			} else {
				fs.writeFileSync(file, applyStep(fs.readFileSync(file, 'utf8'), step));
			}
		}
		status = 0;
	} catch (error) {
		console.error(`[walkthrough] FAILED: ${error.message}`);
	} finally {
		// WALKTHROUGH_KEEP=1: the copy stays, e.g. to time the quick loop in it
		if (process.env.WALKTHROUGH_KEEP === '1') console.log(`[walkthrough] kept ${scratch}`);
		else fs.rmSync(scratch, { recursive: true, force: true });
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(0);
	console.log(`[walkthrough] ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
	process.exit(status);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
	await main();
