import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IWorkflowBase,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { WorkflowExecute } from 'n8n-core';
import { randomUUID } from 'node:crypto';

import { makeAdditionalData } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes, START_NODE_TYPE } from './nodeTypes';
import type { TestCredentials } from './runNode';
import { TOOL_AGENT_NODE_TYPE } from './toolAgent';

export const TOOL_NODE_TYPE = 'n8n-nodes-workspace-practice.workspacePracticeTool';
export const TOOL_NODE_NAME = 'Workspace Practice Tool';
export const TOOL_NODE_ID = '7f3c2a10-0000-4000-8000-00000000t001';

export interface RunToolOptions {
	/** The tool node's parameters, as the editor stores them (`$fromAI()` where the model fills in). */
	parameters: INodeParameters;
	credentials: TestCredentials;
	/** One entry per tool call: the arguments the model sends. */
	calls: IDataObject[];
	/** The execution's ID; `null` runs with none, as n8n runs tool calls from the MCP Server Trigger. */
	executionId?: string | null;
}

export interface RunToolResult {
	/** One item per call: `{tool, answer}` or `{tool, error}`. */
	answers: IDataObject[];
	run: IRun;
}

/**
 * Start → Agent, with our node's AI-tool variant connected to the agent's `ai_tool` input; the
 * agent calls it once per entry of `calls`, through n8n-core's tool machinery, in one execution.
 */
export async function runToolCalls(options: RunToolOptions): Promise<RunToolResult> {
	const node = (name: string, type: string, parameters: INodeParameters, x: number): INode => ({
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position: [x, 0],
		parameters,
	});
	const tool: INode = {
		...node(TOOL_NODE_NAME, TOOL_NODE_TYPE, options.parameters, 200),
		// One workflow: the tool node keeps its ID from run to run, as a saved workflow's node does.
		id: TOOL_NODE_ID,
		credentials: {
			workspacePracticeApi: { id: 'test-credential', name: 'Workspace Practice (test)' },
		},
	};
	const nodes = [
		node('Start', START_NODE_TYPE, { items: '[{}]' }, 0),
		node('Agent', TOOL_AGENT_NODE_TYPE, { calls: JSON.stringify(options.calls) }, 400),
		tool,
	];
	const connections: IConnections = {
		Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
		[TOOL_NODE_NAME]: {
			ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]],
		},
	};
	const workflowData: IWorkflowBase = {
		id: 'tool-workflow',
		name: 'Tool calls',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: {},
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: {},
	});
	const credentialsHelper = new TestCredentialsHelper({
		workspacePracticeApi: { ...options.credentials },
	});
	const executionId = options.executionId === undefined ? randomUUID() : options.executionId;
	// No execution ID at all: the engine's hooks still want a string, the node must see none.
	const additionalData = makeAdditionalData(credentialsHelper, workflowData, executionId ?? '');
	if (executionId === null) additionalData.executionId = undefined;
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: nodes[0],
	});
	const items: INodeExecutionData[] = run.data.resultData.runData.Agent?.[0]?.data?.main?.[0] ?? [];
	return { answers: items.map((item) => item.json), run };
}
