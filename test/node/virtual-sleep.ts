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

export interface HeldSleep {
	/** The held delays asked for so far, in ms. */
	delays: number[];
	/** Settles when the first held sleep begins. */
	started: Promise<void>;
	/** Ends every held sleep, and those asked for from now on. */
	release(): void;
	restore(): void;
}

/**
 * Holds every sleep of at least `minMs` asked of n8n-workflow's `sleep` until `release()`, so that a test
 * can act while the code under test waits (a Retry-After, a key's pause) however slow the machine;
 * shorter sleeps run in real time.
 */
export function heldSleep(minMs: number): HeldSleep {
	const delays: number[] = [];
	const realSleep = utils.sleep;
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let began!: () => void;
	const started = new Promise<void>((resolve) => (began = resolve));
	const sleep = jest.spyOn(utils, 'sleep').mockImplementation(async (ms: number) => {
		if (ms < minMs) return await realSleep(ms);
		delays.push(ms);
		began();
		await released;
	});
	return {
		delays,
		started,
		release,
		restore() {
			release();
			sleep.mockRestore();
		},
	};
}
