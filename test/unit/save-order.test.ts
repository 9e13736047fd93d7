// The save line's waits (trigger/saveOrder.ts) on real HTTP responses of Node's server: a service that
// gives up on a call (its 5 s) closes the connection, and what waited for the call's answer goes on. The
// trigger's execution waits so for its call (eventLedger recordRun): a wait that never ends leaves the
// execution running for good.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { answered, waitForEarlierSaves } from '../../dist/nodes/ContentMarketing/trigger/saveOrder';

/** A server whose every request is handed to the test, and a client call to it that it can abort. */
async function withServer(
	run: (next: () => Promise<http.ServerResponse>, call: () => () => void) => Promise<void>,
): Promise<void> {
	const waiting: Array<(response: http.ServerResponse) => void> = [];
	const arrived: http.ServerResponse[] = [];
	const server = http.createServer((_request, response) => {
		const take = waiting.shift();
		if (take) take(response);
		else arrived.push(response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const next = async () =>
		arrived.shift() ?? (await new Promise<http.ServerResponse>((resolve) => waiting.push(resolve)));
	/** Starts a POST; the returned function aborts it, as the service does after its 5 s. */
	const call = () => {
		const request = http.request({ host: '127.0.0.1', port, method: 'POST' });
		request.on('error', () => undefined);
		request.end('{}');
		return () => request.destroy();
	};
	try {
		await run(next, call);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
}

const closed = async (response: http.ServerResponse) =>
	response.destroyed
		? undefined
		: await new Promise<void>((resolve) => response.once('close', () => resolve()));

describe('saveOrder: a call whose connection the service closed', () => {
	test('counts as answered when the wait starts after the close, and still when n8n ends it later', async () => {
		await withServer(async (next, call) => {
			const abort = call();
			const response = await next();
			abort();
			await closed(response);
			// The execution's wait starts after the close: nothing more is emitted, yet it goes on.
			const wait = answered(response);
			response.end('late');
			await wait;
			await answered(response);
		});
	});

	test('a closed call in the line does not hold the calls after it', async () => {
		await withServer(async (next, call) => {
			const scope = `line-${Date.now()}`;
			const abort = call();
			const first = await next();
			abort();
			await closed(first);
			await waitForEarlierSaves(scope, first);
			call();
			const second = await next();
			// The second call waits for the first, whose connection is closed: it goes on.
			expect(typeof (await waitForEarlierSaves(scope, second))).toBe('number');
			second.end('ok');
			await answered(second);
		});
	});
});
