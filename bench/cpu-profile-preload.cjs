// Preloaded into n8n by `BENCH_PROFILE=<dir> npm run bench` (NODE_OPTIONS=--require ...; --cpu-prof itself is
// not allowed in NODE_OPTIONS): profiles the n8n main process with the inspector and writes the profile
// to BENCH_PROFILE_DIR when the process receives SIGUSR2.
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');

if (process.argv.some((arg) => arg === 'start')) {
	const session = new inspector.Session();
	session.connect();
	session.post('Profiler.enable', () =>
		session.post('Profiler.setSamplingInterval', { interval: 200 }, () =>
			session.post('Profiler.start'),
		),
	);
	process.on('SIGUSR2', () => {
		session.post('Profiler.stop', (error, result) => {
			if (error) return;
			const dir = process.env.BENCH_PROFILE_DIR;
			fs.mkdirSync(dir, { recursive: true });
			fs.writeFileSync(
				path.join(dir, `n8n-${process.pid}-${Date.now()}.cpuprofile`),
				JSON.stringify(result.profile),
			);
			session.post('Profiler.start');
		});
	});
}
