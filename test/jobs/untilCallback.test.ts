import type { IDataObject } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { outputOf, WaitingExecutions } from '../../n8n-harness/resumeWaiting';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { apiCalls, bootJobSim, createParams, lastJobId, runJobNode } from './jobTestKit';

let sim: RunningSimulator;
let server: WebhookServer;
let waiting: WaitingExecutions;
let counter = 0;

beforeEach(async () => {
	({ sim } = await bootJobSim());
	server = new WebhookServer();
	await server.start();
	waiting = new WaitingExecutions(server);
});
afterEach(async () => {
	await sim.close();
	await server.close();
});

/** Runs Create with Until Callback until the execution waits; returns its ID and resumed run. */
async function startWaiting(extra: IDataObject = {}) {
	const executionId = `exec-cb-${++counter}`;
	const result = await runJobNode(sim, {
		parameters: createParams(sim, { waitForCompletion: 'callback', ...extra }),
		executionId,
		urls: waiting.urls(),
		continueOnFail: extra.continueOnFail === true,
	});
	expect(result.error).toBeUndefined();
	const resumed = waiting.hold(executionId, result);
	return { executionId, result, resumed, jobId: lastJobId(sim) };
}

describe('Scenario Job → Create, Wait for Completion: Until Callback', () => {
	it('waits with no polling, resumes on the callback and outputs the job read once (2 API calls)', async () => {
		const { executionId, result, resumed, jobId } = await startWaiting();
		const post = apiCalls(sim)[0];
		const body = post.body as IDataObject;
		// The resume URL keeps n8n's signature query string.
		expect(body.callback_url).toBe(
			`${server.baseUrl}/webhook-waiting/${executionId}?signature=${result.run.data.resumeToken}`,
		);
		expect(Object.keys(body.callback_headers as IDataObject)).toEqual([
			'X-Workspace-Practice-Secret',
		]);
		expect(apiCalls(sim)).toHaveLength(1);

		sim.control.advance(5_000);
		const run = await resumed;
		const [item] = outputOf(run);
		expect(item.json).toMatchObject({ id: jobId, status: 'completed' });
		expect((item.json.scenario as IDataObject).name).toEqual(expect.any(String));
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(run.status).not.toBe('waiting');
		expect(apiCalls(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /scenario-studio/jobs',
			`GET /scenario-studio/jobs/${jobId}`,
		]);
		await sim.control.waitForCallbacks();
		const delivery = sim.control.callbacks()[0];
		expect(delivery.status).toBe(200);
		expect(server.received[0].query.signature).toBe(result.run.data.resumeToken);
	});

	it('Simplify applies to the resumed job as to any other result: on by default, off gives the whole job', async () => {
		const simple = await startWaiting();
		sim.control.advance(5_000);
		const [short] = outputOf(await simple.resumed);
		expect(Object.keys(short.json)).toEqual([
			'id',
			'status',
			'scenario',
			'error',
			'created_at',
			'completed_at',
		]);
		const raw = await startWaiting({ simplify: false });
		sim.control.advance(5_000);
		const [full] = outputOf(await raw.resumed);
		expect(full.json).toMatchObject({
			id: raw.jobId,
			status: 'completed',
			started_at: expect.any(String),
			duration_seconds: expect.any(Number),
		});
	});

	it('turns a failed job into an error item with its code and message', async () => {
		const { resumed, jobId } = await startWaiting({ prompt: 'No [fail:CONTENT_POLICY_VIOLATION]' });
		sim.control.advance(5_000);
		const [item] = outputOf(await resumed);
		expect(item.json.error).toBe(
			`Scenario job ${jobId} failed: CONTENT_POLICY_VIOLATION: The request was refused by the content policy.`,
		);
		expect((item.json.job as IDataObject).status).toBe('failed');
		expect(apiCalls(sim)).toHaveLength(2);
	});

	it('turns a cancelled job into an error item', async () => {
		const { resumed, jobId } = await startWaiting();
		sim.control.setJobState(jobId, 'cancelled');
		const [item] = outputOf(await resumed);
		expect(item.json.error).toBe(`Scenario job ${jobId} was cancelled before it finished`);
	});

	it('answers 401 to a wrong or missing secret and keeps waiting', async () => {
		const { executionId, resumed, jobId } = await startWaiting();
		const url = (apiCalls(sim)[0].body as IDataObject).callback_url as string;
		const forged = JSON.stringify({ id: jobId, status: 'completed' });
		const wrong = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'X-Workspace-Practice-Secret': 'f'.repeat(64),
			},
			body: forged,
		});
		const missing = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: forged,
		});
		expect([wrong.status, missing.status]).toEqual([401, 401]);
		expect(apiCalls(sim)).toHaveLength(1);

		sim.control.advance(5_000);
		const [item] = outputOf(await resumed);
		expect(item.json.status).toBe('completed');
		expect(
			server.received
				.filter((r) => r.path === `/webhook-waiting/${executionId}`)
				.map((r) => r.answer.status),
		).toEqual([401, 401, 200]);
	});

	it('on the time limit continues with an error item naming the job, saying how to read its status', async () => {
		const { executionId, jobId } = await startWaiting({ options: { timeLimitMinutes: 5 } });
		const run = await waiting.timeOut(executionId);
		const [item] = outputOf(run);
		expect(item.json).toEqual({
			error: `Scenario job ${jobId} sent no callback within 5 minute(s)`,
			description: expect.stringContaining(`Scenario Job → Get (job ID ${jobId})`),
			job_id: jobId,
			status_when_created: 'queued',
		});
		expect(apiCalls(sim)).toHaveLength(1);
	});

	it('puts the execution to wait until the time limit', async () => {
		const before = Date.now();
		const { result } = await startWaiting({ options: { timeLimitMinutes: 15 } });
		const waitTill = result.run.waitTill!.getTime();
		expect(waitTill - before).toBeGreaterThanOrEqual(15 * 60_000 - 50);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(15 * 60_000);
	});

	it('takes one item per execution: several items fail before any request', async () => {
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'callback' }),
			input: [{}, {}],
			urls: waiting.urls(),
		});
		expect(error?.message).toBe('Until Callback waits for one job per execution');
		expect(apiCalls(sim)).toHaveLength(0);
	});

	it('refuses a Callback URL of its own in this mode', async () => {
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'callback',
				additionalFields: { callbackUrl: 'https://x.example.com' },
			}),
			urls: waiting.urls(),
		});
		expect(error?.message).toMatch(/Callback URL: leave it empty/);
		expect(apiCalls(sim)).toHaveLength(0);
	});
});

describe('Until Callback against a service that calls back for completed jobs only (the spec)', () => {
	beforeEach(async () => {
		await sim.close();
		({ sim } = await bootJobSim({ callbackStatuses: ['completed'] }));
	});

	it('a completed job resumes the execution as usual', async () => {
		const { resumed, jobId } = await startWaiting();
		sim.control.advance(5_000);
		const [item] = outputOf(await resumed);
		expect(item.json).toMatchObject({ id: jobId, status: 'completed' });
	});

	it('a failed job sends nothing: at the time limit a clear error item says so and how to read its status', async () => {
		const { executionId, jobId } = await startWaiting({
			options: { timeLimitMinutes: 5 },
			prompt: 'Make it [fail:GENERATION_ERROR]',
		});
		sim.control.advance(5_000);
		await sim.control.waitForCallbacks();
		expect(sim.control.getJob(jobId).status).toBe('failed');
		expect(sim.control.callbacks()).toHaveLength(0);
		const [item] = outputOf(await waiting.timeOut(executionId));
		expect(item.json.error).toBe(`Scenario job ${jobId} sent no callback within 5 minute(s)`);
		expect(String(item.json.description)).toMatch(/failed or was cancelled may send no callback/);
		expect(item.json).not.toHaveProperty('status');
	});
});
