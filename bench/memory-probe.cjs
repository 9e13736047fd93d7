// Preloaded into the bench's n8n (NODE_OPTIONS=--require ...): figure D's memory, read inside n8n.
// Each SIGWINCH is a mark and appends one JSON line to BENCH_MEMORY_FILE:
//   inUsePeak: the most memory n8n's JavaScript had in use (V8 heap + external, e.g. response buffers)
//              since the mark before, garbage included. Exact, not sampled: between two collections the
//              heap only grows, so the peak is the largest "before" of V8's collections since the last
//              mark (v8.GCProfiler) or the amount in use at this mark;
//   live:      heap + external in use after a full collection, i.e. what n8n still holds at this mark;
//   rss:       the resident set after that collection.
// A mark taken while a run is paused (the bench workflow's probe step) gives what the run holds.
const fs = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');

if (process.argv.includes('start') && process.env.BENCH_MEMORY_FILE) {
	v8.setFlagsFromString('--expose-gc');
	const gc = vm.runInNewContext('gc');
	const inUse = () => {
		const usage = process.memoryUsage();
		return usage.heapUsed + usage.external;
	};
	let profiler;
	process.on('SIGWINCH', () => {
		let inUsePeak = inUse();
		if (profiler) {
			for (const { beforeGC } of profiler.stop().statistics) {
				const heap = beforeGC.heapStatistics;
				inUsePeak = Math.max(inUsePeak, heap.usedHeapSize + heap.externalMemory);
			}
		}
		// Twice: the first collection's finalizers free external memory (buffers) the second one counts.
		gc();
		gc();
		const line = { inUsePeak, live: inUse(), rss: process.memoryUsage().rss };
		fs.appendFileSync(process.env.BENCH_MEMORY_FILE, `${JSON.stringify(line)}\n`);
		profiler = new v8.GCProfiler();
		profiler.start();
	});
}
