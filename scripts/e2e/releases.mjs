// One e2e script on several n8n releases: the parent installs each release and builds the package
// once, then runs the script in a child process per release on the Node that runs that release
// (E2E_N8N_VERSION names it, E2E_PACKAGE_BUILT=1 says the build is done), so the script's helpers use
// that n8n's own native modules. Side by side or one after the other; a summary line per release.
import { spawn } from 'node:child_process';

import { installN8n, N8N_VERSIONS, n8nRuntime, PROJECT_ROOT } from './install-n8n.mjs';
import { createProgress } from './progress.mjs';
import { buildPackage } from './stack.mjs';

/** True in the child started for one release. */
export const isReleaseChild = () => Boolean(process.env.E2E_N8N_VERSION);

/** The releases named by `--n8n=<v>[,<v>]`, else every release in N8N_VERSIONS. */
export function chosenVersions(argv = process.argv, defaults = N8N_VERSIONS) {
	const chosen = argv.find((a) => a.startsWith('--n8n='))?.slice('--n8n='.length);
	return chosen ? chosen.split(',') : defaults;
}

function runChild(script, version, args) {
	return spawnChild(n8nRuntime(version).nodeBin, script, { E2E_N8N_VERSION: version }, args);
}

/** `script` on `node` in a child process, after the parent's build (E2E_PACKAGE_BUILT). */
function spawnChild(node, script, env = {}, args = []) {
	return new Promise((resolve) => {
		const child = spawn(node, [script, ...args], {
			cwd: PROJECT_ROOT,
			env: { ...process.env, ...env, E2E_PACKAGE_BUILT: '1' },
			stdio: 'inherit',
		});
		child.on('error', (error) => resolve({ code: 1, error }));
		child.on('exit', (code, signal) => resolve({ code: code ?? 1, signal }));
	});
}

/**
 * Installs and builds, runs `before` (a step for what the releases share), then `script` once per
 * release (with `args`), and each of `alongside` (`{ what, script }`, on this Node) beside them.
 * Resolves to the exit code: 1 when any step, release or script alongside failed.
 */
export async function runEveryRelease({
	script,
	args = [],
	versions,
	prefix,
	sideBySide = false,
	before,
	alongside = [],
}) {
	const progress = createProgress({ prefix });
	try {
		// both at once on a fresh machine: downloads overlap, and the store is shared
		await Promise.all(
			versions.map((version) =>
				progress.step(`install n8n ${version} if needed`, async () => {
					const { skipped, seconds } = await installN8n({ version });
					return { detail: skipped ? 'already installed' : `installed in ${seconds.toFixed(1)} s` };
				}),
			),
		);
		// E2E_PACKAGE_BUILT=1 from the caller: dist/ is fresh already (.ci/run builds once for every step)
		if (process.env.E2E_PACKAGE_BUILT !== '1')
			await progress.step('build the package (node scripts/build.mjs)', buildPackage);
		if (before) await progress.step(before.title, before.run);
	} catch (error) {
		console.error(`\n${prefix} FAILED in step "${error.step}":\n${error.stack ?? error}`);
		return 1;
	}
	const timed = async (what, run) => {
		const t0 = Date.now();
		const { code, signal, error } = await run();
		return {
			what,
			ok: code === 0,
			seconds: (Date.now() - t0) / 1000,
			why: error?.message ?? signal ?? code,
		};
	};
	const one = (version) => timed(`n8n ${version}`, () => runChild(script, version, args));
	// Started first, so that their minutes run beside the releases' instead of adding to them.
	const extra = alongside.map(({ what, script: other }) =>
		timed(what, () => spawnChild(process.execPath, other)),
	);
	const results = [];
	if (sideBySide) results.push(...(await Promise.all(versions.map(one))));
	else for (const version of versions) results.push(await one(version));
	results.push(...(await Promise.all(extra)));
	console.log(
		`\n${prefix} summary (${progress.seconds().toFixed(1)} s in all${sideBySide && versions.length > 1 ? ', releases side by side' : ''}):`,
	);
	for (const r of results)
		console.log(
			`  ${r.what}: ${r.ok ? 'passed' : `FAILED (${r.why})`} in ${r.seconds.toFixed(1)} s`,
		);
	return results.every((r) => r.ok) ? 0 : 1;
}
