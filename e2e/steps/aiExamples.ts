/**
 * The AI examples, imported as a user would and run: examples/ask-your-workspace.json (Chat Trigger →
 * AI Agent with its OpenAI Chat Model, here pointed at the scripted stub, and eight Workspace
 * Practice tools) answers two chat messages; examples/workspace-mcp-server.json (MCP Server Trigger
 * with Bearer auth and thirteen tools) serves an MCP client: it lists them, reads the Knowledge Hub,
 * and answers what a coach's assistant asks (who practised, how a session scored, whose assignment is
 * past due, tier changes, results per participant). What the model and the client are offered is
 * checked: every tool and every parameter has a description.
 */
import { randomUUID } from 'node:crypto';

import { SEED_NOW } from '../../simulator';
import { type SuiteContext } from '../context';
import { CheckError, expect, expectEqual, waitFor } from '../harness';
import { loadExample, type ExampleNode } from '../support/examples';
import { connectWhenReady, McpSession, type McpTransportKind } from '../support/mcpClient';
import { OpenAiStub, type ChatRequest } from '../../scripts/n8n/openaiStub';
import { checkOfferedSchemas } from '../support/schemas';
import {
	agentToolError,
	ownSimulator,
	parseOne,
	parseRows,
	type OwnSimulator,
} from '../support/toolResults';
import type { CredentialRef } from '../../scripts/n8n/workflows';

const toolName = (node: string): string => node.replace(/[^a-zA-Z0-9_-]+/g, '_');

const toolNodes = (nodes: ExampleNode[]): ExampleNode[] =>
	nodes.filter((n) => n.type.endsWith('.workspacePracticeTool'));

function result(request: ChatRequest, node: string): string {
	const found = request.results.find((r) => r.name === toolName(node));
	if (!found) throw new CheckError(`the model received no result of ${node}`);
	return found.content;
}

const ASK =
	'e2e example: which assignments are overdue, and how are people doing on the cold call scenario?';
const CREATE =
	'e2e example: make a scenario for bob about a tough renewal, check it, and show his assignments';

export async function aiExampleSteps(ctx: SuiteContext): Promise<void> {
	const { api, report, fx } = ctx;
	if (ctx.major === 1) {
		report.skip(
			'examples: the AI agent and MCP server examples',
			'they use AI Agent v3.1 and MCP Server Trigger v2.1, which n8n 1.123 lacks',
		);
		return;
	}
	let own: OwnSimulator | undefined;
	let stub: OpenAiStub | undefined;
	const workflowIds: string[] = [];
	const sessions: McpSession[] = [];
	try {
		let credentials: Record<string, CredentialRef> = {};
		const token = `e2e-${randomUUID()}`;
		const ready = await report.step(
			'examples: credentials for the simulator, the stub model and the MCP Bearer token',
			async () => {
				own = await ownSimulator(ctx, 'examples');
				stub = await OpenAiStub.start();
				const openAi = await api.createCredential('OpenAI (stub for the examples)', 'openAiApi', {
					apiKey: 'sk-stub',
					url: stub.baseUrl,
					header: false,
				});
				const bearer = await api.createCredential('MCP bearer token (e2e)', 'httpBearerAuth', {
					token,
				});
				credentials = {
					workspacePracticeApi: own.credential,
					openAiApi: openAi,
					httpBearerAuth: bearer,
				};
				return `stub model at ${stub.baseUrl}`;
			},
		);
		if (!ready || !own || !stub) return;
		const sim = own.sim;
		const model = stub;

		// ---- the agent example
		const agent = loadExample('ask-your-workspace.json', credentials);
		const chatTrigger = agent.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger');
		const coldCall = fx.scenarios.coldCall;
		const bob = fx.members[1].email;
		model.script({
			matches: (prompt) => prompt.includes(ASK),
			turns: [
				{
					calls: () => [
						{ tool: 'Overdue_assignments', args: {} },
						{ tool: 'Find_scenarios', args: {} },
					],
				},
				{
					calls: (request) => {
						const found = parseRows(result(request, 'Find scenarios'), 'Find scenarios').find(
							(s) => s.name === coldCall.name,
						);
						if (!found) throw new Error(`Find scenarios did not list "${coldCall.name}"`);
						return [
							{ tool: 'Scenario_results', args: { scenario: String(found.id) } },
							{
								tool: 'Participant_results',
								args: { scenario: fx.scenarios.procurementDiscovery.id },
							},
						];
					},
				},
				{
					answer: (request) => {
						const overdue = parseRows(
							result(request, 'Overdue assignments'),
							'Overdue assignments',
						);
						const summary = parseOne(result(request, 'Scenario results'), 'Scenario results');
						const participants = parseRows(
							result(request, 'Participant results'),
							'Participant results',
						);
						return `${overdue.length} overdue; cold call sessions: ${String(summary.total_sessions)}; ${participants.length} participants on procurement discovery.`;
					},
				},
			],
		});
		model.script({
			matches: (prompt) => prompt.includes(CREATE),
			turns: [
				{
					calls: () => [
						{
							tool: 'Create_scenario',
							args: {
								user_email: bob,
								prompt: 'Renewal with a procurement team that wants a 30% cut',
							},
						},
					],
				},
				{
					calls: (request) => {
						const job = parseOne(result(request, 'Create scenario'), 'Create scenario');
						return [
							{ tool: 'Check_scenario_job', args: { job_id: String(job.id) } },
							{
								tool: 'Assign_scenario',
								args: { scenario: coldCall.id, user_email: bob, due_date: '2030-01-31T17:00:00Z' },
							},
							{ tool: 'Assignments_of_a_member', args: { user_email: bob } },
						];
					},
				},
				{
					answer: (request) => {
						const job = parseOne(result(request, 'Check scenario job'), 'Check scenario job');
						const assignments = parseRows(
							result(request, 'Assignments of a member'),
							'Assignments of a member',
						);
						return `Job ${String(job.id)} is ${String(job.status)}; bob has ${assignments.length} assignments.`;
					},
				},
			],
		});
		let agentWorkflowId = '';
		const chat = async (message: string): Promise<string> => {
			const sessionId = randomUUID();
			const res = await api.raw(
				`${ctx.n8n.webhookBaseUrl}/webhook/${String(chatTrigger?.webhookId)}/chat`,
				{
					method: 'POST',
					json: { action: 'sendMessage', sessionId, chatInput: message },
				},
			);
			expect(
				res.status === 200,
				`the chat answered ${res.status} ${JSON.stringify(res.body).slice(0, 500)}; stub problems: ${model.problems.join(' | ') || 'none'}`,
			);
			const output = String((res.body as { output?: unknown }).output ?? '');
			expect(output, `no output in ${JSON.stringify(res.body).slice(0, 300)}`);
			return output;
		};

		const imported = await report.step(
			'examples: ask-your-workspace.json imported, published and chatted with',
			async () => {
				expect(chatTrigger?.webhookId, 'the example has no Chat Trigger with a webhookId');
				const created = await api.createWorkflow(agent.workflow);
				agentWorkflowId = created.id;
				workflowIds.push(created.id);
				await api.activate(created.id);
				const answer = await waitFor(
					'the chat to answer',
					async () =>
						await chat(ASK).catch((error: unknown) => {
							if (error instanceof CheckError && /answered 404/.test(error.message))
								return undefined;
							throw error;
						}),
					{ timeoutMs: 15000 },
				);
				expectEqual(model.problems, [], 'stub problems');
				return answer;
			},
		);
		if (imported) {
			await report.step(
				'examples: the agent example offers its 8 tools, each tool and parameter described',
				async () => {
					const first = model.conversation((p) => p.includes(ASK))[0];
					return checkOfferedSchemas(
						first.tools.map((t) => ({
							name: t.name,
							description: t.description,
							schema: t.parameters,
						})),
						toolNodes(agent.nodes).map((n) => toolName(n.name)),
					);
				},
			);
			await report.step(
				'examples: a second chat creates a scenario job, checks it, assigns and lists assignments',
				async () => {
					const answer = await chat(CREATE);
					const last = model.conversation((p) => p.includes(CREATE)).at(-1) as ChatRequest;
					for (const r of last.results)
						expect(!agentToolError(r.content), `${r.name} failed: ${r.content.slice(0, 300)}`);
					const assigned = sim.control.requests({
						method: 'POST',
						path: `/scenarios/${coldCall.id}/assignments`,
					});
					expectEqual(assigned.length, 1, 'assignment requests');
					const [execution] = await api.executions(agentWorkflowId);
					expectEqual(execution?.status, 'success', 'latest execution status');
					return answer;
				},
			);
		}

		// ---- the MCP example
		const mcp = loadExample('workspace-mcp-server.json', credentials);
		const trigger = mcp.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
		const url = `${ctx.n8n.webhookBaseUrl}/mcp/${String(trigger?.parameters.path)}`;
		const published = await report.step(
			'examples: workspace-mcp-server.json imported and published; no token, no access',
			async () => {
				const created = await api.createWorkflow(mcp.workflow);
				workflowIds.push(created.id);
				await api.activate(created.id);
				const session = await connectWhenReady(url, 'streamable HTTP', {
					authorization: `Bearer ${token}`,
				});
				sessions.push(session);
				const initialize = JSON.stringify({
					jsonrpc: '2.0',
					id: 1,
					method: 'initialize',
					params: {
						protocolVersion: '2025-03-26',
						capabilities: {},
						clientInfo: { name: 'e2e', version: '1' },
					},
				});
				const statuses: number[] = [];
				for (const auth of [{}, { authorization: 'Bearer not-the-token' }] as Array<
					Record<string, string>
				>) {
					const refused = await fetch(url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							accept: 'application/json, text/event-stream',
							...auth,
						},
						body: initialize,
					});
					statuses.push(refused.status);
				}
				// n8n's webhook authentication answers 403 to a missing or wrong Bearer token.
				expectEqual(statuses, [403, 403], 'statuses without the token and with a wrong one');
				return `${url}; without the token or with a wrong one: 403`;
			},
		);
		if (published) {
			for (const kind of ['streamable HTTP', 'SSE'] as McpTransportKind[]) {
				await report.step(
					`examples: an MCP client (${kind}) lists the ${toolNodes(mcp.nodes).length} tools, described, and reads the Knowledge Hub`,
					async () => {
						const session = await connectWhenReady(url, kind, { authorization: `Bearer ${token}` });
						sessions.push(session);
						const listed = await session.listTools();
						const summary = checkOfferedSchemas(
							listed.map((t) => ({
								name: t.name,
								description: t.description,
								schema: t.inputSchema,
							})),
							toolNodes(mcp.nodes).map((n) => toolName(n.name)),
						);
						const pages = await session.call('Find_Knowledge_Hub_pages', { search: '' });
						expect(!pages.isError, `Find Knowledge Hub pages failed: ${pages.text.slice(0, 300)}`);
						const rows = parseRows(pages.text, 'Find Knowledge Hub pages');
						expect(
							rows.length > 0 && rows.every((p) => p.status === 'published'),
							'published pages',
						);
						const page = await session.call('Read_Knowledge_Hub_page', {
							page_id: String(rows[0].id),
						});
						expect(!page.isError, `Read Knowledge Hub page failed: ${page.text.slice(0, 300)}`);
						const read = parseOne(page.text, 'Read Knowledge Hub page');
						expectEqual(read.id, rows[0].id, 'page read');
						return `${summary}; ${rows.length} published pages; read "${String(read.title)}"`;
					},
				);
			}
			await report.step(
				"examples: the MCP example answers a coach's questions: who practised, a session's score, past due, a member's assignments, tier changes, results per participant",
				async () => {
					const session = await connectWhenReady(url, 'streamable HTTP', {
						authorization: `Bearer ${token}`,
					});
					sessions.push(session);
					const call = async (tool: string, args: Record<string, unknown>): Promise<string> => {
						const outcome = await session.call(toolName(tool), args);
						expect(!outcome.isError, `${tool} failed: ${outcome.text.slice(0, 300)}`);
						return outcome.text;
					};
					// The seeded practice (sessions, tier moves) lies in the two weeks before the seed's now.
					const since = new Date(SEED_NOW - 14 * 86_400_000).toISOString();
					const practised = parseRows(
						await call('Practice sessions', { since }),
						'Practice sessions',
					);
					expect(practised.length > 0, "no session since the seed's two weeks");
					expect(
						practised.every((r) => String(r.created_at) >= since.slice(0, 10)),
						'a session before the date asked for',
					);
					const scored = practised.find((r) => typeof r.score === 'number') ?? practised[0];
					const detail = parseOne(
						await call('Session details', { session_id: String(scored.id) }),
						'Session details',
					);
					expectEqual(detail.id, scored.id, 'session read');
					expect(!('transcript' in detail), 'Session details left the transcript out');
					const overdue = parseRows(await call('Overdue assignments', {}), 'Overdue assignments');
					expect(
						overdue.length > 0 && overdue.every((a) => a.status === 'past_due'),
						'past-due assignments only',
					);
					const bob = fx.members[1].email;
					const assignments = parseRows(
						await call('Assignments of a member', { user_email: bob }),
						'Assignments of a member',
					);
					const changes = parseRows(
						await call('Tier changes', {
							from_date: since,
							to_date: new Date(SEED_NOW).toISOString(),
						}),
						'Tier changes',
					);
					expect(
						changes.length > 0 &&
							changes.every((c) => ['up', 'down', 'new'].includes(String(c.direction))),
						'tier changes with a direction',
					);
					const participants = parseRows(
						await call('Participant results', { scenario: fx.scenarios.procurementDiscovery.id }),
						'Participant results',
					);
					expect(participants.length > 0, 'participants on procurement discovery');
					return `${practised.length} sessions since ${since.slice(0, 10)}; session ${String(detail.id)} scored ${String(detail.score)}; ${overdue.length} past due; ${assignments.length} assignments of ${bob}; ${changes.length} tier changes; ${participants.length} participants`;
				},
			);
		}
	} finally {
		for (const session of sessions) await session.close().catch(() => undefined);
		for (const id of workflowIds) await api.deactivate(id).catch(() => undefined);
		await stub?.close();
		await own?.sim.close();
	}
}
