// Redirects and the API key: the Base URL's server answers 307 to another origin (another loopback address
// and port). The node must not follow it, so the key never arrives there, and must say which origin it
// was sent to and to check the Base URL. Redirects within the Base URL's origin are followed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { binary } from '../harness';
import { CREDENTIAL, errorText, NodeTestBed } from './node-test-bed';

const bed = NodeTestBed.forFile({ binaryDataMode: 'default' });

interface Seen {
	method: string;
	url: string;
	authorization?: string;
}

interface Server {
	url: string;
	seen: Seen[];
	close(): Promise<void>;
}

async function serve(
	host: string,
	answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Server> {
	const seen: Seen[] = [];
	const server = http.createServer((req, res) => {
		seen.push({
			method: req.method ?? '',
			url: req.url ?? '',
			authorization: req.headers.authorization,
		});
		req.resume();
		req.on('end', () => answer(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		seen,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

let elsewhere: Server;
let base: Server;

beforeAll(async () => {
	// Another origin: another loopback address and port, which answers everything with 200.
	elsewhere = await serve('127.0.0.2', (_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"id":"lead_stolen0000000000","object":"lead"}');
	});
	// The Base URL: /same/... redirects within its own origin to the sandbox path; everything else goes elsewhere.
	base = await serve('127.0.0.1', (req, res) => {
		const url = req.url ?? '/';
		if (url.startsWith('/v1/leads/lead_same')) {
			res.writeHead(307, { location: '/moved/v1/leads' });
			res.end();
			return;
		}
		if (url.startsWith('/moved/')) {
			res.writeHead(req.headers.authorization === `Bearer ${bed.keys.full}` ? 200 : 401, {
				'content-type': 'application/json',
			});
			res.end('{"object":"list","data":[],"has_more":false,"next_cursor":null}');
			return;
		}
		res.writeHead(307, { location: `${elsewhere.url}${url}` });
		res.end();
	});
});

afterAll(async () => {
	await base?.close();
	await elsewhere?.close();
});

beforeEach(() => {
	base.seen.length = 0;
	elsewhere.seen.length = 0;
	bed.harness.setCredentials(CREDENTIAL, { apiKey: bed.keys.full, baseUrl: base.url });
});

const cases: Array<[string, INodeParameters, Parameters<typeof bed.run>[1]]> = [
	['Lead › Create (POST)', { resource: 'lead', operation: 'create', email: 'a@example.com' }, {}],
	['Lead › Get Many (paging)', { resource: 'lead', operation: 'getAll', returnAll: true }, {}],
	[
		'Lead › Update (PATCH)',
		{
			resource: 'lead',
			operation: 'update',
			leadId: { __rl: true, mode: 'id', value: 'lead_abcdefabcdefabcdef' },
			updateFields: { notes: 'x' },
		},
		{},
	],
	[
		'Content Resource › Create with a file (multipart)',
		{
			resource: 'contentResource',
			operation: 'create',
			inputData: 'binary',
			binaryPropertyName: 'doc',
			title: 'T',
			type: 'ebook',
		},
		{
			input: [
				{
					json: {},
					binary: { doc: binary('pdf bytes', { mimeType: 'application/pdf', fileName: 'a.pdf' }) },
				},
			],
		},
	],
];

test.each(cases)(
	'%s: a 307 to another origin is an error naming it, and the key never arrives there',
	async (_name, parameters, options) => {
		const result = await bed.run(parameters, options);

		expect(base.seen.length).toBeGreaterThan(0);
		expect(base.seen[0].authorization).toBe(`Bearer ${bed.keys.full}`);
		expect(elsewhere.seen).toEqual([]);
		const origin = elsewhere.url;
		expect(result.error?.message).toBe(
			`The Content Marketing API redirected the request to ${origin} [item 0]`,
		);
		expect(errorText(result)).toContain('Check the Base URL in the credential');
		expect(errorText(result)).toContain(`the API key did not leave ${base.url}`);
		expect(JSON.stringify(result.result.run)).not.toContain(bed.keys.full);
	},
);

test("a redirect within the Base URL's origin is followed, with the key", async () => {
	const result = await bed.run({
		resource: 'lead',
		operation: 'get',
		leadId: { __rl: true, mode: 'id', value: 'lead_same00000000000000' },
	});

	expect(errorText(result)).toBe('');
	expect(base.seen.map((request) => request.url)).toEqual([
		'/v1/leads/lead_same00000000000000',
		'/moved/v1/leads',
	]);
	expect(base.seen.map((request) => request.authorization)).toEqual([
		`Bearer ${bed.keys.full}`,
		`Bearer ${bed.keys.full}`,
	]);
	expect(elsewhere.seen).toEqual([]);
});
