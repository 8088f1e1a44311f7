/**
 * An AI Agent in a real n8n calls the Workspace Practice tool: Webhook → AI Agent, its OpenAI Chat
 * Model pointed at the scripted stub (e2e/support/openaiStub.ts). One question makes the model call
 * Get Many Scenarios with no arguments and Workspace → Get, then Scenario Job → Create twice with
 * different prompts, then Scenario Job → Get and Scenario → Assign with a bad e-mail, then answer
 * quoting the results. Checked: what the model was offered, what each tool returned to it, the jobs
 * at the simulator, and that the execution succeeded although one tool call failed.
 */
import type { Execution } from '../../scripts/n8n/api';
import { agentWorkflow, fromAI, locatorFromAI, type ToolSpec } from '../../scripts/n8n/aiWorkflows';
import { uniquePath, type SuiteContext } from '../context';
import { CheckError, expect, expectEqual, waitFor } from '../harness';
import { OpenAiStub, type ChatRequest, type ToolResult } from '../../scripts/n8n/openaiStub';
import { checkOfferedSchemas } from '../support/schemas';
import {
	agentToolError,
	ownSimulator,
	parseOne,
	parseRows,
	type OwnSimulator,
} from '../support/toolResults';

/** n8n names a tool after its node: every run of characters other than letters, digits, _ and - becomes _. */
const toolName = (node: string): string => node.replace(/[^a-zA-Z0-9_-]+/g, '_');

const AGENT_TOOLS: ToolSpec[] = [
	{
		name: 'Find scenarios',
		parameters: { resource: 'scenario', operation: 'getAll', returnAll: false, limit: 20 },
	},
	{ name: 'Get workspace', parameters: { resource: 'workspace', operation: 'get' } },
	{
		name: 'Create scenario',
		parameters: {
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: fromAI(
				'user_email',
				'E-mail address of the workspace member the scenario is created for',
			),
			prompt: fromAI(
				'prompt',
				'What the practice scenario is about: the situation, the other party and the goal',
			),
		},
	},
	{
		name: 'Check scenario job',
		parameters: {
			resource: 'scenarioJob',
			operation: 'get',
			jobId: locatorFromAI('job_id', 'ID of the scenario job, as Create scenario returned it'),
		},
	},
	{
		name: 'Assign scenario',
		parameters: {
			resource: 'scenario',
			operation: 'assign',
			scenario: locatorFromAI('scenario', 'ID of the scenario to practice, or the URL of its page'),
			userEmail: fromAI(
				'user_email',
				'E-mail address of the workspace member who should practice it',
			),
			dueDate: fromAI('due_date', 'Date by which to practice, ISO 8601 (e.g. 2030-01-31)'),
		},
	},
];

const PROMPTS = [
	'Cold call to a logistics manager who has never heard of us',
	'Renewal negotiation with a CFO asking for a 20% discount',
];
const BAD_EMAIL = 'not-an-email';
const QUESTION = 'e2e agent: what is in my workspace? Make two practice scenarios and assign one.';

function resultOf(request: ChatRequest, node: string, index = 0): ToolResult {
	const found = request.results.filter((r) => r.name === toolName(node))[index];
	if (!found) throw new CheckError(`the model received no result #${index + 1} of ${node}`);
	return found;
}

function scriptConversation(stub: OpenAiStub, ctx: SuiteContext): void {
	const { fx } = ctx;
	stub.script({
		matches: (prompt) => prompt.includes(QUESTION),
		turns: [
			{
				calls: () => [
					{ tool: toolName('Find scenarios'), args: {} },
					{ tool: toolName('Get workspace'), args: {} },
				],
			},
			{
				calls: () =>
					PROMPTS.map((prompt) => ({
						tool: toolName('Create scenario'),
						args: { user_email: fx.apiUser.email, prompt },
					})),
			},
			{
				calls: (request) => {
					const job = parseOne(resultOf(request, 'Create scenario').content, 'Create scenario');
					const [scenario] = parseRows(
						resultOf(request, 'Find scenarios').content,
						'Find scenarios',
					);
					return [
						{ tool: toolName('Check scenario job'), args: { job_id: String(job.id) } },
						{
							tool: toolName('Assign scenario'),
							args: {
								scenario: String(scenario?.id),
								user_email: BAD_EMAIL,
								due_date: '2030-01-31',
							},
						},
					];
				},
			},
			{
				answer: (request) => {
					const scenarios = parseRows(
						resultOf(request, 'Find scenarios').content,
						'Find scenarios',
					);
					const workspace = parseOne(resultOf(request, 'Get workspace').content, 'Get workspace');
					const jobs = [0, 1].map((i) =>
						parseOne(resultOf(request, 'Create scenario', i).content, 'Create scenario'),
					);
					const checked = parseOne(
						resultOf(request, 'Check scenario job').content,
						'Check scenario job',
					);
					const assign = resultOf(request, 'Assign scenario').content;
					return [
						`Workspace "${String(workspace.name)}" has ${scenarios.length} scenarios.`,
						`Jobs ${jobs.map((j) => String(j.id)).join(' and ')} were created; job ${String(checked.id)} is ${String(checked.status)}.`,
						`Assigning failed: ${assign}`,
					].join('\n');
				},
			},
		],
	});
}

export async function agentSteps(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	if (ctx.major === 1) {
		report.skip(
			'agent: an AI Agent calls the tool',
			'runs on n8n 2.x: 1.123 has AI Agent v3 and OpenAI Chat Model v1.3 but not Agent v3.1, which the steps and examples use',
		);
		return;
	}
	let own: OwnSimulator | undefined;
	let stub: OpenAiStub | undefined;
	let workflowId = '';
	try {
		let answer = '';
		let execution: Execution | undefined;
		const ran = await report.step(
			'agent: Webhook → AI Agent (stub model) → 5 Workspace Practice tools, one question',
			async () => {
				own = await ownSimulator(ctx, 'agent');
				stub = await OpenAiStub.start();
				scriptConversation(stub, ctx);
				const openAi = await api.createCredential('OpenAI (scripted stub)', 'openAiApi', {
					apiKey: 'sk-stub',
					url: stub.baseUrl,
					header: false,
				});
				const path = uniquePath('agent');
				const workflow = await api.createWorkflow(
					agentWorkflow({
						name: 'e2e AI Agent with Workspace Practice tools',
						path,
						tools: AGENT_TOOLS,
						credential: own.credential,
						openAi,
					}),
				);
				workflowId = workflow.id;
				await api.activate(workflowId);
				const res = await api.callWebhook(path, { json: { question: QUESTION } });
				execution = await waitFor('the agent execution to finish', async () => {
					const [latest] = await api.executions(workflowId);
					return latest && latest.status !== 'running' && latest.status !== 'new'
						? latest
						: undefined;
				});
				expect(
					res.status === 200,
					`n8n answered ${res.status} ${JSON.stringify(res.body).slice(0, 600)}; stub problems: ${stub.problems.join(' | ') || 'none'}`,
				);
				answer = String((res.body as { output?: unknown }).output ?? '');
				expect(
					answer.includes('Jobs '),
					`the agent's answer is not the scripted final answer: ${JSON.stringify(res.body).slice(0, 600)}`,
				);
				expectEqual(stub.problems, [], 'stub problems');
				return `${stub.requests.length} model calls; answer: ${answer.split('\n')[0]}`;
			},
		);
		if (!ran || !stub || !own) return;
		const model = stub;
		const sim = own.sim;
		const last = model.requests[model.requests.length - 1];

		await report.step('agent: the execution succeeded although one tool call failed', async () => {
			expect(execution, 'no execution');
			expectEqual(execution.status, 'success', `execution ${execution.id} status`);
			return `execution ${execution.id}: ${execution.status}`;
		});

		await report.step(
			'agent: the model was offered each tool with a description and described parameters',
			async () => {
				return checkOfferedSchemas(
					model.requests[0].tools.map((t) => ({
						name: t.name,
						description: t.description,
						schema: t.parameters,
					})),
					AGENT_TOOLS.map((t) => toolName(t.name)),
				);
			},
		);

		await report.step(
			'agent: Get Many Scenarios with no arguments and Workspace → Get came back to the model',
			async () => {
				const scenarios = parseRows(resultOf(last, 'Find scenarios').content, 'Find scenarios');
				expect(
					scenarios.length > 0 &&
						scenarios.every((s) => typeof s.id === 'string' && typeof s.name === 'string'),
					'scenarios with id and name',
				);
				const workspace = parseOne(resultOf(last, 'Get workspace').content, 'Get workspace');
				expectEqual(workspace.id, ctx.fx.workspace.id, 'workspace id');
				return `${scenarios.length} scenarios, workspace "${String(workspace.name)}"`;
			},
		);

		await report.step(
			'agent: two creates with different prompts in one turn made two jobs',
			async () => {
				const jobs = [0, 1].map((i) =>
					parseOne(resultOf(last, 'Create scenario', i).content, 'Create scenario'),
				);
				const ids = jobs.map((j) => String(j.id));
				expect(
					ids[0] !== ids[1],
					`both creates returned job ${ids[0]}: the second call reused the first call's request ID`,
				);
				const created = sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' });
				const prompts = created.map((r) => (r.body as { prompt?: string }).prompt);
				for (const prompt of PROMPTS)
					expect(
						prompts.includes(prompt),
						`the simulator received no job for "${prompt}" (got ${JSON.stringify(prompts)})`,
					);
				const stored = ids.map((id) => sim.control.store.jobs.get(id)?.prompt);
				expectEqual(stored.sort(), [...PROMPTS].sort(), 'prompts of the two stored jobs');
				return `jobs ${ids.join(', ')} (${jobs.map((j) => String(j.status)).join(', ')})`;
			},
		);

		await report.step('agent: Scenario Job → Get read the job the model named', async () => {
			const job = parseOne(resultOf(last, 'Create scenario').content, 'Create scenario');
			const checked = parseOne(resultOf(last, 'Check scenario job').content, 'Check scenario job');
			expectEqual(checked.id, job.id, 'job read');
			expect(typeof checked.status === 'string', 'a status');
			const gets = sim.control.requests({
				method: 'GET',
				path: `/scenario-studio/jobs/${String(job.id)}`,
			});
			expect(gets.length >= 1, 'the simulator received no GET of the job');
			return `job ${String(checked.id)} ${String(checked.status)}`;
		});

		await report.step(
			'agent: a bad e-mail reached the model as a clear error, with no request sent',
			async () => {
				const content = resultOf(last, 'Assign scenario').content;
				const error = agentToolError(content);
				expect(error, `the model got no error but: ${content.slice(0, 500)}`);
				expect(
					/e-mail address/i.test(error) && error.includes(BAD_EMAIL),
					`unclear error: ${error}`,
				);
				const assigns = sim.control.requests({ method: 'POST', path: '/scenarios/*/assignments' });
				expectEqual(assigns.length, 0, 'assignment requests sent');
				expect(answer.includes(BAD_EMAIL), 'the final answer quotes the error');
				return error;
			},
		);
	} finally {
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await stub?.close();
		await own?.sim.close();
	}
}
