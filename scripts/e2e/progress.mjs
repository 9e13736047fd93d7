// Timed progress lines: `step(title, fn)` prints when a step starts and ends, with its duration and
// the elapsed time since the run began; a failing step is reported with its title and rethrown.

export function createProgress({ prefix = 'e2e', out = process.stdout } = {}) {
	const t0 = Date.now();
	const steps = [];
	const elapsed = () => ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
	const print = (text) => out.write(`${prefix} [${elapsed()} s] ${text}\n`);

	async function step(title, fn) {
		print(`> ${title}`);
		const start = Date.now();
		try {
			const result = await fn();
			const seconds = (Date.now() - start) / 1000;
			steps.push({ title, seconds, ok: true });
			const detail = typeof result?.detail === 'string' ? `: ${result.detail}` : '';
			print(`ok ${title} (${seconds.toFixed(1)} s)${detail}`);
			return result;
		} catch (error) {
			const seconds = (Date.now() - start) / 1000;
			steps.push({ title, seconds, ok: false });
			print(`FAILED ${title} (${seconds.toFixed(1)} s)`);
			error.step ??= title;
			throw error;
		}
	}

	return { step, print, steps, seconds: () => (Date.now() - t0) / 1000 };
}
