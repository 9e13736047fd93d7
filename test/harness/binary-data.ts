import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';

/**
 * `default` keeps binary data inline (base64 in the item); `filesystem` stores files (under
 * N8N_USER_FOLDER/.n8n/storage, n8n's default) and puts an id in the item.
 */
export type BinaryDataMode = 'default' | 'filesystem';

let initialised: { mode: BinaryDataMode; done: Promise<BinaryDataService> } | undefined;

/**
 * Initialises n8n-core's BinaryDataService singleton (the one `this.helpers.*Binary*` use).
 * Once per test file (jest gives each file its own DI container): n8n never switches modes at runtime.
 */
export async function initBinaryDataService(mode: BinaryDataMode): Promise<BinaryDataService> {
	if (initialised !== undefined) {
		if (initialised.mode !== mode) {
			throw new Error(
				`BinaryDataService is already initialised in "${initialised.mode}" mode; this test file asked for "${mode}"`,
			);
		}
		return await initialised.done;
	}
	const done = (async () => {
		const config = Container.get(BinaryDataConfig);
		config.mode = mode;
		const service = Container.get(BinaryDataService);
		await service.init();
		return service;
	})();
	initialised = { mode, done };
	return await done;
}
