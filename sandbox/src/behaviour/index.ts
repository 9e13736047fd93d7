// The behaviour engine: visitor tracking, lead scoring and analytics. Entry point for the core.
import { registerAnalyticsRoutes } from './analytics-routes';
import { registerControlRoutes } from './control-routes';
import { Engine } from './engine';
import type { RegisterBehaviour } from './host';
import { registerTrackingRoutes } from './tracking-routes';

export const registerBehaviour: RegisterBehaviour = (app, host) => {
	const engine = new Engine(host);
	registerTrackingRoutes(app, host, engine);
	registerAnalyticsRoutes(app, host, engine);
	registerControlRoutes(app, host, engine);
	return engine;
};
