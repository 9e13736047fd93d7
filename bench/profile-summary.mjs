// Self time of a --cpu-prof profile grouped by where the code lives (our node, n8n-core, n8n-workflow,
// axios/follow-redirects, the sandbox, Node internals...), then the top functions.
//   node bench/profile-summary.mjs .tmp/prof/A-0ms-node-round1.cpuprofile (BENCH_PROFILE=.tmp/prof npm run bench)
//   node bench/profile-summary.mjs .tmp/prof/CPU.*.cpuprofile
import fs from 'node:fs';

const groups = [
	// Our package's built code, in the project (harness) or installed in n8n; not n8n-nodes-base's dist/nodes.
	['our node (dist/nodes/ContentMarketing)', /\/dist\/(nodes\/ContentMarketing|credentials)\//],
	['n8n-nodes-base (Webhook, Split Out, HTTP Request)', /n8n-nodes-base\//],
	['n8n database (typeorm, sqlite)', /(@n8n\/typeorm|sqlite3|@n8n\/db)\//],
	['profiler (bench/cpu-profile-preload.cjs)', /^node:inspector$|cpu-profile-preload/],
	['sandbox', /\/sandbox\/src\//],
	['n8n-core', /n8n-core\//],
	['n8n-workflow', /n8n-workflow\//],
	['axios / follow-redirects / proxy agents', /(axios|follow-redirects|proxy-agent|agent-base)\//],
	['fastify / pino', /(fastify|pino|avvio|find-my-way|light-my-request)/],
	['zod', /\/zod\//],
	['test harness', /\/test\/harness\//],
	['tsx / esbuild (loading)', /(tsx|esbuild)\//],
	['other node_modules', /node_modules\//],
	['node internals', /^node:|^internal\/|^$/],
];

for (const file of process.argv.slice(2)) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const self = new Map();
	const intervals = profile.timeDeltas;
	profile.samples.forEach((id, index) =>
		self.set(id, (self.get(id) ?? 0) + (intervals[index] ?? 0)),
	);
	const byGroup = new Map();
	const byFunction = new Map();
	let total = 0;
	for (const [id, micros] of self) {
		const { callFrame } = byId.get(id);
		const url = callFrame.url ?? '';
		if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
		total += micros;
		const group =
			callFrame.functionName === '(garbage collector)'
				? 'garbage collector'
				: (groups.find(([, re]) => re.test(url))?.[0] ?? 'other');
		byGroup.set(group, (byGroup.get(group) ?? 0) + micros);
		const key = `${callFrame.functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|sandbox|test)\//, '$1/')}:${callFrame.lineNumber + 1}`;
		byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
	}
	console.log(`${file}: ${(total / 1000).toFixed(0)} ms busy`);
	for (const [group, micros] of [...byGroup].sort((a, b) => b[1] - a[1])) {
		console.log(`  ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${group}`);
	}
	console.log('  top functions (self time):');
	for (const [name, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
		console.log(`  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${name}`);
	}
}
