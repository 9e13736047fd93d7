// What the stand-alone checks `npm run lint` runs (declared-imports.mjs, custom-loader-files.mjs) return,
// and how each runs on its own: one place for the result's shape and the command-line entry.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `{ passed }`, or `{ passed: false, message, details }` listing each problem on its own line. */
export function checkResult(problems) {
	return problems.length
		? {
				passed: false,
				message: `${problems.length} problem(s)`,
				details: problems.map((p) => `     ${p}`).join('\n'),
			}
		: { passed: true };
}

/** Runs `check(projectRoot)` when the module at `moduleUrl` is the script node was started with. */
export function runWhenMain(moduleUrl, check) {
	if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
	const result = check(path.resolve(path.dirname(fileURLToPath(moduleUrl)), '..'));
	console.log(result.passed ? 'ok' : `${result.message}\n${result.details}`);
	process.exitCode = result.passed ? 0 : 1;
}
