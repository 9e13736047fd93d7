// The tracking endpoint's input rules and refusals, and the analytics endpoints' query rules and access.
import { NO_RATE_LIMIT, SandboxClient } from '../support/sandbox-client';
import { trackedResource } from './tracked-resource';

type ErrorBody = { error: { code: string; param?: string } };

describe('tracking endpoint and analytics input rules', () => {
	let sandbox: SandboxClient;
	let resource: string;
	let otherAccountResource: string;

	beforeAll(async () => {
		sandbox = await SandboxClient.start({ settings: NO_RATE_LIMIT });
		resource = await trackedResource(sandbox, { title: 'Tracked' });
		const other = await sandbox.other.post<{ id: string }>('/v1/resources', {
			title: 'Theirs',
			type: 'article',
		});
		otherAccountResource = other.body.id;
	});

	afterAll(() => sandbox.close());

	const rejected = async (event: Record<string, unknown>, param: string, target = resource) => {
		const answer = await sandbox.track<ErrorBody>(target, event);
		expect({
			status: answer.status,
			code: answer.body.error.code,
			param: answer.body.error.param,
		}).toEqual({
			status: 400,
			code: 'invalid_params',
			param,
		});
	};

	it('rejects malformed events with a 400 naming the field', async () => {
		await rejected({ visitor_id: 'v1', type: 'page_view', colour: 'red' }, 'colour');
		await rejected({ type: 'page_view' }, 'visitor_id');
		await rejected({ visitor_id: 'has space', type: 'page_view' }, 'visitor_id');
		await rejected({ visitor_id: 'v1', type: 'purchase' }, 'type');
		await rejected({ visitor_id: 'v1', type: 'dwell' }, 'seconds');
		await rejected({ visitor_id: 'v1', type: 'dwell', seconds: 1.5 }, 'seconds');
		await rejected({ visitor_id: 'v1', type: 'scroll', depth: 101 }, 'depth');
		await rejected({ visitor_id: 'v1', type: 'page_view', seconds: 3 }, 'seconds');
		await rejected({ visitor_id: 'v1', type: 'cta_click', utm: { source: 'x' } }, 'utm');
		await rejected(
			{ visitor_id: 'v1', type: 'page_view', utm: { source: 'x', term: 'y' } },
			'utm.term',
		);
		await rejected({ visitor_id: 'v1', type: 'page_view', channel: 'api' }, 'channel');
		await rejected({ visitor_id: 'v1', type: 'form_submit' }, 'form');
		await rejected(
			{ visitor_id: 'v1', type: 'form_submit', form: { email: 'not-an-email' } },
			'form.email',
		);
		await rejected({ visitor_id: 'v1', type: 'page_view' }, 'id', 'res_!!');
		const text = await sandbox.anonymous.post<ErrorBody>(`/c/${resource}/events`);
		expect(text.status).toBe(400);
	});

	it('refuses events that need a page view first, and records nothing', async () => {
		const answer = await sandbox.track<ErrorBody>(resource, {
			visitor_id: 'lonely',
			type: 'cta_click',
		});
		expect([answer.status, answer.body.error.code]).toEqual([409, 'invalid_state']);
		expect(await sandbox.analytics('funnel', { resource_id: resource })).toMatchObject({
			funnel_steps: [{ count: 0 }, { count: 0 }, { count: 0 }, { count: 0 }, { count: 0 }],
		});
	});

	it('answers 202 with what was recorded; unknown resources are 404', async () => {
		const answer = await sandbox.track(resource, {
			visitor_id: 'v1',
			type: 'page_view',
			utm: { source: 'google', medium: 'cpc' },
		});
		expect(answer).toEqual({
			status: 202,
			body: {
				recorded: true,
				resource_id: resource,
				visitor_id: 'v1',
				type: 'page_view',
				at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
			},
		});
		expect(
			(await sandbox.track(resource, { visitor_id: 'v1', type: 'scroll', depth: 0 })).status,
		).toBe(202);
		expect(
			(await sandbox.track('res_doesnotexist0000', { visitor_id: 'v1', type: 'page_view' })).status,
		).toBe(404);
		expect(
			(await sandbox.track(otherAccountResource, { visitor_id: 'v1', type: 'page_view' })).status,
		).toBe(404);
	});

	it('derives the lead channel from UTM unless given', async () => {
		const submit = async (visitor: string, pageView: Record<string, unknown>) => {
			await sandbox.track(resource, { visitor_id: visitor, type: 'page_view', ...pageView });
			const sent = await sandbox.track<{ lead_id: string }>(resource, {
				visitor_id: visitor,
				type: 'form_submit',
				form: { email: `${visitor}@example.com` },
			});
			const lead = await sandbox.api.get<{ source_channel: string }>(
				`/v1/leads/${sent.body.lead_id}`,
			);
			return lead.body.source_channel;
		};
		expect(await submit('c1', {})).toBe('direct');
		expect(await submit('c2', { utm: { source: 'google', medium: 'CPC' } })).toBe('paid_search');
		expect(await submit('c3', { utm: { source: 'blog' } })).toBe('referral');
		expect(await submit('c4', { utm: { source: 'x', medium: 'banner' } })).toBe('other');
		expect(await submit('c5', { utm: { source: 'google' }, channel: 'organic_search' })).toBe(
			'organic_search',
		);
	});

	it('validates analytics queries strictly', async () => {
		const cases: Array<[string, string]> = [
			['overview?foo=1', 'foo'],
			['overview?timezone=Mars%2FOlympus', 'timezone'],
			['overview?timezone=%2B08:10', 'timezone'],
			['overview?start_date=2026-01-01', 'end_date'],
			['overview?end_date=2026-01-01', 'start_date'],
			['overview?start_date=2026-02-30&end_date=2026-03-01', 'start_date'],
			['overview?start_date=2026-03-02&end_date=2026-03-01', 'start_date'],
			['overview?start_date=2025-01-01&end_date=2026-03-01', 'end_date'],
			['overview?days=7&start_date=2026-01-01&end_date=2026-01-02', 'days'],
			['overview?days=0', 'days'],
			['overview?days=366', 'days'],
			['overview?days=1&days=2', 'days'],
			['overview?resource_id=lead_x', 'resource_id'],
			['resources?sort=title', 'sort'],
			['resources?limit=0', 'limit'],
			[`resources/${resource}?granularity=year`, 'granularity'],
			[`resources/${resource}?resource_id=${resource}`, 'resource_id'],
			['resources/res_!', 'id'],
			['leads?granularity=hour', 'granularity'],
			['funnel?granularity=day', 'granularity'],
			['channels?sort=visits', 'sort'],
		];
		for (const [path, param] of cases) {
			const answer = await sandbox.api.get<ErrorBody>(`/v1/analytics/${path}`);
			expect({ path, status: answer.status, param: answer.body.error?.param }).toEqual({
				path,
				status: 400,
				param,
			});
		}
	});

	it('any key of the account may read; another account is 403, an unknown resource 404', async () => {
		expect((await sandbox.readOnly.get('/v1/analytics/overview')).status).toBe(200);
		expect((await sandbox.anonymous.get('/v1/analytics/overview')).status).toBe(401);
		for (const path of [
			`overview?resource_id=${otherAccountResource}`,
			`resources/${otherAccountResource}`,
			`funnel?resource_id=${otherAccountResource}`,
		]) {
			expect((await sandbox.api.get(`/v1/analytics/${path}`)).status).toBe(403);
		}
		expect(
			(await sandbox.api.get('/v1/analytics/channels?resource_id=res_unknown000000000')).status,
		).toBe(404);
		expect((await sandbox.api.get('/v1/analytics/resources/res_unknown000000000')).status).toBe(
			404,
		);
		expect((await sandbox.api.post('/v1/analytics/overview')).status).toBe(405);
	});
});
