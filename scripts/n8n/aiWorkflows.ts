/**
 * Workflow JSON for the AI steps: the Workspace Practice tool variant under an AI Agent (with an
 * OpenAI Chat Model pointed at the scripted stub) or under an MCP Server Trigger. Node types and
 * versions are those n8n 2.41 offers: AI Agent v3.1, OpenAI Chat Model v1.3, MCP Server Trigger v2.1.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from './api';
import { TOOL_TYPE, webhookNode, type CredentialRef, type Params } from './workflows';

export const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
export const OPENAI_MODEL_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
export const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';

export type FromAiType = 'string' | 'number' | 'boolean' | 'json';

/** `={{ $fromAI('key', 'description', 'type') }}`: the model fills the parameter. */
export function fromAI(key: string, description: string, type: FromAiType = 'string'): string {
	const quoted = description.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
	return `={{ $fromAI('${key}', '${quoted}', '${type}') }}`;
}

/** A resource locator the model fills (By ID mode: the model gives an ID, or a URL where one is read). */
export function locatorFromAI(key: string, description: string): Params {
	return { __rl: true, mode: 'id', value: fromAI(key, description) };
}

export interface ToolSpec {
	/** The node's name; n8n names the tool after it (spaces become underscores). */
	name: string;
	parameters: Params;
}

export function toolNode(
	spec: ToolSpec,
	credential: CredentialRef,
	position: [number, number],
): Params {
	return {
		id: randomUUID(),
		name: spec.name,
		type: TOOL_TYPE,
		typeVersion: 1,
		position,
		parameters: spec.parameters,
		credentials: { workspacePracticeApi: credential },
	};
}

function toolConnections(tools: ToolSpec[], consumer: string): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (const tool of tools)
		connections[tool.name] = { ai_tool: [[{ node: consumer, type: 'ai_tool', index: 0 }]] };
	return connections;
}

export interface AgentWorkflowOptions {
	name: string;
	/** POST /webhook/<path> with {question}; answers with the agent's output. */
	path: string;
	tools: ToolSpec[];
	credential: CredentialRef;
	openAi: CredentialRef;
	systemMessage?: string;
}

/** Webhook → AI Agent, with the OpenAI Chat Model and the tools as its sub-nodes. */
export function agentWorkflow(options: AgentWorkflowOptions): WorkflowJson {
	const webhook = webhookNode(options.path);
	(webhook.parameters as Params).responseData = 'firstEntryJson';
	const agent = {
		id: randomUUID(),
		name: 'AI Agent',
		type: AGENT_TYPE,
		typeVersion: 3.1,
		position: [260, 0],
		parameters: {
			promptType: 'define',
			text: '={{ $json.body.question }}',
			options: options.systemMessage ? { systemMessage: options.systemMessage } : {},
		},
	};
	const model = {
		id: randomUUID(),
		name: 'OpenAI Chat Model',
		type: OPENAI_MODEL_TYPE,
		typeVersion: 1.3,
		position: [120, 220],
		parameters: {
			model: { __rl: true, mode: 'id', value: 'stub-model' },
			responsesApiEnabled: false,
			options: {},
		},
		credentials: { openAiApi: options.openAi },
	};
	const tools = options.tools.map((tool, i) =>
		toolNode(tool, options.credential, [260 + i * 140, 220]),
	);
	return {
		name: options.name,
		nodes: [webhook, agent, model, ...tools],
		connections: {
			Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			...toolConnections(options.tools, 'AI Agent'),
		},
	};
}

/** MCP Server Trigger with the tools: once published, /mcp/<path> serves SSE (GET) and streamable HTTP (POST). */
export function mcpWorkflow(
	name: string,
	path: string,
	tools: ToolSpec[],
	credential: CredentialRef,
): WorkflowJson {
	const trigger = {
		id: randomUUID(),
		name: 'MCP Server Trigger',
		type: MCP_TRIGGER_TYPE,
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { authentication: 'none', path },
	};
	const nodes = tools.map((tool, i) =>
		toolNode(tool, credential, [(i % 8) * 140, 220 + Math.floor(i / 8) * 160]),
	);
	return {
		name,
		nodes: [trigger, ...nodes],
		connections: toolConnections(tools, 'MCP Server Trigger'),
	};
}
