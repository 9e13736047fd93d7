// npm run lint: n8n's community-package scanner on the source and on the packed tarball (as n8n runs it
// for verified nodes), the publish workflow, n8n's CLI (`n8n-node cloud-support` must say eligible,
// `n8n-node lint` must pass on the published code), typescript-eslint on the other folders
// (eslint.dev.config.mjs), Prettier on every folder, a full type check, and the docs check
// (scripts/docs-check.ts: what the docs name exists, each figure in its home; size budgets; no dates).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';
import { runtimeWorkflowImports, supportedWorkflowExports } from './compat.mjs';
import { checkCustomLoaderFiles } from './custom-loader-files.mjs';
import { checkDeclaredImports } from './declared-imports.mjs';
import { ensureNode24 } from './node24.mjs';

await ensureNode24(); // the project's Node (scripts/node24.mjs): re-runs this on Node 24 when older

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
let failed = false;

function report(label, result) {
	if (result.passed) {
		console.log(`ok   ${label}`);
		return;
	}
	failed = true;
	console.log(`FAIL ${label}: ${result.message}`);
	if (result.details) console.log(result.details);
}

function checkManifest() {
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const problems = [];
	if (pkg.dependencies && Object.keys(pkg.dependencies).length)
		problems.push('runtime "dependencies" are not allowed');
	if (pkg.overrides) problems.push('"overrides" is not allowed');
	const peers = Object.keys(pkg.peerDependencies ?? {});
	if (peers.length !== 1 || pkg.peerDependencies['n8n-workflow'] !== '*')
		problems.push('the only peer must be n8n-workflow "*"');
	if (JSON.stringify(pkg.files) !== '["dist"]') problems.push('"files" must be ["dist"]');
	return problems.length ? { passed: false, message: problems.join('; ') } : { passed: true };
}

function checkTarball(paths) {
	const stray = paths.filter((p) => !/^(dist\/|README\.md$|LICENSE$|package\.json$)/.test(p));
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const required = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	for (const node of pkg.n8n.nodes) {
		const dir = path.posix.dirname(node);
		const NodeClass = Object.values(require(path.join(root, node)))[0];
		const { icon } = new NodeClass().description;
		required.push(
			node.replace(/\.js$/, '.json'),
			// each icon where the node's description points (file: paths are relative to the node's file)
			...[icon.light, icon.dark].map((file) => path.posix.join(dir, file.replace(/^file:/, ''))),
		);
	}
	required.push(...schemaFiles(pkg));
	const missing = required.filter((p) => !paths.includes(p));
	const problems = [
		...stray.map((p) => `not allowed: ${p}`),
		...missing.map((p) => `missing: ${p}`),
	];
	return problems.length ? { passed: false, message: problems.join('; ') } : { passed: true };
}

/** Published code may import only n8n-workflow (the peer) and node:crypto: the package has no runtime dependencies; n8n's own rules allow any devDependency. */
const ALLOWED_IMPORTS = new Set(['n8n-workflow', 'node:crypto']);
function checkNodeImports() {
	const problems = [];
	for (const dir of ['nodes', 'credentials']) {
		for (const file of readdirSync(path.join(root, dir), { recursive: true })) {
			if (!String(file).endsWith('.ts')) continue;
			const text = readFileSync(path.join(root, dir, String(file)), 'utf8');
			const specs = [
				...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
				...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
				...text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g),
			].map((match) => match[1]);
			for (const spec of specs) {
				if (!spec.startsWith('.') && !ALLOWED_IMPORTS.has(spec))
					problems.push(`${dir}/${file}: ${spec}`);
			}
		}
	}
	return problems.length
		? { passed: false, message: `not allowed at run time: ${problems.join('; ')}` }
		: { passed: true };
}

/**
 * The vendor folder (nodes/ContentMarketing/, after n8n-nodes-base's Airtable): each node's own code lives in
 * its folder, next to its .node.ts; everything else there (transport/, helpers/, methods/, leadEvents/) is
 * shared. No node's code imports another node's, and shared code imports no node's.
 */
const VENDOR = 'nodes/ContentMarketing';
const NODE_FOLDERS = {
	ContentMarketing: 'actions',
	ContentMarketingTrigger: 'trigger',
	ContentTriggerMarketing: 'pollTrigger',
};
function ownerOf(file) {
	const rel = path.posix.relative(VENDOR, file);
	// a node's file beside the shared folders, or in a folder of its own named after it
	const nodeFile = rel.match(/^(?:(\w+)\/)?(\w+)\.node\.ts$/);
	if (nodeFile && (nodeFile[1] === undefined || nodeFile[1] === nodeFile[2])) return nodeFile[2];
	const top = rel.split('/')[0];
	return Object.keys(NODE_FOLDERS).find((node) => NODE_FOLDERS[node] === top);
}
function checkNodeFolders() {
	const problems = [];
	for (const entry of readdirSync(path.join(root, VENDOR), { recursive: true })) {
		if (!String(entry).endsWith('.ts')) continue;
		const file = path.posix.join(VENDOR, String(entry).split(path.sep).join('/'));
		const text = readFileSync(path.join(root, file), 'utf8');
		const owner = ownerOf(file);
		for (const [, spec] of text.matchAll(/\bfrom\s*['"](\.[^'"]*)['"]/g)) {
			const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
			const targetOwner = ownerOf(`${target}.ts`) ?? ownerOf(`${target}/index.ts`);
			if (targetOwner !== undefined && targetOwner !== owner)
				problems.push(
					`${file} (${owner ?? 'shared'}) imports ${spec}, which belongs to ${targetOwner}`,
				);
		}
	}
	return problems.length ? { passed: false, message: problems.join('; ') } : { passed: true };
}

/**
 * The output schema every operation of the action node needs in the tarball, once per node version:
 * dist/nodes/<Node>/__schema__/v<x.y.z>/<resource>/<operation>.json (scripts/build.mjs, generate-schemas.ts).
 */
function schemaFiles(pkg) {
	const files = [];
	for (const node of pkg.n8n.nodes) {
		const NodeClass = Object.values(require(path.join(root, node)))[0];
		const { description } = new NodeClass();
		const operations = description.properties.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource,
		);
		if (description.group.includes('trigger') || operations.length === 0) continue;
		for (const version of [description.version].flat()) {
			const padded = String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
			for (const property of operations) {
				for (const resource of property.displayOptions.show.resource) {
					for (const option of property.options) {
						files.push(
							`${path.posix.dirname(node)}/__schema__/v${padded}/${resource}/${option.value}.json`,
						);
					}
				}
			}
		}
	}
	return files;
}

/**
 * .github/workflows/publish.yml: parses, publishes with provenance on a version tag with `id-token: write`,
 * and runs every npm command CI runs (.ci/run) before publishing.
 */
function checkPublishWorkflow() {
	let yaml;
	try {
		yaml = require('js-yaml');
	} catch {
		return {
			passed: false,
			message: 'js-yaml (a dev dependency of eslint) is not installed: run npm ci',
		};
	}
	let workflow;
	try {
		workflow = yaml.load(readFileSync(path.join(root, '.github/workflows/publish.yml'), 'utf8'));
	} catch (error) {
		return { passed: false, message: `does not parse: ${error.message}` };
	}
	const problems = [];
	const tags = workflow?.on?.push?.tags;
	if (!Array.isArray(tags) || tags.length === 0)
		problems.push('not triggered by pushed tags (on.push.tags)');
	const jobs = Object.values(workflow?.jobs ?? {});
	if (jobs.length === 0) problems.push('no jobs');
	const runs = jobs
		.flatMap((job) => (job.steps ?? []).map((step) => step.run).filter(Boolean))
		.join('\n');
	// n8n's CLI publishes: `npm run release` (n8n-node release) in GitHub Actions runs `npm publish` with
	// provenance and RELEASE_MODE (which the prepublishOnly guard `n8n-node prerelease` requires)
	const PUBLISH = 'npm run release';
	const publishing = jobs.filter((job) =>
		(job.steps ?? []).some((step) =>
			(step.run ?? '').split('\n').some((l) => l.trim() === PUBLISH),
		),
	);
	if (publishing.length === 0) problems.push(`no \`${PUBLISH}\` step`);
	for (const job of publishing) {
		if (job.permissions?.['id-token'] !== 'write')
			problems.push('the publishing job lacks `permissions: id-token: write`');
	}
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	if (pkg.scripts?.release !== 'n8n-node release')
		problems.push('"release" is not `n8n-node release`');
	if (pkg.scripts?.prepublishOnly !== 'n8n-node prerelease')
		problems.push('"prepublishOnly" is not `n8n-node prerelease`');
	if (pkg.publishConfig?.provenance !== true)
		problems.push('"publishConfig.provenance" is not true');
	// An npm command by what it runs (`npm ci`, `npm test`, `npm run <script>`), whatever its flags; in
	// .ci/run each goes through the timing function `step`.
	const npmCommand = (line) => /^(?:step\s+)?(npm (?:ci|test|run \S+))/.exec(line.trim())?.[1];
	const ciCommands = readFileSync(path.join(root, '.ci/run'), 'utf8')
		.split('\n')
		.map(npmCommand)
		.filter(Boolean);
	const runLines = runs.split('\n').map(npmCommand);
	if (ciCommands.length === 0) problems.push('no npm command found in .ci/run');
	for (const command of ciCommands) {
		if (!runLines.includes(command)) problems.push(`does not run \`${command}\` as CI does`);
	}
	const lastCheck = Math.max(...ciCommands.map((command) => runLines.indexOf(command)));
	if (runs.split('\n').findIndex((l) => l.trim() === PUBLISH) < lastCheck)
		problems.push('publishes before the CI checks have run');
	return problems.length ? { passed: false, message: problems.join('; ') } : { passed: true };
}

/** scripts/docs-check.ts, run by tsx: each line it prints is a problem. */
function checkDocs() {
	try {
		execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/docs-check.ts')], {
			cwd: root,
			encoding: 'utf8',
			stdio: 'pipe',
		});
		return { passed: true };
	} catch (error) {
		const lines = String(error.stdout ?? '').trim();
		return {
			passed: false,
			message: 'fix what the docs name, or what they say',
			details: lines || String(error.stderr ?? error.message),
		};
	}
}

report('package.json: no dependencies, no overrides, peer n8n-workflow only', checkManifest());
report(
	'package.json: every imported package declared, every devDependency used',
	checkDeclaredImports(root),
);
report('nodes/, credentials/ import only n8n-workflow and node:crypto', checkNodeImports());
report(
	"nodes/ContentMarketing/: no node's folder imports another node's, shared code imports none",
	checkNodeFolders(),
);
report(
	'docs (scripts/docs-check.ts): scripts, commands, flags, environment variables, paths, links, anchors exist; figures only in docs/performance.md, docs/checks.md; budgets; no dates or hashes',
	checkDocs(),
);
report(
	'.github/workflows/publish.yml: parses, n8n-node release on a version tag, id-token: write, CI checks first',
	checkPublishWorkflow(),
);

// E2E_PACKAGE_BUILT=1: the caller has just built dist/ (.ci/run after npm test, npm run check)
if (process.env.E2E_PACKAGE_BUILT !== '1')
	execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
		cwd: root,
		stdio: 'inherit',
	});
/** The built package's runtime imports from n8n-workflow exist in the n8n-workflow of every supported n8n. */
function checkWorkflowImports() {
	const uses = runtimeWorkflowImports(path.join(root, 'dist'));
	const problems = [];
	for (const { n8n, version, names } of supportedWorkflowExports()) {
		for (const [name, files] of uses) {
			if (!names.has(name))
				problems.push(
					`${name} is not exported by n8n-workflow ${version} (n8n ${n8n}), used in ${[...files].join(', ')}`,
				);
		}
	}
	return problems.length ? { passed: false, message: problems.join('; ') } : { passed: true };
}

report(
	"npm run dev (n8n-node dev links the project into n8n): n8n's custom loader finds only our built nodes and credentials (no stray *.node.js / *.credentials.js)",
	checkCustomLoaderFiles(root),
);
report(
	'runtime imports from n8n-workflow exist in n8n 2.8.4 (n8n-workflow 2.8.0) and n8n 2.41.3 (2.41.0)',
	checkWorkflowImports(),
);
report(
	'scanner on the source (package.json, nodes/, credentials/)',
	await analyzePackage(root, SOURCE_FILE_PATTERNS),
);

const packDir = mkdtempSync(path.join(os.tmpdir(), 'cm-pack-'));
try {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], {
		cwd: root,
		encoding: 'utf8',
	});
	const [{ filename, files }] = JSON.parse(out);
	report(
		'tarball holds only dist/, README.md, LICENSE, package.json, with every node, icon, codex and output schema',
		checkTarball(files.map((f) => f.path)),
	);
	execFileSync('tar', ['-xzf', path.join(packDir, filename), '-C', packDir]);
	report(
		'scanner on the packed tarball (**/*.js, package.json)',
		await analyzePackage(path.join(packDir, 'package'), ['**/*.js', 'package.json']),
	);
} finally {
	rmSync(packDir, { recursive: true, force: true });
}

/** n8n's CLI (@n8n/node-cli), as `npx n8n-node <args>` runs it, in `cwd`; its output is returned. */
function n8nNode(args, cwd = root) {
	try {
		const output = execFileSync(
			process.execPath,
			[path.join(root, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), ...args],
			{ cwd, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } },
		);
		return { ok: true, output };
	} catch (error) {
		return { ok: false, output: String(error.stdout ?? '') + String(error.stderr ?? '') };
	}
}

const status = n8nNode(['cloud-support']);
report(
	'n8n-node cloud-support: eligible for n8n Cloud verification (strict mode, default ESLint config)',
	status.ok && /Status: eligible/.test(status.output)
		? { passed: true }
		: { passed: false, message: 'not eligible', details: status.output },
);

// `n8n-node lint` runs `eslint .` with n8n's default config, which strict mode forbids changing: it would
// also apply the Cloud rules (no node:http, no setTimeout, ...) to the sandbox, the tests and the scripts,
// which n8n never loads. So it runs on what n8n verifies, the published code: a copy of package.json,
// eslint.config.mjs, tsconfig.json, nodes/ and credentials/ (node_modules linked).
const lintDir = mkdtempSync(path.join(os.tmpdir(), 'cm-n8n-lint-'));
try {
	for (const entry of [
		'package.json',
		'eslint.config.mjs',
		'tsconfig.json',
		'nodes',
		'credentials',
	])
		cpSync(path.join(root, entry), path.join(lintDir, entry), { recursive: true });
	symlinkSync(path.join(root, 'node_modules'), path.join(lintDir, 'node_modules'), 'dir');
	const lint = n8nNode(['lint'], lintDir);
	report(
		"n8n-node lint (n8n's default ESLint config, strict mode) on package.json, nodes/, credentials/",
		lint.ok ? { passed: true } : { passed: false, message: 'errors', details: lint.output },
	);
} finally {
	rmSync(lintDir, { recursive: true, force: true });
}

const ESLINT_LABEL =
	'ESLint (eslint.dev.config.mjs: typescript-eslint) on sandbox/, test/, scripts/, bench/';
const eslint = new ESLint({
	cwd: root,
	overrideConfigFile: path.join(root, 'eslint.dev.config.mjs'),
	errorOnUnmatchedPattern: false,
});
const results = await eslint.lintFiles([
	'sandbox/**/*.ts',
	'test/**/*.ts',
	'scripts/**/*.{ts,mjs}',
	'bench/**/*.{ts,mjs}',
	'*.mjs',
]);
const errors = results.reduce((sum, r) => sum + r.errorCount, 0);
if (errors) {
	console.log((await eslint.loadFormatter('stylish')).format(results));
	report(ESLINT_LABEL, { passed: false, message: `${errors} error(s)` });
} else {
	report(ESLINT_LABEL, { passed: true });
}

const PRETTIER_LABEL = 'Prettier: every file formatted (npx prettier --write . fixes it)';
try {
	// Every file of the repository, with the n8n starter's settings (.prettierrc.js, .prettierignore).
	execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--check', '.'], {
		cwd: root,
		stdio: 'pipe',
	});
	report(PRETTIER_LABEL, { passed: true });
} catch (error) {
	const listed = String(error.stdout ?? '') + String(error.stderr ?? '');
	report(PRETTIER_LABEL, { passed: false, message: 'files not formatted', details: listed });
}

try {
	execFileSync(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.dev.json')],
		{ cwd: root, stdio: 'inherit' },
	);
	report('type check (tsc -p tsconfig.dev.json)', { passed: true });
} catch {
	report('type check (tsc -p tsconfig.dev.json)', { passed: false, message: 'type errors above' });
}

process.exit(failed ? 1 : 0);
