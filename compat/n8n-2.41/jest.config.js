// Generation 2: every suite that runs nodes inside n8n's engine, on the n8n-core / n8n-workflow that
// n8n 2.41 runs (installed here by scripts/compat.mjs), under Node 24 (scripts/test-gen2.mjs). The
// resolver points every import of n8n's packages here; test/harness/generation.test.ts checks which
// versions were loaded. The suites that never load n8n (unit, sandbox, behaviour) run once, in `npm test`,
// and so do the engine suites in FIRST_GENERATION_ONLY.
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const base = require(path.join(root, 'jest.config.js'));

/** The suites run on both generations. */
const ENGINE_SUITES = ['harness', 'node', 'trigger', 'poll-trigger', 'examples'];

/**
 * Engine suites run on the first generation only: what they add to the other poll-trigger suites is how
 * our poll loop behaves when polls overlap or run out of budget under the harness's model of n8n's
 * schedulers (test/harness/poll.ts), code that is the same in both runs. The engine they call is the
 * other suites' (PollContext with 2.41's getPollBudgetMs, which every poll reads; TriggersAndPollers, whose
 * 2.41 runPollFunction only counts overlapping polls for its metrics), which run here on 2.41.
 */
const FIRST_GENERATION_ONLY = [
	'test/poll-trigger/overlap.test.ts',
	'test/poll-trigger/budget.test.ts',
];

module.exports = {
	...base,
	rootDir: root,
	roots: ENGINE_SUITES.map((folder) => `<rootDir>/test/${folder}`),
	testPathIgnorePatterns: [
		'/node_modules/',
		...FIRST_GENERATION_ONLY.map((file) => `<rootDir>/${file}`),
	],
	resolver: path.join(__dirname, 'jest-resolver.js'),
	setupFiles: [path.join(__dirname, 'setup-env.js')],
};
