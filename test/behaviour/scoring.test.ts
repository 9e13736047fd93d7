// Lead scores: computed from behaviour (formula in docs/api-contract.md §12), changed only when an advance of
// the sandbox clock crosses a whole hour, never by wall time, always within 0..100, read-only through the API.
import { NO_RATE_LIMIT, SandboxClient } from '../support/sandbox-client';
import { trackedResource } from './tracked-resource';
import { DAY, HOUR, MINUTE } from './local-time';

interface Lead {
	score: number;
	behavior_summary: {
		total_page_views: number;
		avg_dwell_seconds: number;
		max_scroll_depth: number;
		cta_clicks: number;
	};
}

describe('lead scoring', () => {
	let sandbox: SandboxClient;
	let resource: string;
	let hour: number;

	const send = async (visitor: string, type: string, extra: Record<string, unknown> = {}) => {
		const answer = await sandbox.track<{ lead_id?: string }>(resource, {
			visitor_id: visitor,
			type,
			...extra,
		});
		expect(answer.status).toBe(202);
		return answer.body.lead_id;
	};
	const lead = async (id: string) => (await sandbox.api.get<Lead>(`/v1/leads/${id}`)).body;

	beforeAll(async () => {
		sandbox = await SandboxClient.start({ settings: NO_RATE_LIMIT });
		resource = await trackedResource(sandbox, { title: 'Scored' });
		hour = Math.ceil(((await sandbox.now()) + 40 * MINUTE) / HOUR) * HOUR;
		await sandbox.advanceTo(hour - 30 * MINUTE);
	});

	afterAll(() => sandbox.close());

	it('changes the score only at the hourly recompute, following behaviour and recency', async () => {
		await send('hot', 'page_view');
		await send('hot', 'scroll', { depth: 90 });
		await send('hot', 'dwell', { seconds: 120 });
		await send('hot', 'cta_click');
		const id = (await send('hot', 'form_submit', { form: { email: 'hot@example.com' } })) as string;
		await send('hot', 'cta_click');
		const created = await lead(id);
		expect(created).toMatchObject({
			score: 0,
			behavior_summary: {
				total_page_views: 1,
				avg_dwell_seconds: 120,
				max_scroll_depth: 90,
				cta_clicks: 1,
			},
		});

		await sandbox.advanceTo(hour - 10 * MINUTE);
		expect(await lead(id)).toMatchObject({ score: 0, behavior_summary: { cta_clicks: 1 } });

		// 1 view → 3, avg dwell 120 s → 12, depth 90 → 18, 2 clicks → 20, active within a day → 10.
		await sandbox.advanceTo(hour + 10 * MINUTE);
		expect(await lead(id)).toMatchObject({
			score: 63,
			behavior_summary: {
				total_page_views: 1,
				avg_dwell_seconds: 120,
				max_scroll_depth: 90,
				cta_clicks: 2,
			},
		});

		// New behaviour shows only at the next whole hour: a second view adds 3 points and brings the average
		// dwell to (120 + 60) / 2 = 90 s → 9.
		await send('hot', 'page_view');
		await send('hot', 'dwell', { seconds: 60 });
		await sandbox.advanceTo(hour + 50 * MINUTE);
		expect((await lead(id)).score).toBe(63);
		await sandbox.advanceTo(hour + 70 * MINUTE);
		expect(await lead(id)).toMatchObject({
			score: 6 + 9 + 18 + 20 + 10,
			behavior_summary: { total_page_views: 2, avg_dwell_seconds: 90 },
		});

		// Recency decays from the last activity (hour + 10 min), as of each recompute (a whole hour):
		// within 3 days 7 points, within 7 days 4, over 7 days 2, over 30 days 0.
		await sandbox.advanceTo(hour + 2 * DAY + 20 * MINUTE);
		expect((await lead(id)).score).toBe(53 + 7);
		await sandbox.advanceTo(hour + 7 * DAY + 20 * MINUTE);
		expect((await lead(id)).score).toBe(53 + 4);
		await sandbox.advanceTo(hour + 7 * DAY + HOUR + 20 * MINUTE);
		expect((await lead(id)).score).toBe(53 + 2);
		await sandbox.advanceTo(hour + 31 * DAY + 20 * MINUTE);
		expect((await lead(id)).score).toBe(53);
	});

	it('stays within 0..100 however much behaviour there is', async () => {
		for (let i = 0; i < 12; i++) {
			await send('binge', 'page_view');
			await send('binge', 'scroll', { depth: 100 });
			await send('binge', 'dwell', { seconds: 900 });
			await send('binge', 'cta_click');
		}
		const id = (await send('binge', 'form_submit', {
			form: { email: 'binge@example.com' },
		})) as string;
		const now = await sandbox.now();
		await sandbox.advanceTo(Math.ceil(now / HOUR) * HOUR + MINUTE);
		expect(await lead(id)).toMatchObject({
			score: 100,
			behavior_summary: {
				total_page_views: 12,
				avg_dwell_seconds: 900,
				max_scroll_depth: 100,
				cta_clicks: 12,
			},
		});
	});

	it('cannot be written through the API', async () => {
		const created = await sandbox.api.post<{ id: string; score: number }>('/v1/leads', {
			email: 'api@example.com',
		});
		const patch = await sandbox.api.patch<{ error: { param: string } }>(
			`/v1/leads/${created.body.id}`,
			{ score: 99 },
		);
		expect([patch.status, patch.body.error.param]).toEqual([400, 'score']);
		const now = await sandbox.now();
		await sandbox.advanceTo(Math.ceil(now / HOUR) * HOUR + MINUTE);
		expect((await lead(created.body.id)).score).toBe(created.body.score);
	});
});
