import type { IDataObject } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { apiCalls, bootJobSim, createParams, lastJobId, runJobNode } from './jobTestKit';
import type { ManualClock } from '../../simulator';
import { moveDateNowWithPauses, recorded, resetPauses } from '../support/recordedSleep';

/** The node's pauses are recorded and skipped, moving Date.now: see recordedSleep. */
jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('../support/recordedSleep')>('../support/recordedSleep')
		.recordedSleep,
}));
const { pauses } = recorded;

let sim: RunningSimulator;
let clock: ManualClock;

beforeEach(async () => {
	({ sim, clock } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } }));
	resetPauses();
	moveDateNowWithPauses();
});
afterEach(async () => {
	jest.restoreAllMocks();
	await sim.close();
});

describe('Scenario Job → Create, Wait for Completion: Off', () => {
	it('outputs the queued job and sends a request_id derived from execution, node and item', async () => {
		const { items, error, workflow } = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off' }),
			executionId: 'exec-off-1',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ status: 'queued', is_new: true });
		const [post] = apiCalls(sim);
		const nodeId = workflow.getNode('Workspace Practice')!.id;
		expect(post.body).toMatchObject({
			request_id: `n8n-exec-off-1-${nodeId}-0`,
			prompt: expect.any(String),
		});
		expect(post.body).not.toHaveProperty('callback_url');
		expect(apiCalls(sim)).toHaveLength(1);
	});

	it('sends context, remix slug, callback URL and headers; a custom request ID; none when switched off', async () => {
		const slug = sim.control.fixtures().scenarios.discoveryCall.slug;
		await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				options: { requestIdMode: 'custom', requestId: 'crm-42' },
				additionalFields: {
					context: '## Prospect',
					remixScenario: {
						__rl: true,
						mode: 'url',
						value: `https://x.example.com/scenarios/${slug}`,
					},
					callbackUrl: 'https://hooks.example.com/jobs',
					callbackHeaders: { header: [{ name: 'Authorization', value: 'Bearer t' }] },
				},
			}),
		});
		await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				options: { requestIdMode: 'none' },
			}),
		});
		const [first, second] = apiCalls(sim);
		expect(first.body).toEqual({
			user_email: expect.any(String),
			prompt: expect.any(String),
			context: '## Prospect',
			scenario_slug: slug,
			request_id: 'crm-42',
			callback_url: 'https://hooks.example.com/jobs',
			callback_headers: { Authorization: 'Bearer t' },
		});
		expect(second.body).not.toHaveProperty('request_id');
	});

	it('refuses a prompt over 10,000 characters, a context over 50,000 and a bad e-mail without a request', async () => {
		const tooLong = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off', prompt: 'x'.repeat(10_001) }),
		});
		expect(tooLong.error?.message).toMatch(/Prompt: must be at most 10,000 characters/);
		const context = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				additionalFields: { context: 'y'.repeat(50_001) },
			}),
		});
		expect(context.error?.message).toMatch(/Context: must be at most 50,000 characters/);
		const email = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off', userEmail: 'nobody' }),
		});
		expect(email.error?.message).toMatch(/Member: must be an e-mail address/);
		expect(apiCalls(sim)).toHaveLength(0);
	});
});

describe('Scenario Job → Create, Wait for Completion: By Polling', () => {
	it('reads the job until it completes and outputs it with its scenario', async () => {
		const { items, error } = await runJobNode(sim, { parameters: createParams(sim) });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'completed', is_new: true });
		expect((items[0].json.scenario as IDataObject).slug).toEqual(expect.any(String));
		expect(apiCalls(sim).map((r) => r.method)).toEqual(['POST', 'GET']);
	});

	it('fails with the job code and message when the job fails; Continue On Fail gives a paired error item', async () => {
		const params = createParams(sim, { prompt: 'Impossible [fail:GENERATION_ERROR]' });
		const failed = await runJobNode(sim, { parameters: params });
		expect(failed.error?.message).toMatch(/^Scenario job \S+ failed: GENERATION_ERROR: /);
		const soft = await runJobNode(sim, {
			parameters: params,
			continueOnFail: true,
			input: [{ a: 1 }, { a: 2 }],
		});
		expect(soft.error).toBeUndefined();
		expect(soft.items).toHaveLength(2);
		expect(soft.items[1].json.error).toMatch(/failed: GENERATION_ERROR/);
		expect(soft.items[1].pairedItem).toEqual({ item: 1 });
	});

	it('reads after First Poll After, then with pauses doubling from 1 s', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		recorded.onPause = (count) => {
			if (count === 4) sim.control.setJobState(lastJobId(sim), 'completed');
		};
		const { error } = await runJobNode(sim, { parameters: createParams(sim) });
		expect(error).toBeUndefined();
		// Planned from Date.now, so the real milliseconds a read takes come off each pause. First Poll
		// After is 0.02 s in these tests (createParams).
		expect(pauses).toHaveLength(4);
		expect(pauses[0]).toBeLessThanOrEqual(20);
		[1_000, 2_000, 4_000].forEach((planned, n) => {
			expect(pauses[n + 1]).toBeGreaterThan(planned - 1_000);
			expect(pauses[n + 1]).toBeLessThanOrEqual(planned);
		});
		expect(apiCalls(sim).map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET', 'GET']);
	});

	it('fails when the job is cancelled while it waits', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		// Cancelled on the service during the pause after the first read.
		recorded.onPause = (count) => {
			if (count === 2) sim.control.setJobState(lastJobId(sim), 'cancelled');
		};
		const { error } = await runJobNode(sim, { parameters: createParams(sim) });
		expect(error?.message).toMatch(/was cancelled/);
	});

	it('on the time limit fails naming the job and its last status, leaving the job running', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, { options: { timeLimitMinutes: 1 } }),
		});
		const jobId = lastJobId(sim);
		expect(error?.message).toBe(
			`Scenario job ${jobId} did not finish within 1 minute(s); its last status was "queued"`,
		);
		// The last read at the limit, a minute after the creation: none is planned beyond it.
		const waited = pauses.reduce((sum, pause) => sum + pause, 0);
		expect(waited).toBeGreaterThan(59_000);
		expect(waited).toBeLessThanOrEqual(60_000);
		expect(apiCalls(sim).filter((r) => r.method === 'DELETE')).toHaveLength(0);
		expect(sim.control.getJob(jobId).status).toBe('queued');
	});

	it('with Cancel Job on Timeout cancels the job first', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, { options: { timeLimitMinutes: 1, cancelOnTimeout: true } }),
		});
		const jobId = lastJobId(sim);
		expect(error?.message).toMatch(/its last status was "queued"\. The job was cancelled\.$/);
		expect(
			apiCalls(sim)
				.filter((r) => r.method === 'DELETE')
				.map((r) => r.path),
		).toEqual([`/scenario-studio/jobs/${jobId}`]);
		expect(sim.control.getJob(jobId).status).toBe('cancelled');
	});

	it('waits out a 429 during polling and goes on', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		recorded.onPause = (count) => {
			// Before the first read: the service now allows one request a minute (the read takes it).
			if (count === 1) sim.control.setRateLimits({ perMinute: 1 });
			// The next read falls 0.8 s before the minute window frees: the service asks to wait 1 s.
			if (count === 2) clock.advance(59_200);
			// The 429's wait: the window frees and the job completes.
			if (count === 3) {
				clock.advance(1_000);
				sim.control.setJobState(lastJobId(sim), 'completed');
			}
		};
		const { items, error } = await runJobNode(sim, {
			parameters: createParams(sim, { options: { firstPollSeconds: 0.2 } }),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('completed');
		const gets = apiCalls(sim)
			.filter((r) => r.method === 'GET')
			.map((r) => r.status);
		expect(gets).toEqual([200, 429, 200]);
	});
});

describe('Scenario Job → Create with a request_id that already has a job', () => {
	it.each(['off', 'poll', 'callback'])(
		'returns a finished existing job at once (%s)',
		async (mode) => {
			const first = await runJobNode(sim, {
				parameters: createParams(sim, {
					waitForCompletion: 'off',
					options: { requestIdMode: 'custom', requestId: `again-${mode}` },
				}),
			});
			sim.control.finishJob(String(first.items[0].json.id));
			sim.control.clearRequests();
			const { items, error, run } = await runJobNode(sim, {
				parameters: createParams(sim, {
					waitForCompletion: mode,
					options: { requestIdMode: 'custom', requestId: `again-${mode}` },
				}),
			});
			expect(error).toBeUndefined();
			expect(run.waitTill).toBeUndefined();
			expect(items[0].json).toMatchObject({
				id: first.items[0].json.id,
				status: 'completed',
				is_new: false,
			});
			expect(apiCalls(sim).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200']);
		},
	);
});

describe('Scenario Job → Get and Cancel', () => {
	it('reads and cancels a job by ID', async () => {
		sim.control.setJobTimings({ queuedMs: 0, processingMs: 0, hold: true });
		const created = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off' }),
		});
		const id = String(created.items[0].json.id);
		const jobId = { __rl: true, mode: 'id', value: id };
		const got = await runJobNode(sim, {
			parameters: { resource: 'scenarioJob', operation: 'get', jobId },
		});
		expect(got.items[0].json).toMatchObject({ id, status: 'queued' });
		const cancelled = await runJobNode(sim, {
			parameters: { resource: 'scenarioJob', operation: 'cancel', jobId },
		});
		expect(cancelled.items[0].json).toMatchObject({ id, status: 'cancelled' });
		const again = await runJobNode(sim, {
			parameters: { resource: 'scenarioJob', operation: 'cancel', jobId },
		});
		expect(again.error?.message).toMatch(/job_not_cancellable/);
		expect(
			apiCalls(sim)
				.slice(1)
				.map((r) => `${r.method} ${r.path}`),
		).toEqual([
			`GET /scenario-studio/jobs/${id}`,
			`DELETE /scenario-studio/jobs/${id}`,
			`DELETE /scenario-studio/jobs/${id}`,
		]);
	});
});
