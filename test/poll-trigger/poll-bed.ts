// Shared set-up of the poll trigger tests: the sandbox (events list on or off), a harness whose credential
// points at a hook proxy in front of the sandbox, and readers of what the poller emitted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Harness, PollHarness, PollScheduler } from '../harness';
import { createHarness } from '../harness';
import type { SandboxClient } from '../support/sandbox-client';
import { CREDENTIAL, PACKAGE_ROOT, useTriggerSandbox } from '../trigger/trigger-bed';

export const POLL_TRIGGER = 'contentTriggerMarketing';

/** The two sources the node reads: the events list, or (switched off in the sandbox) the leads list. */
export type Source = 'events' | 'leads';
export const SOURCES: Source[] = ['events', 'leads'];

export const BOTH_EVENTS = ['lead.created', 'lead.status_updated'];

/** What the proxy does with one request before (or instead of) forwarding it. */
export type Hook = (
	path: string,
	index: number,
) => Promise<'forward' | 'drop' | { status: number; body: IDataObject }>;

/**
 * A proxy between the node and the sandbox that can run test code before a request is forwarded (to
 * create leads while a poll pages) or fail it (a 5xx, a 429 storm, a dropped connection).
 */
export class HookProxy {
	readonly paths: string[] = [];
	hook: Hook = async () => 'forward';

	private constructor(
		private readonly server: http.Server,
		readonly url: string,
		private readonly target: () => string,
	) {}

	static async start(target: () => string): Promise<HookProxy> {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const proxy = new HookProxy(
			server,
			`http://127.0.0.1:${(server.address() as AddressInfo).port}`,
			target,
		);
		server.on(
			'request',
			(req: http.IncomingMessage, res: http.ServerResponse) => void proxy.handle(req, res),
		);
		return proxy;
	}

	reset(): void {
		this.paths.length = 0;
		this.hook = async () => 'forward';
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const path = req.url ?? '/';
		const index = this.paths.push(path) - 1;
		const decision = await this.hook(path, index);
		if (decision === 'drop') {
			req.socket.destroy();
			return;
		}
		if (decision !== 'forward') {
			const headers: Record<string, string> = { 'content-type': 'application/json' };
			if (decision.status === 429) headers['retry-after'] = '1';
			res.writeHead(decision.status, headers).end(JSON.stringify(decision.body));
			return;
		}
		try {
			const upstream = await fetch(`${this.target()}${path}`, {
				method: req.method,
				headers: { authorization: req.headers.authorization ?? '', accept: 'application/json' },
			});
			const body = await upstream.text();
			res.writeHead(upstream.status, {
				'content-type': upstream.headers.get('content-type') ?? 'application/json',
				...(upstream.headers.has('retry-after')
					? { 'retry-after': upstream.headers.get('retry-after') as string }
					: {}),
			});
			res.end(body);
		} catch {
			// The sandbox dropped the connection (a fault): so does the proxy.
			req.socket.destroy();
		}
	}
}

/** The file's sandbox (reset before each test), proxy and harness. */
export function pollSetup(): {
	sandbox: SandboxClient;
	proxy: () => HookProxy;
	harness: () => Harness;
} {
	const sandbox = useTriggerSandbox();
	let proxy: HookProxy | undefined;
	let harness: Harness | undefined;
	beforeAll(async () => {
		proxy = await HookProxy.start(() => sandbox.url);
		harness = await createHarness({
			packageRoot: PACKAGE_ROOT,
			credentials: { [CREDENTIAL]: { apiKey: sandbox.keys.full, baseUrl: proxy.url } },
		});
	});
	afterAll(async () => {
		await harness?.close();
		await proxy?.close();
	});
	beforeEach(() => proxy?.reset());
	return {
		sandbox,
		proxy: () => proxy as HookProxy,
		harness: () => harness as Harness,
	};
}

/** Switches the sandbox's events list on or off (docs/api-contract.md §13 `events_endpoint`). */
export async function useSource(sandbox: SandboxClient, source: Source): Promise<void> {
	await sandbox.control.patch('/_sandbox/config', { events_endpoint: source === 'events' });
}

export function poller(
	harness: Harness,
	parameters: INodeParameters = {},
	scheduler?: PollScheduler,
): PollHarness {
	return harness.poller({
		type: harness.typeName(POLL_TRIGGER),
		parameters: {
			events: BOTH_EVENTS,
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			...parameters,
		},
		scheduler,
	});
}

/** The schedulers of n8n the poll trigger runs under (test/harness/poll.ts emulates each). */
export const SCHEDULERS: Array<[string, PollScheduler]> = [
	['in-memory scheduler', { kind: 'legacy' }],
	['durable scheduler', { kind: 'durable' }],
	['durable scheduler, durable cursors off', { kind: 'durable', durableCursors: false }],
];

export async function pause(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** `event_type lead_id [previous_status→status]` of each item: comparable across both sources. */
export function describeItems(items: INodeExecutionData[]): string[] {
	return items.map(({ json }) =>
		json.event_type === 'lead.status_updated'
			? `${String(json.event_type)} ${String(json.id)} ${String(json.previous_status)}→${String(json.status)}`
			: `${String(json.event_type)} ${String(json.id)}`,
	);
}

export function flat(executions: INodeExecutionData[][]): INodeExecutionData[] {
	return executions.flat();
}

/** Creates `count` leads, `parallel` at a time (their events then share seconds: ties). */
export async function createLeads(
	sandbox: SandboxClient,
	count: number,
	parallel = 10,
): Promise<IDataObject[]> {
	const leads: IDataObject[] = [];
	for (let start = 0; start < count; start += parallel) {
		const batch = Array.from(
			{ length: Math.min(parallel, count - start) },
			async () => (await sandbox.createLead()) as unknown as IDataObject,
		);
		leads.push(...(await Promise.all(batch)));
	}
	return leads;
}

/** Sets the status of every lead, `parallel` requests at a time. */
export async function setStatuses(
	sandbox: SandboxClient,
	leads: IDataObject[],
	status: string,
	parallel = 10,
): Promise<void> {
	for (let start = 0; start < leads.length; start += parallel) {
		await Promise.all(
			leads
				.slice(start, start + parallel)
				.map(async (lead) => await sandbox.setLeadStatus(String(lead.id), status)),
		);
	}
}

/** What the service itself recorded, oldest first, as `describeItems` writes it (the source is kept). */
export async function recordedEvents(sandbox: SandboxClient, source: Source): Promise<string[]> {
	const events: IDataObject[] = [];
	let cursor: string | null = null;
	do {
		const query: string = `limit=100&order=asc${cursor === null ? '' : `&cursor=${cursor}`}`;
		await useSource(sandbox, 'events');
		const answer: { body: { data: IDataObject[]; next_cursor: string | null } } =
			await sandbox.api.get<{ data: IDataObject[]; next_cursor: string | null }>(
				`/v1/events?${query}`,
			);
		events.push(...answer.body.data);
		cursor = answer.body.next_cursor;
	} while (cursor !== null);
	await useSource(sandbox, source);
	return events.map((event) => {
		const data = event.data as IDataObject;
		const lead = data.lead as IDataObject;
		return event.type === 'lead.status_updated'
			? `${String(event.type)} ${String(lead.id)} ${String(data.previous_status)}→${String(lead.status)}`
			: `${String(event.type)} ${String(lead.id)}`;
	});
}
