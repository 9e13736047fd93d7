// Preloaded into the soak's n8n processes (SOAK_WEBHOOK_TIMING=1; NODE_OPTIONS=--require ...): times the
// steps of each production webhook call n8n handles (LiveWebhooks.executeWebhook, n8n 2.8 and 2.41) and
// appends one JSON line per call to BENCH_WEBHOOK_TIMING_FILE:
//   type:  the node the call reached (e.g. n8n-nodes-base.webhook);
//   find:  from the call's start to the node's webhook(): n8n reads the webhook and the workflow row;
//   node:  the node's webhook() (for our trigger: its wait in the save line included);
//   run:   WorkflowRunner.run: the execution stored (and, in regular mode, started);
//   save:  saveStaticData after the answer was built (a write only when static data changed);
//   total: until n8n resolved the call, its answer about to be sent.
// Steps are matched to their call through AsyncLocalStorage: a later step of the same async chain (the
// execution's own end) is not counted, as the line is written when the call resolves.
const { AsyncLocalStorage } = require('node:async_hooks');
const fs = require('node:fs');
const Module = require('node:module');
const { performance } = require('node:perf_hooks');

const file = process.env.BENCH_WEBHOOK_TIMING_FILE;

if (process.argv.includes('start') && file) {
	const calls = new AsyncLocalStorage();
	const out = fs.openSync(file, 'a');

	/** Replaces `proto[name]` by a version that adds its time to field `field` of the current call. */
	const timeStep = (proto, name, field, note) => {
		const original = proto?.[name];
		if (typeof original !== 'function' || original.timed) return;
		const timed = async function (...args) {
			const call = calls.getStore();
			if (!call || call.done) return await original.apply(this, args);
			note?.(call, args);
			const started = performance.now();
			try {
				return await original.apply(this, args);
			} finally {
				call[field] = (call[field] ?? 0) + performance.now() - started;
				if (field === 'node') call.nodeEnd = performance.now() - call.start;
			}
		};
		timed.timed = true;
		proto[name] = timed;
	};

	const patchers = {
		'webhooks/live-webhooks.js': (exports) => {
			const proto = exports.LiveWebhooks?.prototype;
			const original = proto?.executeWebhook;
			if (typeof original !== 'function' || original.timed) return;
			proto.executeWebhook = function (...args) {
				const call = { start: performance.now() };
				return calls.run(call, async () => {
					let status = 'ok';
					try {
						return await original.apply(this, args);
					} catch (error) {
						status = error?.constructor?.name ?? 'error';
						throw error;
					} finally {
						call.total = performance.now() - call.start;
						call.done = true;
						const { start, done, ...line } = call;
						fs.writeSync(out, `${JSON.stringify({ ...line, status, at: Date.now() })}\n`);
					}
				});
			};
			proto.executeWebhook.timed = true;
		},
		'webhooks/webhook.service.js': (exports) =>
			timeStep(exports.WebhookService?.prototype, 'runWebhook', 'node', (call, [, , node]) => {
				call.type = node?.type;
				call.find = performance.now() - call.start;
			}),
		'workflow-runner.js': (exports) => timeStep(exports.WorkflowRunner?.prototype, 'run', 'run'),
		'workflows/workflow-static-data.service.js': (exports) =>
			timeStep(exports.WorkflowStaticDataService?.prototype, 'saveStaticData', 'save'),
	};

	const originalLoad = Module._load;
	Module._load = function (request, parent, isMain) {
		const exports = originalLoad.apply(this, [request, parent, isMain]);
		const key = Object.keys(patchers).find((suffix) =>
			request.endsWith(suffix.replace(/\.js$/, '').split('/').pop()),
		);
		if (key) {
			try {
				const resolved = Module._resolveFilename(request, parent, isMain);
				if (resolved.endsWith(`/n8n/dist/${key}`)) patchers[key](exports);
			} catch {
				// not n8n's file of that name
			}
		}
		return exports;
	};
}
