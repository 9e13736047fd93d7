// Replaces n8n-workflow's sleep helpers (used by the node's transport for retry waits) with ones that
// record the requested delay and resolve at once, so tests with hundreds of injected 429s stay fast while
// still asserting how long the node would have waited.
// The built node calls `sleep` through n8n-workflow's index, whose getter reads the utils module's export
// at call time, so replacing it there reaches the node.
import * as utils from 'n8n-workflow/dist/cjs/utils';

export interface VirtualSleep {
	/** Every delay the code under test asked for, in ms. */
	delays: number[];
	restore(): void;
}

export function virtualSleep(): VirtualSleep {
	const delays: number[] = [];
	const sleep = jest.spyOn(utils, 'sleep').mockImplementation(async (ms: number) => {
		delays.push(ms);
	});
	return {
		delays,
		restore() {
			sleep.mockRestore();
		},
	};
}

/**
 * A virtual sleep for every test of the file: installed before each test (after the hooks declared before
 * this call) and restored after it. `delays` are those of the running test.
 */
export function virtualSleepEachTest(): VirtualSleep {
	let current: VirtualSleep | undefined;
	beforeEach(() => {
		current = virtualSleep();
	});
	afterEach(() => {
		current?.restore();
		current = undefined;
	});
	return {
		get delays(): number[] {
			if (current === undefined)
				throw new Error('The virtual sleep is installed only while a test runs');
			return current.delays;
		},
		restore() {
			current?.restore();
		},
	};
}
