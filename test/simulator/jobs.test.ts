/** Spec 3.1 and 4.1 (scenario jobs, studio sessions) and 6 (completion webhook). */
import { SEED, startSimulator } from '../../simulator';
import {
	scenarioJobSchema,
	scenarioListSchema,
	studioSessionSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, startReceiver, type TestSim } from './helpers';
import axios from 'axios';

const jane = SEED.apiUser.email;
const create = (t: TestSim, body: Record<string, unknown>) =>
	t.api.post('/scenario-studio/jobs', body);
const getJob = async (t: TestSim, id: string) =>
	expectOk(await t.api.get(`/scenario-studio/jobs/${id}`), scenarioJobSchema);

describe('POST /scenario-studio/jobs: create and validation', () => {
	let t: TestSim;
	beforeAll(async () => {
		t = await bootSim();
	});
	afterAll(() => t.close());

	it('201 with a queued job, is_new true and null timestamps', async () => {
		const job = expectOk(
			await create(t, { user_email: jane, prompt: 'Discovery call with a CFO' }),
			scenarioJobSchema,
			201,
		);
		expect(job).toMatchObject({
			status: 'queued',
			is_new: true,
			scenario: null,
			error: null,
			started_at: null,
			completed_at: null,
			duration_seconds: null,
		});
		expect(job.created_at).toBe(new Date(t.clock.now()).toISOString());
	});

	it.each(['user_email', 'prompt'])(
		'missing %s gives 400 invalid_request without code, naming the field',
		async (field) => {
			const body: Record<string, unknown> = { user_email: jane, prompt: 'x' };
			delete body[field];
			expectError(await create(t, body), 400, 'invalid_request', null, field);
		},
	);

	it('an empty body names a missing field', async () => {
		expectError(
			await t.api.post('/scenario-studio/jobs'),
			400,
			'invalid_request',
			null,
			'user_email',
		);
	});

	it('prompt of exactly 10000 characters is accepted, 10001 gives prompt_too_long', async () => {
		expect((await create(t, { user_email: jane, prompt: 'a'.repeat(10000) })).status).toBe(201);
		expectError(
			await create(t, { user_email: jane, prompt: 'a'.repeat(10001) }),
			400,
			'invalid_request',
			'prompt_too_long',
			'prompt',
		);
	});

	it('context over 50000 characters gives context_too_long (code chosen by the simulator)', async () => {
		expect(
			(await create(t, { user_email: jane, prompt: 'x', context: 'c'.repeat(50000) })).status,
		).toBe(201);
		expectError(
			await create(t, { user_email: jane, prompt: 'x', context: 'c'.repeat(50001) }),
			400,
			'invalid_request',
			'context_too_long',
			'context',
		);
	});

	it('unknown user gives 400 user_not_found naming the e-mail', async () => {
		expectError(
			await create(t, { user_email: 'ghost@acme.com', prompt: 'x' }),
			400,
			'invalid_request',
			'user_not_found',
			'ghost@acme.com',
		);
	});

	it('a former member is not a workspace member', async () => {
		expectError(
			await create(t, { user_email: SEED.formerUser.email, prompt: 'x' }),
			400,
			'invalid_request',
			'user_not_found',
		);
	});

	it('a malformed e-mail gives 400 invalid_value naming user_email', async () => {
		expectError(
			await create(t, { user_email: 'not-an-email', prompt: 'x' }),
			400,
			'invalid_request',
			'invalid_value',
			'user_email',
		);
	});

	it('callback_url must be a URL and callback_headers an object of strings', async () => {
		expectError(
			await create(t, { user_email: jane, prompt: 'x', callback_url: 'nope' }),
			400,
			'invalid_request',
			'invalid_value',
			'callback_url',
		);
		expectError(
			await create(t, { user_email: jane, prompt: 'x', callback_headers: { a: 1 } }),
			400,
			'invalid_request',
			'invalid_value',
			'callback_headers',
		);
	});

	it('remix with an unknown scenario_slug gives 404 not_found naming the slug', async () => {
		expectError(
			await create(t, { user_email: jane, prompt: 'x', scenario_slug: 'no-such-slug' }),
			404,
			'not_found',
			null,
			'no-such-slug',
		);
	});

	it('a validation failure creates no job', async () => {
		const before = t.control.store.jobs.size;
		await create(t, { user_email: 'ghost@acme.com', prompt: 'x' });
		expect(t.control.store.jobs.size).toBe(before);
	});
});

describe('spec 3.1: job state machine on the clock', () => {
	let t: TestSim;
	beforeEach(async () => {
		// Millisecond timestamps: these tests read transition times to the millisecond.
		t = await bootSim({
			jobTimings: { queuedMs: 1000, processingMs: 5000 },
			timestampPrecision: 'millisecond',
		});
	});
	afterEach(() => t.close());

	it('queued → processing (started_at) → completed (scenario, completed_at, duration_seconds)', async () => {
		const created = expectOk(
			await create(t, {
				user_email: SEED.members[1].email,
				prompt: 'Renewal call with a procurement lead',
			}),
			scenarioJobSchema,
			201,
		);
		expect((await getJob(t, created.id)).status).toBe('queued');

		t.clock.advance(1000);
		const processing = await getJob(t, created.id);
		expect(processing.status).toBe('processing');
		expect(processing.started_at).toBe(
			new Date(Date.parse(created.created_at) + 1000).toISOString(),
		);
		expect(processing.completed_at).toBeNull();
		expect(processing.duration_seconds).toBeNull();
		expect(processing.scenario).toBeNull();

		t.clock.advance(4999);
		expect((await getJob(t, created.id)).status).toBe('processing');
		t.clock.advance(1);
		const done = await getJob(t, created.id);
		expect(done.status).toBe('completed');
		expect(done.error).toBeNull();
		expect(done.completed_at).toBe(new Date(Date.parse(created.created_at) + 6000).toISOString());
		expect(done.duration_seconds).toBe(5);
		expect(done.is_new).toBeUndefined();
		expect(done.scenario).toMatchObject({
			name: expect.any(String),
			slug: expect.any(String),
			url: expect.stringContaining(done.scenario?.slug ?? '?'),
		});

		// The scenario really exists, owned by the job's user.
		const list = expectOk(
			await t.api.get('/scenarios', { params: { owner_email: SEED.members[1].email } }),
			scenarioListSchema,
		);
		expect(list.data.map((s) => s.id)).toContain(done.scenario?.id);
	});

	it('a job moves even when nobody polls (clock.advance ticks)', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(10_000);
		expect(t.control.store.jobs.get(created.id)?.status).toBe('completed');
	});

	it.each(['GENERATION_ERROR', 'CONTENT_POLICY_VIOLATION'])(
		'prompt marker [fail:%s] fails the job with that code',
		async (code) => {
			const before = t.control.store.data.scenarios.length;
			const created = expectOk(
				await create(t, { user_email: jane, prompt: `Make it [fail:${code}]` }),
				scenarioJobSchema,
				201,
			);
			t.clock.advance(6000);
			const job = await getJob(t, created.id);
			expect(job.status).toBe('failed');
			expect(job.error).toEqual({ code, message: expect.any(String) });
			expect(job.scenario).toBeNull();
			expect(job.started_at).not.toBeNull();
			expect(job.completed_at).not.toBeNull();
			expect(t.control.store.data.scenarios.length).toBe(before);
		},
	);

	it('DELETE of a queued job cancels it at once (completed_at set, scenario and error null)', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(500);
		const cancelled = expectOk(
			await t.api.delete(`/scenario-studio/jobs/${created.id}`),
			scenarioJobSchema,
		);
		expect(cancelled).toMatchObject({
			status: 'cancelled',
			scenario: null,
			error: null,
			started_at: null,
		});
		expect(cancelled.completed_at).toBe(new Date(t.clock.now()).toISOString());
		t.clock.advance(60_000);
		expect((await getJob(t, created.id)).status).toBe('cancelled');
	});

	it('DELETE of a processing job cancels it and no scenario is created', async () => {
		const before = t.control.store.data.scenarios.length;
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(2000);
		const cancelled = expectOk(
			await t.api.delete(`/scenario-studio/jobs/${created.id}`),
			scenarioJobSchema,
		);
		expect(cancelled.status).toBe('cancelled');
		expect(cancelled.started_at).not.toBeNull();
		t.clock.advance(60_000);
		expect(t.control.store.data.scenarios.length).toBe(before);
	});

	it.each([
		['completed', ''],
		['failed', ' [fail:GENERATION_ERROR]'],
	])('DELETE of a %s job gives 400 job_not_cancellable naming the state', async (state, marker) => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: `x${marker}` }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(6000);
		expectError(
			await t.api.delete(`/scenario-studio/jobs/${created.id}`),
			400,
			'invalid_request',
			'job_not_cancellable',
			state,
		);
	});

	it('DELETE of a cancelled job gives 400 job_not_cancellable naming cancelled', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		await t.api.delete(`/scenario-studio/jobs/${created.id}`);
		expectError(
			await t.api.delete(`/scenario-studio/jobs/${created.id}`),
			400,
			'invalid_request',
			'job_not_cancellable',
			'cancelled',
		);
	});

	it('unknown job: 404 not_found job_not_found on GET and DELETE, naming the id', async () => {
		expectError(
			await t.api.get('/scenario-studio/jobs/nojob123'),
			404,
			'not_found',
			'job_not_found',
			'nojob123',
		);
		expectError(
			await t.api.delete('/scenario-studio/jobs/nojob123'),
			404,
			'not_found',
			'job_not_found',
			'nojob123',
		);
	});

	it('request_id: 201 is_new true, then 200 is_new false with the same job and no new job', async () => {
		const first = expectOk(
			await create(t, { user_email: jane, prompt: 'x', request_id: 'crm-42' }),
			scenarioJobSchema,
			201,
		);
		const second = expectOk(
			await create(t, { user_email: jane, prompt: 'something else', request_id: 'crm-42' }),
			scenarioJobSchema,
			200,
		);
		expect(second.id).toBe(first.id);
		expect(first.is_new).toBe(true);
		expect(second.is_new).toBe(false);
		expect(t.control.store.jobs.size).toBe(1);
		t.clock.advance(6000);
		const third = expectOk(
			await create(t, { user_email: jane, prompt: 'x', request_id: 'crm-42' }),
			scenarioJobSchema,
			200,
		);
		expect(third).toMatchObject({ id: first.id, status: 'completed', is_new: false });
		const other = expectOk(
			await create(t, { user_email: jane, prompt: 'x', request_id: 'crm-43' }),
			scenarioJobSchema,
			201,
		);
		expect(other.id).not.toBe(first.id);
	});

	it('remix: a known scenario_slug produces a scenario derived from it', async () => {
		const created = expectOk(
			await create(t, {
				user_email: jane,
				prompt: 'Make the buyer tougher',
				scenario_slug: SEED.scenarios.procurementDiscovery.slug,
			}),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(6000);
		const job = await getJob(t, created.id);
		expect(job.scenario?.name).toContain(SEED.scenarios.procurementDiscovery.name);
		const rec = t.control.store.scenarioById(job.scenario?.id ?? '');
		expect(rec?.skillIds).toEqual(
			t.control.store.scenarioById(SEED.scenarios.procurementDiscovery.id)?.skillIds,
		);
	});

	it('hold keeps jobs in place until the control moves them', async () => {
		t.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(3_600_000);
		expect((await getJob(t, created.id)).status).toBe('queued');
		expect(t.control.setJobState(created.id, 'processing').status).toBe('processing');
		expect((await getJob(t, created.id)).status).toBe('processing');
		expect(t.control.finishJob(created.id).status).toBe('completed');
		const done = await getJob(t, created.id);
		expect(done.scenario).not.toBeNull();
	});

	it('setJobState can force a failure with a given code', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x' }),
			scenarioJobSchema,
			201,
		);
		t.control.setJobState(created.id, 'failed', 'CONTENT_POLICY_VIOLATION');
		expect((await getJob(t, created.id)).error?.code).toBe('CONTENT_POLICY_VIOLATION');
	});
});

describe('spec 6: completion webhook', () => {
	let t: TestSim;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	beforeEach(async () => {
		// Every terminal status calls back here; the spec's default (completed only) is tested below.
		t = await bootSim({
			jobTimings: { queuedMs: 1000, processingMs: 1000 },
			callbackStatuses: ['completed', 'failed', 'cancelled'],
		});
		receiver = await startReceiver();
	});
	afterEach(async () => {
		await t.close();
		await receiver.close();
	});

	it('POSTs the job object to callback_url with every callback_headers entry when the job completes', async () => {
		const url = `${receiver.url}?token=a%2Fb&x=1`;
		const created = expectOk(
			await create(t, {
				user_email: jane,
				prompt: 'x',
				callback_url: url,
				callback_headers: { Authorization: 'Bearer hook-secret', 'X-Trace': 'abc' },
			}),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(1000);
		await t.control.waitForCallbacks();
		expect(receiver.received).toHaveLength(0); // not yet finished

		t.clock.advance(1000);
		await t.control.waitForCallbacks();
		expect(receiver.received).toHaveLength(1);
		const got = receiver.received[0];
		expect(got.url).toBe('/hook?token=a%2Fb&x=1'); // query string kept intact
		expect(got.headers.authorization).toBe('Bearer hook-secret');
		expect(got.headers['x-trace']).toBe('abc');
		expect(got.headers['content-type']).toContain('application/json');
		const body = scenarioJobSchema.parse(got.body);
		expect(body).toMatchObject({ id: created.id, status: 'completed' });
		expect(body.scenario).not.toBeNull();

		expect(t.control.callbacks()).toEqual([
			expect.objectContaining({
				jobId: created.id,
				url,
				status: 200,
				attempt: 1,
				jobStatus: 'completed',
			}),
		]);
	});

	it('also fires for failed and cancelled jobs (documented), and not for jobs without callback_url', async () => {
		const failed = expectOk(
			await create(t, {
				user_email: jane,
				prompt: '[fail:GENERATION_ERROR]',
				callback_url: receiver.url,
			}),
			scenarioJobSchema,
			201,
		);
		const cancelled = expectOk(
			await create(t, { user_email: jane, prompt: 'x', callback_url: receiver.url }),
			scenarioJobSchema,
			201,
		);
		await create(t, { user_email: jane, prompt: 'x' });
		await t.api.delete(`/scenario-studio/jobs/${cancelled.id}`);
		t.clock.advance(5000);
		await t.control.waitForCallbacks();
		const byJob = Object.fromEntries(
			receiver.received.map((r) => [
				scenarioJobSchema.parse(r.body).id,
				scenarioJobSchema.parse(r.body),
			]),
		);
		expect(byJob[failed.id]?.status).toBe('failed');
		expect(byJob[failed.id]?.error?.code).toBe('GENERATION_ERROR');
		expect(byJob[cancelled.id]?.status).toBe('cancelled');
		expect(receiver.received).toHaveLength(2);
	});

	it('fires exactly once however often the job is polled', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x', callback_url: receiver.url }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(5000);
		for (let i = 0; i < 3; i++) await getJob(t, created.id);
		await t.control.waitForCallbacks();
		expect(receiver.received).toHaveLength(1);
	});

	it('redeliverCallback sends the same body again (duplicate handling)', async () => {
		const created = expectOk(
			await create(t, { user_email: jane, prompt: 'x', callback_url: receiver.url }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(5000);
		await t.control.waitForCallbacks();
		const again = await t.control.redeliverCallback(created.id);
		expect(again).toMatchObject({ attempt: 2, status: 200 });
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].body).toEqual(receiver.received[0].body);
	});

	it('records what the receiver answered, also when it refuses', async () => {
		const refusing = await startReceiver(401);
		try {
			expectOk(
				await create(t, { user_email: jane, prompt: 'x', callback_url: refusing.url }),
				scenarioJobSchema,
				201,
			);
			t.clock.advance(5000);
			await t.control.waitForCallbacks();
			expect(t.control.callbacks()[0].status).toBe(401);
		} finally {
			await refusing.close();
		}
	});

	it('an unreachable receiver is recorded with status null', async () => {
		expectOk(
			await create(t, { user_email: jane, prompt: 'x', callback_url: 'http://127.0.0.1:1/hook' }),
			scenarioJobSchema,
			201,
		);
		t.clock.advance(5000);
		await t.control.waitForCallbacks();
		expect(t.control.callbacks()[0]).toMatchObject({ status: null, error: expect.any(String) });
	});
});

describe('issue item 5: jobs finish on their own with a real clock', () => {
	it('completes within the configured wall-clock timings and calls back', async () => {
		const receiver = await startReceiver();
		const sim = await startSimulator({
			jobTimings: { queuedMs: 20, processingMs: 40 },
			timestampPrecision: 'millisecond',
		});
		try {
			const api = axios.create({
				baseURL: sim.baseUrl,
				headers: { Authorization: `Bearer ${sim.apiKey}` },
				validateStatus: () => true,
			});
			const created = scenarioJobSchema.parse(
				(
					await api.post('/scenario-studio/jobs', {
						user_email: jane,
						prompt: 'x',
						callback_url: receiver.url,
					})
				).data,
			);
			const deadline = Date.now() + 20_000;
			while (receiver.received.length === 0 && Date.now() < deadline)
				await new Promise((r) => setTimeout(r, 20));
			expect(receiver.received).toHaveLength(1);
			const job = scenarioJobSchema.parse(
				(await api.get(`/scenario-studio/jobs/${created.id}`)).data,
			);
			expect(job.status).toBe('completed');
			// Transitions are stamped at their scheduled times, not when observed.
			expect(Date.parse(job.completed_at ?? '') - Date.parse(job.started_at ?? '')).toBe(40);
			expect(Date.parse(job.started_at ?? '') - Date.parse(job.created_at)).toBe(20);
		} finally {
			await sim.close();
			await receiver.close();
		}
	});
});

describe('POST /scenario-studio: interactive sessions', () => {
	let t: TestSim;
	beforeAll(async () => {
		t = await bootSim();
	});
	afterAll(() => t.close());

	it('201 with a URL and is_new true', async () => {
		const s = expectOk(
			await t.api.post('/scenario-studio', { user_email: jane, prompt: 'Meeting with Globex' }),
			studioSessionSchema,
			201,
		);
		expect(s.is_new).toBe(true);
		expect(s.url).toContain(s.id);
	});

	it('request_id returns the existing session with 200 and is_new false', async () => {
		const a = expectOk(
			await t.api.post('/scenario-studio', { user_email: jane, prompt: 'p', request_id: 'meet-1' }),
			studioSessionSchema,
			201,
		);
		const b = expectOk(
			await t.api.post('/scenario-studio', { user_email: jane, prompt: 'p', request_id: 'meet-1' }),
			studioSessionSchema,
			200,
		);
		expect(b).toEqual({ ...a, is_new: false });
	});

	it.each(['user_email', 'prompt'])('missing %s gives 400 naming it', async (field) => {
		const body: Record<string, unknown> = { user_email: jane, prompt: 'x' };
		delete body[field];
		expectError(await t.api.post('/scenario-studio', body), 400, 'invalid_request', null, field);
	});

	it('a non-member gives user_not_found', async () => {
		expectError(
			await t.api.post('/scenario-studio', { user_email: 'ghost@acme.com', prompt: 'x' }),
			400,
			'invalid_request',
			'user_not_found',
		);
	});
});

describe('control: releaseJob', () => {
	it('a held job follows its timings again, counted from the release', async () => {
		const t = await bootSim({ jobTimings: { queuedMs: 1000, processingMs: 2000, hold: true } });
		try {
			const created = expectOk(
				await create(t, { user_email: jane, prompt: 'x' }),
				scenarioJobSchema,
				201,
			);
			t.clock.advance(10_000);
			t.control.releaseJob(created.id);
			expect((await getJob(t, created.id)).status).toBe('queued');
			t.clock.advance(1000);
			const processing = await getJob(t, created.id);
			expect(processing.status).toBe('processing');
			expect(processing.created_at).toBe(created.created_at);
			t.clock.advance(2000);
			expect((await getJob(t, created.id)).status).toBe('completed');
		} finally {
			await t.close();
		}
	});
});

describe("the deployed service's defaults: second-precision timestamps, callbacks for completed jobs only", () => {
	it('writes whole seconds, so rows changed within one second share one timestamp', async () => {
		const t = await bootSim({ jobTimings: { queuedMs: 1000, processingMs: 1000 } });
		try {
			t.clock.advance(1234);
			const a = expectOk(
				await create(t, { user_email: jane, prompt: 'x' }),
				scenarioJobSchema,
				201,
			);
			t.clock.advance(500);
			const b = expectOk(
				await create(t, { user_email: jane, prompt: 'y' }),
				scenarioJobSchema,
				201,
			);
			expect(a.created_at).toMatch(/:\d{2}\.000Z$/);
			expect(a.created_at).toBe(b.created_at);
			t.control.setTimestampPrecision('millisecond');
			expect((await getJob(t, b.id)).created_at).toBe(new Date(t.clock.now()).toISOString());
		} finally {
			await t.close();
		}
	});

	it('calls back for a completed job, not for a failed or cancelled one, unless told to', async () => {
		const receiver = await startReceiver();
		const t = await bootSim({ jobTimings: { queuedMs: 1000, processingMs: 1000 } });
		try {
			const done = expectOk(
				await create(t, { user_email: jane, prompt: 'x', callback_url: receiver.url }),
				scenarioJobSchema,
				201,
			);
			await create(t, {
				user_email: jane,
				prompt: '[fail:GENERATION_ERROR]',
				callback_url: receiver.url,
			});
			const cancelled = expectOk(
				await create(t, { user_email: jane, prompt: 'x', callback_url: receiver.url }),
				scenarioJobSchema,
				201,
			);
			await t.api.delete(`/scenario-studio/jobs/${cancelled.id}`);
			t.clock.advance(5000);
			await t.control.waitForCallbacks();
			expect(receiver.received.map((r) => scenarioJobSchema.parse(r.body).id)).toEqual([done.id]);
			t.control.setCallbackStatuses(['completed', 'failed', 'cancelled']);
			await t.control.redeliverCallback(cancelled.id);
			expect(receiver.received).toHaveLength(2);
		} finally {
			await t.close();
			await receiver.close();
		}
	});
});
