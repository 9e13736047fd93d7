// Generation 2: every suite that runs nodes inside n8n's engine, on the n8n-core / n8n-workflow that
// n8n 2.41 runs (installed here by scripts/compat.mjs), under Node 24 (scripts/test-gen2.mjs). The
// resolver points every import of n8n's packages here; test/harness/generation.test.ts checks which
// versions were loaded. The suites that never load n8n (unit, sandbox, behaviour) run once, in `npm test`.
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const base = require(path.join(root, 'jest.config.js'));

/** The suites run on both generations. */
const ENGINE_SUITES = ['harness', 'node', 'trigger', 'poll-trigger', 'examples'];

module.exports = {
	...base,
	rootDir: root,
	roots: ENGINE_SUITES.map((folder) => `<rootDir>/test/${folder}`),
	resolver: path.join(__dirname, 'jest-resolver.js'),
	setupFiles: [path.join(__dirname, 'setup-env.js')],
};
