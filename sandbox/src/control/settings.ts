// /_sandbox: config, faults and webhook faults (docs/api-contract.md §13).
import type { FastifyInstance } from 'fastify';
import { configPatchSchema } from '../config';
import { faultSettingsSchema, webhookFaultsSchema } from '../faults';
import { controlRoute } from '../route';
import type { Sandbox } from '../sandbox';

export function registerSettingsControl(app: FastifyInstance, sandbox: Sandbox): void {
	controlRoute(app, { method: 'GET', url: '/_sandbox/config', handler: () => sandbox.config });

	controlRoute(app, {
		method: 'PATCH',
		url: '/_sandbox/config',
		body: configPatchSchema,
		handler: ({ body }) => {
			sandbox.config = { ...sandbox.config, ...body };
			return sandbox.config;
		},
	});

	controlRoute(app, {
		method: 'GET',
		url: '/_sandbox/faults',
		handler: () => sandbox.faults.current,
	});

	controlRoute(app, {
		method: 'PUT',
		url: '/_sandbox/faults',
		body: faultSettingsSchema,
		handler: ({ body }) => {
			sandbox.faults.set(body);
			return sandbox.faults.current;
		},
	});

	controlRoute(app, {
		method: 'DELETE',
		url: '/_sandbox/faults',
		handler: () => {
			sandbox.faults.clearRequestFaults();
			return { cleared: true };
		},
	});

	const webhookFaults = () => ({ ignore_answers: sandbox.faults.pendingIgnoredAnswers });

	controlRoute(app, { method: 'GET', url: '/_sandbox/webhook-faults', handler: webhookFaults });

	controlRoute(app, {
		method: 'PUT',
		url: '/_sandbox/webhook-faults',
		body: webhookFaultsSchema,
		handler: ({ body }) => {
			sandbox.faults.setIgnoreAnswers(body.ignore_answers);
			return webhookFaults();
		},
	});

	controlRoute(app, {
		method: 'DELETE',
		url: '/_sandbox/webhook-faults',
		handler: () => {
			sandbox.faults.setIgnoreAnswers(0);
			return webhookFaults();
		},
	});
}
