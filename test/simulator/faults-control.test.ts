/** Issue item 6 (limits and faults) and the control surface, in-process and over HTTP. */
import axios from 'axios';
import { SEED } from '../../simulator';
import { errorEnvelopeSchema, scenarioJobSchema, workspaceSchema } from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

const jane = SEED.apiUser.email;
let t: TestSim;
beforeEach(async () => {
	t = await bootSim();
});
afterEach(() => t.close());

describe('rate limits (deployed values when enabled)', () => {
	it('are off by default', async () => {
		for (let i = 0; i < 70; i++) expect((await t.api.get('/workspace')).status).toBe(200);
	});

	it('61st request in a minute gives 429 rate_limited with retry_after and Retry-After; a minute later it passes', async () => {
		t.control.setRateLimits(true);
		for (let i = 0; i < 60; i++) expect((await t.api.get('/workspace')).status).toBe(200);
		t.clock.advance(20_000);
		const res = await t.api.get('/workspace');
		const err = expectError(res, 429, 'rate_limited');
		expect(err.retry_after).toBe(40);
		expect(res.headers['retry-after']).toBe('40');
		t.clock.advance(40_000);
		expect((await t.api.get('/workspace')).status).toBe(200);
	});

	it('10 scenario creations a minute, while reads still pass', async () => {
		t.control.setRateLimits(true);
		for (let i = 0; i < 10; i++)
			expect(
				(await t.api.post('/scenario-studio/jobs', { user_email: jane, prompt: `p${i}` })).status,
			).toBe(201);
		const res = await t.api.post('/scenario-studio', {
			user_email: jane,
			prompt: 'session counts as a creation',
		});
		expect(expectError(res, 429, 'rate_limited').retry_after).toBe(60);
		expect((await t.api.get('/workspace')).status).toBe(200);
		expect(t.control.store.jobs.size).toBe(10);
	});

	it('1000 a day: custom limits can shrink the window for a test', async () => {
		t.control.setRateLimits({ perDay: 3 });
		for (let i = 0; i < 3; i++) expect((await t.api.get('/workspace')).status).toBe(200);
		const res = await t.api.get('/workspace');
		expect(expectError(res, 429, 'rate_limited').retry_after).toBe(86_400);
	});

	it('strict by default: a 429 for a full minute counts against the day, not in the minute', async () => {
		t.control.setRateLimits({ perMinute: 2, perDay: 5 });
		for (let i = 0; i < 2; i++) expect((await t.api.get('/workspace')).status).toBe(200);
		t.clock.advance(30_000);
		for (let i = 0; i < 3; i++) {
			const err = expectError(await t.api.get('/workspace'), 429, 'rate_limited');
			expect(err.message).toContain('a minute');
			// Unchanged by the 429s before it: they are not in the minute window.
			expect(err.retry_after).toBe(30);
		}
		expect(t.control.rateLimitUsage()).toEqual({
			minute: 2,
			createsMinute: 0,
			day: 5,
			dayRejected: 3,
		});

		// The minute is free again, but the day was spent by the 429s.
		t.clock.advance(30_000);
		const day = expectError(await t.api.get('/workspace'), 429, 'rate_limited');
		expect(day.message).toContain('a day');
		expect(day.retry_after).toBe(86_400 - 60);
		// A 429 for the full day is not counted again.
		expect(t.control.rateLimitUsage()).toMatchObject({ minute: 0, day: 5, dayRejected: 3 });

		// A day after the two served requests they leave the window; the 429s, 30 s younger, stay.
		t.clock.advance(86_400_000 - 60_000);
		expect(t.control.rateLimitUsage()).toMatchObject({ day: 3, dayRejected: 3 });
		expect((await t.api.get('/workspace')).status).toBe(200);
	});

	it('strict by default: a creation refused for the creations minute counts against the day', async () => {
		t.control.setRateLimits({ createsPerMinute: 1, perDay: 3 });
		const create = (prompt: string) =>
			t.api.post('/scenario-studio/jobs', { user_email: jane, prompt });
		expect((await create('a')).status).toBe(201);
		expect(expectError(await create('b'), 429, 'rate_limited').message).toContain('creations');
		expect(t.control.rateLimitUsage()).toEqual({
			minute: 1,
			createsMinute: 1,
			day: 2,
			dayRejected: 1,
		});
		expect((await t.api.get('/workspace')).status).toBe(200);
		expect(expectError(await t.api.get('/workspace'), 429, 'rate_limited').message).toContain(
			'a day',
		);
		expect(t.control.store.jobs.size).toBe(1);
	});

	it('countRejected: false keeps the older behaviour: a 429 costs nothing', async () => {
		t.control.setRateLimits({ perMinute: 2, perDay: 5, countRejected: false });
		for (let i = 0; i < 2; i++) expect((await t.api.get('/workspace')).status).toBe(200);
		for (let i = 0; i < 5; i++)
			expect(expectError(await t.api.get('/workspace'), 429, 'rate_limited').message).toContain(
				'a minute',
			);
		expect(t.control.rateLimitUsage()).toEqual({
			minute: 2,
			createsMinute: 0,
			day: 2,
			dayRejected: 0,
		});
		t.clock.advance(60_000);
		for (let i = 0; i < 2; i++) expect((await t.api.get('/workspace')).status).toBe(200);
		t.clock.advance(60_000);
		expect((await t.api.get('/workspace')).status).toBe(200);
		expect(expectError(await t.api.get('/workspace'), 429, 'rate_limited').message).toContain(
			'a day',
		);
	});

	it('setRateLimits(true) and a partial object without countRejected are strict', async () => {
		t.control.setRateLimits(true);
		for (let i = 0; i < 61; i++) await t.api.get('/workspace');
		expect(t.control.rateLimitUsage()).toMatchObject({ minute: 60, day: 61, dayRejected: 1 });
		t.control.setRateLimits({ perMinute: 1 });
		for (let i = 0; i < 2; i++) await t.api.get('/workspace');
		expect(t.control.rateLimitUsage()).toMatchObject({ minute: 1, day: 2, dayRejected: 1 });
	});

	it('startSimulator({rateLimits: true}) uses 60/10/1000', async () => {
		const other = await bootSim({ rateLimits: true });
		try {
			for (let i = 0; i < 60; i++) await other.api.get('/workspace');
			expect((await other.api.get('/workspace')).status).toBe(429);
		} finally {
			await other.close();
		}
	});
});

describe('injected faults', () => {
	it('failNext(n, 503) answers n times 503 with Retry-After, then normal answers', async () => {
		t.control.failNext(2, 503);
		for (let i = 0; i < 2; i++) {
			const res = await t.api.get('/workspace');
			expect(res.status).toBe(503);
			expect(res.headers['retry-after']).toBeDefined();
			errorEnvelopeSchema.parse(res.data);
		}
		expectOk(await t.api.get('/workspace'), workspaceSchema);
	});

	it('failNext(n) defaults to 500 and does none of the work', async () => {
		t.control.failNext(1);
		expect(
			(await t.api.post('/scenario-studio/jobs', { user_email: jane, prompt: 'x' })).status,
		).toBe(500);
		expect(t.control.store.jobs.size).toBe(0);
	});

	it('dropNext: the work is done, the connection is cut; a retry with the same request_id gets the same job', async () => {
		t.control.dropNext(1);
		await expect(
			t.api.post('/scenario-studio/jobs', {
				user_email: jane,
				prompt: 'x',
				request_id: 'retry-me',
			}),
		).rejects.toThrow();
		expect(t.control.store.jobs.size).toBe(1);
		const [created] = [...t.control.store.jobs.values()];
		const retry = expectOk(
			await t.api.post('/scenario-studio/jobs', {
				user_email: jane,
				prompt: 'x',
				request_id: 'retry-me',
			}),
			scenarioJobSchema,
			200,
		);
		expect(retry).toMatchObject({ id: created.id, is_new: false });
		expect(
			t.control.requests({ path: '/scenario-studio/jobs' }).map((r) => [r.status, r.dropped]),
		).toEqual([
			[201, true],
			[200, false],
		]);
	});

	it('setLatency delays every answer', async () => {
		t.control.setLatency(120);
		const start = Date.now();
		await t.api.get('/workspace');
		expect(Date.now() - start).toBeGreaterThanOrEqual(115);
		t.control.setLatency(0);
	});

	it('workspace inactive gives 403 authorization_error workspace_inactive (a bad key still gives 401)', async () => {
		t.control.setWorkspaceActive(false);
		expectError(await t.api.get('/workspace'), 403, 'authorization_error', 'workspace_inactive');
		const bad = await axios.get(`${t.sim.baseUrl}/workspace`, { validateStatus: () => true });
		expect(bad.status).toBe(401);
		t.control.setWorkspaceActive(true);
		expect((await t.api.get('/workspace')).status).toBe(200);
	});
});

describe('control: requests, reset', () => {
	it('records method, path without prefix, query, body, lower-cased headers, status and time', async () => {
		await t.api.post(
			'/scenario-studio/jobs?x=1',
			{ user_email: jane, prompt: 'x' },
			{ headers: { 'X-Custom': 'Yes' } },
		);
		await t.api.get('/scenarios', { params: { page_size: 2, skill_ids: 'a,b' } });
		const [post, get] = t.control.requests();
		expect(post).toMatchObject({
			method: 'POST',
			path: '/scenario-studio/jobs',
			query: { x: '1' },
			body: { user_email: jane, prompt: 'x' },
			status: 201,
			dropped: false,
		});
		expect(post.headers['x-custom']).toBe('Yes');
		expect(post.headers.authorization).toBe(`Bearer ${t.sim.apiKey}`);
		expect(post.at).toBe(new Date(t.clock.now()).toISOString());
		expect(get).toMatchObject({
			method: 'GET',
			path: '/scenarios',
			query: { page_size: '2', skill_ids: 'a,b' },
			status: 200,
		});
		expect(t.control.requests({ method: 'GET' })).toHaveLength(1);
		expect(t.control.requests({ path: '/scen*' })).toHaveLength(2);
		t.control.clearRequests();
		expect(t.control.requests()).toEqual([]);
	});

	it('reset() restores the seed, the start options and clears records', async () => {
		await t.api.post('/scenario-studio/jobs', { user_email: jane, prompt: 'x' });
		await t.api.delete(`/knowledge-hub/pages/${SEED.pages.published.id}`);
		t.control.setWorkspaceActive(false);
		t.control.failNext(3);
		t.control.reset();
		expect(t.control.store.jobs.size).toBe(0);
		expect(t.control.requests()).toEqual([]);
		const page = await t.api.get(`/knowledge-hub/pages/${SEED.pages.published.id}`);
		expect(page.data.status).toBe('published');
	});
});

describe('control over HTTP (/__control, outside /rest/v1)', () => {
	const ctl = () =>
		axios.create({
			baseURL: `http://127.0.0.1:${t.sim.port}/__control`,
			validateStatus: () => true,
		});

	it('failNext, requests, fixtures, advance, reset', async () => {
		expect((await ctl().post('/failNext', { count: 1, status: 503 })).data).toEqual({
			ok: true,
			result: null,
		});
		expect((await t.api.get('/workspace')).status).toBe(503);
		const recorded = await ctl().get('/requests');
		expect(recorded.data.result).toEqual([
			expect.objectContaining({ path: '/workspace', status: 503 }),
		]);
		expect((await ctl().get('/fixtures')).data.result).toEqual(SEED);

		const job = scenarioJobSchema.parse(
			(await t.api.post('/scenario-studio/jobs', { user_email: jane, prompt: 'x' })).data,
		);
		await ctl().post('/setJobTimings', { queuedMs: 0, processingMs: 0, hold: true });
		const held = scenarioJobSchema.parse(
			(await t.api.post('/scenario-studio/jobs', { user_email: jane, prompt: 'y' })).data,
		);
		await ctl().post('/advance', { ms: 1000 });
		expect(t.control.store.jobs.get(job.id)?.status).toBe('completed');
		expect((await ctl().post('/getJob', { jobId: held.id })).data.result.status).toBe('queued');
		expect(
			(
				await ctl().post('/setJobState', {
					jobId: held.id,
					status: 'failed',
					failCode: 'GENERATION_ERROR',
				})
			).data.result.status,
		).toBe('failed');

		await ctl().post('/reset');
		expect(t.control.store.jobs.size).toBe(0);
	});

	it('control requests are not recorded and need no API key', async () => {
		await ctl().get('/now');
		expect(t.control.requests()).toEqual([]);
	});

	it('unknown actions and bad arguments give errors in the envelope', async () => {
		expect((await ctl().post('/nope')).status).toBe(404);
		const bad = await ctl().post('/getJob', { jobId: 'missing' });
		expect(bad.status).toBe(400);
		expect(bad.data.error.message).toContain('missing');
		expect((await ctl().get('/failNext')).status).toBe(405);
	});

	it('setRateLimits and setWorkspaceActive work over HTTP', async () => {
		await ctl().post('/setWorkspaceActive', { active: false });
		expect((await t.api.get('/workspace')).status).toBe(403);
		await ctl().post('/setWorkspaceActive', { active: true });
		await ctl().post('/setRateLimits', { limits: { perMinute: 1 } });
		await t.api.get('/workspace');
		expect((await t.api.get('/workspace')).status).toBe(429);
		await ctl().post('/setRateLimits', { enabled: false });
		expect((await t.api.get('/workspace')).status).toBe(200);
	});

	it('setRateLimits takes countRejected over HTTP; rateLimitUsage answers GET', async () => {
		await ctl().post('/setRateLimits', { limits: { perMinute: 1, countRejected: false } });
		for (let i = 0; i < 3; i++) await t.api.get('/workspace');
		expect((await ctl().get('/rateLimitUsage')).data.result).toEqual({
			minute: 1,
			createsMinute: 0,
			day: 1,
			dayRejected: 0,
		});
		await ctl().post('/setRateLimits', { limits: { perMinute: 1 } });
		for (let i = 0; i < 3; i++) await t.api.get('/workspace');
		expect((await ctl().get('/rateLimitUsage')).data.result).toMatchObject({
			day: 3,
			dayRejected: 2,
		});
	});
});
