/**
 * MCP clients call the Workspace Practice tool through n8n's MCP Server Trigger. One published
 * workflow exposes every operation of the action node as a tool (e2e/toolCases.ts); an MCP client of
 * the official SDK lists the tools and calls each once with the simulator's fixtures, over streamable
 * HTTP, checking the result with the operation's end-to-end case. Then, over both transports:
 * different creates make distinct jobs, and bad input and API errors come back as tool errors.
 */
import { uniquePath, type SuiteContext } from '../context';
import { CASES, type CaseContext } from '../cases';
import { CheckError, expect, expectEqual } from '../harness';
import { mcpWorkflow } from '../../scripts/n8n/aiWorkflows';
import { listOperations, type OperationRef } from '../operations';
import { connectWhenReady, type McpSession, type McpTransportKind } from '../support/mcpClient';
import { checkOfferedSchemas } from '../support/schemas';
import { ownSimulator, parseOne, parseRows, type OwnSimulator } from '../support/toolResults';
import { toolCase, type ToolCase } from '../toolCases';

const toolName = (node: string): string => node.replace(/[^a-zA-Z0-9_-]+/g, '_');
/** "Scenario Job → Create" → node "Scenario Job Create" → tool "Scenario_Job_Create". */
const nodeName = (op: OperationRef): string => op.label.replace(' → ', ' ');

export async function mcpSteps(ctx: SuiteContext): Promise<void> {
	const { api, report } = ctx;
	if (ctx.major === 1) {
		report.skip(
			'mcp: MCP clients call the tool',
			'runs on n8n 2.x: 1.123 has MCP Server Trigger v2 but not v2.1, which the steps and examples use',
		);
		return;
	}
	let own: OwnSimulator | undefined;
	let workflowId = '';
	const sessions: McpSession[] = [];
	try {
		const operations = await listOperations(ctx.packageDir);
		let url = '';
		let path = '';
		const cases = new Map<string, ToolCase>();
		let caseCtx: CaseContext | undefined;
		const ready = await report.step(
			`mcp: MCP Server Trigger with all ${operations.length} operations as tools, published`,
			async () => {
				own = await ownSimulator(ctx, 'mcp');
				caseCtx = { fx: ctx.fx, sim: own.sim };
				for (const op of operations) {
					const key = `${op.resource}:${op.operation}`;
					cases.set(key, await toolCase(key, nodeName(op), caseCtx));
				}
				path = uniquePath('mcp');
				const tools = [...cases.values()].map((c) => c.tool);
				const workflow = await api.createWorkflow(
					mcpWorkflow('e2e MCP server: every operation', path, tools, own.credential),
				);
				workflowId = workflow.id;
				await api.activate(workflowId);
				url = `${ctx.n8n.webhookBaseUrl}/mcp/${path}`;
				return `${url} (${tools.length} tools)`;
			},
		);
		if (!ready || !own || !caseCtx) return;
		const sim = own.sim;
		const cc = caseCtx;

		const connect = async (kind: McpTransportKind): Promise<McpSession> => {
			const session = await connectWhenReady(url, kind);
			sessions.push(session);
			return session;
		};

		let http: McpSession | undefined;
		await report.step(
			'mcp (streamable HTTP): tools/list offers every operation, each described',
			async () => {
				http = await connect('streamable HTTP');
				const listed = await http.listTools();
				return checkOfferedSchemas(
					listed.map((t) => ({ name: t.name, description: t.description, schema: t.inputSchema })),
					operations.map((op) => toolName(nodeName(op))),
				);
			},
		);
		if (!http) return;
		const client = http;

		for (const op of operations) {
			const key = `${op.resource}:${op.operation}`;
			await report.step(`mcp (streamable HTTP): ${op.label}`, async () => {
				const testCase = CASES[key];
				const tc = cases.get(key);
				if (!testCase || !tc) throw new CheckError(`no case for "${key}"`);
				sim.control.clearRequests();
				const outcome = await client.call(toolName(tc.tool.name), tc.args);
				expect(!outcome.isError, `the tool answered with an error: ${outcome.text.slice(0, 500)}`);
				const [method, pattern] = testCase.request;
				const sent = sim.control
					.requests()
					.filter((r) => r.method === method && pattern.test(r.path));
				expect(
					sent.length >= 1,
					`the simulator received no ${method} ${String(pattern)}; it got: ${sim.control
						.requests()
						.map((r) => `${r.method} ${r.path}`)
						.join(', ')}`,
				);
				const args = Object.keys(tc.args).length
					? `(${Object.keys(tc.args).join(', ')}) `
					: '(no arguments) ';
				return args + testCase.check(parseRows(outcome.text, op.label), cc);
			});
		}

		const transports: Array<[McpTransportKind, () => Promise<McpSession>]> = [
			['streamable HTTP', async () => client],
			['SSE', async () => await connect('SSE')],
		];
		for (const [kind, open] of transports) {
			let session: McpSession | undefined;
			if (kind === 'SSE') {
				const listed = await report.step(
					'mcp (SSE): connects and lists every operation',
					async () => {
						session = await open();
						const tools = await session.listTools();
						expectEqual(tools.length, operations.length, 'tools listed');
						const workspace = await session.call('Workspace_Get', {});
						expect(!workspace.isError, `Workspace → Get failed: ${workspace.text.slice(0, 300)}`);
						expectEqual(
							parseOne(workspace.text, 'Workspace → Get').id,
							ctx.fx.workspace.id,
							'workspace id',
						);
						return `${tools.length} tools; Workspace → Get answered`;
					},
				);
				if (!listed) continue;
			} else {
				session = await open();
			}
			const s = session as McpSession;

			await report.step(
				`mcp (${kind}): two creates with different prompts make two jobs`,
				async () => {
					const prompts = [
						`Discovery call with a hospital buyer (${kind})`,
						`Churn save call with an unhappy customer (${kind})`,
					];
					const jobs = [];
					for (const prompt of prompts) {
						const outcome = await s.call('Scenario_Job_Create', {
							user_email: ctx.fx.apiUser.email,
							prompt,
						});
						expect(!outcome.isError, `Create failed: ${outcome.text.slice(0, 300)}`);
						jobs.push(parseOne(outcome.text, 'Scenario Job → Create'));
					}
					const ids = jobs.map((j) => String(j.id));
					expect(
						ids[0] !== ids[1],
						`both creates returned job ${ids[0]}: a request ID was reused across calls`,
					);
					const stored = ids.map((id) => sim.control.store.jobs.get(id)?.prompt);
					expectEqual(stored, prompts, 'prompts of the stored jobs');
					return `jobs ${ids.join(', ')}`;
				},
			);

			await report.step(
				`mcp (${kind}): a bad e-mail comes back as a tool error naming the field, no request sent`,
				async () => {
					sim.control.clearRequests();
					const outcome = await s.call('Scenario_Assign', {
						scenario: ctx.fx.scenarios.coldCall.id,
						user_email: 'someone-at-example.com',
						due_date: '2030-01-31',
					});
					expect(outcome.isError, `expected isError, got ${outcome.text.slice(0, 300)}`);
					expect(
						/e-mail address/.test(outcome.text) && outcome.text.includes('someone-at-example.com'),
						`unclear error: ${outcome.text.slice(0, 300)}`,
					);
					expectEqual(sim.control.requests().length, 0, 'requests sent');
					return outcome.text.replace(/\s+/g, ' ').slice(0, 140);
				},
			);

			await report.step(
				`mcp (${kind}): an API error comes back as a tool error with its HTTP status, type and message`,
				async () => {
					const outcome = await s.call('Scenario_Get_Analytics_Summary', {
						scenario: 'no-such-scenario',
					});
					expect(outcome.isError, `expected isError, got ${outcome.text.slice(0, 300)}`);
					const shown =
						/404/.test(outcome.text) &&
						/not_found/.test(outcome.text) &&
						/Scenario not found: no-such-scenario/.test(outcome.text);
					expect(
						shown,
						`the error does not show the HTTP status, type and message: ${outcome.text.slice(0, 300)}`,
					);
					return outcome.text.replace(/\s+/g, ' ').slice(0, 160);
				},
			);
		}

		if (ctx.queueMode) {
			await report.step(
				'mcp (queue mode): the webhook process serves /mcp/, main does not; the tool calls ran on the workers',
				async () => {
					const atMain = await fetch(`${ctx.n8n.baseUrl}/mcp/${path}`, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							accept: 'application/json, text/event-stream',
						},
						body: JSON.stringify({
							jsonrpc: '2.0',
							id: 1,
							method: 'initialize',
							params: {
								protocolVersion: '2025-03-26',
								capabilities: {},
								clientInfo: { name: 'e2e', version: '1' },
							},
						}),
					});
					expectEqual(atMain.status, 404, `main's answer at ${ctx.n8n.baseUrl}/mcp/${path}`);
					const onWorkers = ctx.n8n.processNames
						.filter((name) => name.startsWith('worker'))
						.map(
							(name) =>
								ctx.n8n
									.log(name)
									.split('\n')
									.filter(
										(line) =>
											line.includes('Worker finished execution') && line.includes(workflowId),
									).length,
						);
					const total = onWorkers.reduce((a, b) => a + b, 0);
					expect(
						total >= operations.length,
						`only ${total} executions of the MCP workflow finished on the workers`,
					);
					return `main: 404; ${total} tool-call executions on the workers (${onWorkers.join(' + ')})`;
				},
			);
		}

		await report.step('mcp: no execution of the MCP workflow ended in error', async () => {
			const executions = await api.executions(workflowId);
			const failed = executions.filter((e) => e.status === 'error' || e.status === 'crashed');
			expect(
				failed.length === 0,
				`${failed.length} of ${executions.length} executions failed: ${failed.map((e) => `${e.id} ${JSON.stringify(e.data?.resultData.error ?? {}).slice(0, 200)}`).join('; ')}`,
			);
			return `${executions.length} executions, none failed`;
		});
	} finally {
		for (const session of sessions) await session.close().catch(() => undefined);
		if (workflowId) await api.deactivate(workflowId).catch(() => undefined);
		await own?.sim.close();
	}
}
