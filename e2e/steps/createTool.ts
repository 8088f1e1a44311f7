/**
 * Scenario Job → Create as an AI tool in a real n8n, called by n8n's own Tool Executor node (what the
 * editor runs to test a tool alone): two calls in one execution make two jobs, the tool's default is to
 * return the queued job at once, and Until Callback is refused before any request.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../scripts/n8n/api';
import { requireCredential, uniquePath, type SuiteContext } from '../context';
import { expect, expectEqual } from '../harness';
import {
	locator,
	TOOL_TYPE,
	webhookNode,
	type CredentialRef,
	type Params,
} from '../../scripts/n8n/workflows';

const TOOL_EXECUTOR = '@n8n/n8n-nodes-langchain.toolExecutor';
const TOOL_NAME = 'Create_scenario';

/**
 * Webhook → one Tool Executor per prompt, each calling the Create tool once, in one execution. The
 * executor's query names the tool in n8n 2.x ({tool: args}); 1.x takes the arguments themselves.
 */
function toolWorkflow(
	major: 1 | 2,
	path: string,
	prompts: string[],
	toolParameters: Params,
	credential: CredentialRef,
): WorkflowJson {
	const executors = prompts.map((prompt, i) => ({
		id: randomUUID(),
		name: `Call ${i + 1}`,
		type: TOOL_EXECUTOR,
		typeVersion: 1,
		position: [260 + 220 * i, 0],
		parameters: {
			query: JSON.stringify(major === 2 ? { [TOOL_NAME]: { prompt } } : { prompt }),
			toolName: TOOL_NAME,
		},
	}));
	const tool = {
		id: randomUUID(),
		name: TOOL_NAME,
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [260, 220],
		parameters: toolParameters,
		credentials: { workspacePracticeApi: credential },
	};
	const trigger = webhookNode(path);
	const main = [trigger, ...executors];
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < main.length - 1; i++) {
		connections[main[i].name as string] = {
			main: [[{ node: main[i + 1].name, type: 'main', index: 0 }]],
		};
	}
	connections[TOOL_NAME] = {
		ai_tool: [executors.map((e) => ({ node: e.name, type: 'ai_tool', index: 0 }))],
	};
	return { name: `e2e Create as a tool ${path}`, nodes: [...main, tool], connections };
}

export async function createToolSteps(ctx: SuiteContext): Promise<void> {
	const { api, sim, report, fx } = ctx;
	const toolForm = (extra: Params = {}): Params => ({
		resource: 'scenarioJob',
		operation: 'create',
		userEmail: locator(fx.apiUser.email, 'email'),
		prompt: "={{ $fromAI('prompt', 'What the scenario is about', 'string') }}",
		...extra,
	});
	const posts = () => sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' });

	await report.step(
		'tool: n8n gives the Create tool a Wait for Completion of its own, Off by default',
		async () => {
			const res = await api.raw('/types/nodes.json', { method: 'GET' });
			const types = res.body as Array<{
				name: string;
				properties?: Array<{
					name: string;
					default?: unknown;
					displayOptions?: { show?: Record<string, unknown[]> };
				}>;
			}>;
			const tool = types.find((t) => t.name === TOOL_TYPE);
			expect(tool?.properties, `${TOOL_TYPE} has no properties in nodes.json`);
			const waits = tool.properties.filter((p) => p.name === 'waitForCompletion');
			const forTool = waits.find(
				(p) => JSON.stringify(p.displayOptions?.show?.['@tool']) === '[true]',
			);
			const forNode = waits.find(
				(p) => JSON.stringify(p.displayOptions?.show?.['@tool']) === '[false]',
			);
			expectEqual(forTool?.default, 'off', "the tool variant's default");
			expectEqual(forNode?.default, 'poll', "the node's default");
			return 'waitForCompletion: "off" when @tool, "poll" otherwise';
		},
	);

	await report.step(
		'tool: two Create calls in one execution make two jobs, returned queued at once',
		async () => {
			const credential = requireCredential(ctx);
			const path = uniquePath('create-tool');
			const prompts = ['A discovery call with a CFO', 'A renewal call with a churn risk'];
			const workflow = await api.createWorkflow(
				toolWorkflow(ctx.major, path, prompts, toolForm(), credential),
			);
			try {
				await api.activate(workflow.id);
				sim.control.clearRequests();
				const jobsBefore = sim.control.store.jobs.size;
				const res = await api.callWebhook(path);
				const [execution] = await api.executions(workflow.id);
				expectEqual(
					res.status,
					200,
					`webhook answer (execution error: ${JSON.stringify(execution?.data?.resultData.error ?? 'none')})`,
				);
				expectEqual(execution?.status, 'success', 'execution status');
				const sent = posts().map((r) => r.body as { prompt: string; request_id: string });
				expectEqual(
					JSON.stringify(sent.map((b) => b.prompt)),
					JSON.stringify(prompts),
					'prompts sent',
				);
				expect(
					sent.every((b) => /^n8n-tool-[0-9a-f-]{36}$/.test(b.request_id)),
					`request IDs: ${sent.map((b) => b.request_id).join(', ')}`,
				);
				expect(sent[0].request_id !== sent[1].request_id, 'both calls sent the same request ID');
				expectEqual(sim.control.store.jobs.size - jobsBefore, 2, 'new jobs on the service');
				const reads = sim.control.requests({ method: 'GET', path: '/scenario-studio/jobs/*' });
				expectEqual(reads.length, 0, 'status reads (the tool does not wait by default)');
				return `2 jobs, request IDs ${sent.map((b) => b.request_id.slice(0, 17) + '…').join(', ')}, no status reads`;
			} finally {
				await api.deactivate(workflow.id).catch(() => undefined);
				await api.deleteWorkflow(workflow.id).catch(() => undefined);
			}
		},
	);

	await report.step(
		'tool: Until Callback is refused before any request, nothing left waiting',
		async () => {
			const credential = requireCredential(ctx);
			const path = uniquePath('create-tool-callback');
			const workflow = await api.createWorkflow(
				toolWorkflow(
					ctx.major,
					path,
					['Wait for me'],
					toolForm({ waitForCompletion: 'callback' }),
					credential,
				),
			);
			try {
				await api.activate(workflow.id);
				sim.control.clearRequests();
				await api.callWebhook(path);
				const [execution] = await api.executions(workflow.id);
				expect(execution, 'no execution');
				expect(execution.status !== 'waiting', 'the execution waits');
				const error = JSON.stringify(execution.data?.resultData.error ?? '');
				expect(
					/Until Callback.{0,20}cannot be used when the node runs as an AI tool/.test(error),
					`execution error: ${error.slice(0, 400)}`,
				);
				expectEqual(posts().length, 0, 'job creations');
				return `execution ${execution.status}: "Until Callback" cannot be used as a tool; no request`;
			} finally {
				await api.deactivate(workflow.id).catch(() => undefined);
				await api.deleteWorkflow(workflow.id).catch(() => undefined);
			}
		},
	);
}
