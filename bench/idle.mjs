// The CPU use of a process, from /proc (Linux): what the benchmarks wait on before timing a run.
import fs from 'node:fs';

/** CPU time (user + system, all threads) a process has used, in ms, from /proc (Linux). */
export function cpuMs(pid) {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	const ticks = Number(fields[11]) + Number(fields[12]);
	return (ticks * 1000) / 100;
}

/**
 * Waits until n8n is idle (under 10 % of a core over 250 ms, at most 15 s). n8n goes on working after a
 * webhook has answered (finishing the execution, collecting its garbage: up to 2 s of CPU after 2,000
 * HTTP Request items), and that work must not be timed as the next variant's.
 */
export async function idle(pid) {
	const deadline = Date.now() + 15_000;
	while (Date.now() < deadline) {
		const before = cpuMs(pid);
		await new Promise((resolve) => setTimeout(resolve, 250));
		if (cpuMs(pid) - before < 25) return;
	}
}
