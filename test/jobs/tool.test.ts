/**
 * Scenario Job → Create (and Studio Session → Create) as an AI tool: the node's `…Tool` variant
 * called through n8n-core's tool machinery by a scripted agent, several calls in one execution, and
 * calls with no execution ID as the MCP Server Trigger makes them.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import { runToolCalls } from '../../n8n-harness/runTool';
import type { RunToolOptions } from '../../n8n-harness/runTool';
import { apiCalls, bootJobSim, MEMBER_EMAIL } from './jobTestKit';

let sim: RunningSimulator;

beforeEach(async () => {
	({ sim } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } }));
});
afterEach(async () => {
	await sim.close();
});

/** The tool's form as an agent builder leaves it: the model fills in the prompt. */
const createTool = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'scenarioJob',
	operation: 'create',
	userEmail: { __rl: true, mode: 'email', value: MEMBER_EMAIL(sim) },
	prompt: "={{ $fromAI('prompt', 'What the scenario is about', 'string') }}",
	...extra,
});

const callTool = (
	parameters: INodeParameters,
	calls: IDataObject[],
	options: Partial<RunToolOptions> = {},
) =>
	runToolCalls({
		parameters,
		calls,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		...options,
	});

const posts = () => apiCalls(sim).filter((r) => r.method === 'POST');
const requestIds = () => posts().map((r) => (r.body as IDataObject).request_id as string);

describe('Scenario Job → Create as an AI tool', () => {
	it('two calls with different prompts in one execution make two jobs, each returned queued at once', async () => {
		const { answers, run } = await callTool(createTool(), [
			{ prompt: 'A discovery call' },
			{ prompt: 'A renewal call' },
		]);
		expect(run.data.resultData.error).toBeUndefined();
		const jobs = answers.map((a) => (a.answer as IDataObject[])[0]);
		expect(jobs.map((j) => [j.status, j.is_new])).toEqual([
			['queued', true],
			['queued', true],
		]);
		expect(jobs[0].id).not.toBe(jobs[1].id);
		expect(sim.control.store.jobs.size).toBe(2);
		expect(posts().map((r) => (r.body as IDataObject).prompt)).toEqual([
			'A discovery call',
			'A renewal call',
		]);
		// A key per call, never the execution + node + item one (the same for every call of a turn).
		const keys = requestIds();
		expect(new Set(keys).size).toBe(2);
		keys.forEach((key) => expect(key).toMatch(/^n8n-tool-[0-9a-f-]{36}$/));
		// Wait for Completion defaults to Off for the tool: no status reads, nothing left waiting.
		expect(apiCalls(sim).filter((r) => r.method === 'GET')).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	it("the tool variant's Wait for Completion defaults to Off, the node's to By Polling", async () => {
		const { answers } = await callTool(createTool(), [{ prompt: 'As a tool' }]);
		expect((answers[0].answer as IDataObject[])[0].status).toBe('queued');
		expect(apiCalls(sim).filter((r) => r.method === 'GET')).toHaveLength(0);
		const asNode = await runNode({
			parameters: { ...createTool(), prompt: 'As a node', options: { firstPollSeconds: 0.02 } },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		// Neither form sets the mode: the node waits By Polling, reading the job until it completed.
		expect(asNode.items[0].json.status).toBe('completed');
		expect(apiCalls(sim).filter((r) => r.method === 'GET')).toHaveLength(1);
	});

	it('calls with no execution ID (as over MCP) make a new job each time, even with the same prompt', async () => {
		await callTool(createTool(), [{ prompt: 'Same prompt' }], { executionId: null });
		await callTool(createTool(), [{ prompt: 'Same prompt' }], { executionId: null });
		expect(sim.control.store.jobs.size).toBe(2);
		expect(new Set(requestIds()).size).toBe(2);
	});

	it('the normal node with no execution ID counts as a tool call too', async () => {
		const run = () =>
			runNode({
				parameters: { ...createTool(), prompt: 'Same prompt', waitForCompletion: 'off' },
				credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
				executionId: null,
			});
		await run();
		await run();
		expect(sim.control.store.jobs.size).toBe(2);
		requestIds().forEach((key) => expect(key).toMatch(/^n8n-tool-/));
	});

	it("a transport retry within one call sends the call's key again: one job", async () => {
		// The service creates the job, then the answer is lost; the transport sends the POST again.
		sim.control.dropNext(1);
		const { answers } = await callTool(createTool(), [{ prompt: 'Lost answer' }]);
		const [job] = answers[0].answer as IDataObject[];
		expect(posts()).toHaveLength(2);
		const [first, again] = requestIds();
		expect(again).toBe(first);
		expect(sim.control.store.jobs.size).toBe(1);
		// The service answers the repeat with the job the first POST made.
		expect(job.is_new).toBe(false);
		expect(job.id).toBe([...sim.control.store.jobs.keys()][0]);
	});

	it('Until Callback is refused before any request, naming the field; nothing is left waiting', async () => {
		const { answers, run } = await callTool(createTool({ waitForCompletion: 'callback' }), [
			{ prompt: 'Wait for me' },
		]);
		expect(answers[0].error).toMatch(
			/^Wait for Completion: "Until Callback" cannot be used when the node runs as an AI tool/,
		);
		expect(answers[0].error).toMatch(/Choose "Off" .* or "By Polling"\. No request was sent\./);
		expect(apiCalls(sim)).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
		expect(run.status).not.toBe('waiting');
	});

	it('Until Callback with no execution ID is refused the same way', async () => {
		const { error, run } = await runNode({
			parameters: { ...createTool(), prompt: 'x', waitForCompletion: 'callback' },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			executionId: null,
		});
		expect(error?.message).toMatch(/^Wait for Completion: "Until Callback" cannot be used/);
		expect(apiCalls(sim)).toHaveLength(0);
		expect(run.waitTill).toBeUndefined();
	});

	it('By Polling, when chosen for the tool, returns the finished job', async () => {
		const { answers } = await callTool(
			createTool({ waitForCompletion: 'poll', options: { firstPollSeconds: 0.02 } }),
			[{ prompt: 'Wait for it' }],
		);
		const [job] = answers[0].answer as IDataObject[];
		expect(job).toMatchObject({ status: 'completed', is_new: true });
		expect((job.scenario as IDataObject).id).toEqual(expect.any(String));
	});

	it('a custom Request ID the model fills in is sent as given: the same key returns the same job', async () => {
		const parameters = createTool({
			options: {
				requestIdMode: 'custom',
				requestId: "={{ $fromAI('deal_id', 'The CRM deal', 'string') }}",
			},
		});
		const { answers } = await callTool(parameters, [
			{ prompt: 'Deal call', deal_id: 'deal-7' },
			{ prompt: 'Deal call', deal_id: 'deal-7' },
		]);
		const jobs = answers.map((a) => (a.answer as IDataObject[])[0]);
		expect(requestIds()).toEqual(['deal-7', 'deal-7']);
		expect(jobs[1]).toMatchObject({ id: jobs[0].id, is_new: false });
	});
});

describe('Studio Session → Create as an AI tool', () => {
	it('sends no request ID of its own: two calls make two sessions', async () => {
		const parameters: INodeParameters = {
			resource: 'studioSession',
			operation: 'create',
			userEmail: { __rl: true, mode: 'list', value: MEMBER_EMAIL(sim) },
			prompt: "={{ $fromAI('prompt', 'The meeting to prepare for', 'string') }}",
		};
		const { answers } = await callTool(parameters, [
			{ prompt: 'Board meeting' },
			{ prompt: 'Pricing call' },
		]);
		const sessions = answers.map((a) => (a.answer as IDataObject[])[0]);
		expect(sessions.map((s) => s.is_new)).toEqual([true, true]);
		expect(sessions[0].id).not.toBe(sessions[1].id);
		const bodies = sim.control
			.requests({ path: '/scenario-studio' })
			.map((r) => r.body as IDataObject);
		expect(bodies.map((b) => b.prompt)).toEqual(['Board meeting', 'Pricing call']);
		bodies.forEach((b) => expect(b).not.toHaveProperty('request_id'));
	});
});
