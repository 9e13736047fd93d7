import type { FastifyInstance } from 'fastify';
import type { Sandbox } from '../sandbox';
import { registerLogControl } from './logs';
import { registerSettingsControl } from './settings';
import { registerStateControl } from './state';

/** The sandbox-only control surface under /_sandbox (no authentication; docs/api-contract.md §13). */
export function registerControl(app: FastifyInstance, sandbox: Sandbox): void {
	registerStateControl(app, sandbox);
	registerSettingsControl(app, sandbox);
	registerLogControl(app, sandbox);
}
