/**
 * The AI examples and the ready-to-paste tool set-ups of docs/ai-agents.md, checked without n8n (the e2e suite
 * runs the examples in a real n8n): every tool node sets fields its operation has, describes itself
 * for the model, and gives every $fromAI() parameter a description; the docs' set-ups are the
 * examples' own nodes, so what the e2e suite proves holds for them.
 */
import type { INodeProperties } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';

interface NodeJson {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}

const ROOT = join(__dirname, '..', '..');
const TOOL_TYPE = 'n8n-nodes-workspace-practice.workspacePracticeTool';
const { properties } = new WorkspacePractice().description;

const read = (file: string): { nodes: NodeJson[]; connections: Record<string, unknown> } =>
	JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as {
		nodes: NodeJson[];
		connections: Record<string, unknown>;
	};

/** Every `$fromAI('key', 'description' or `description`, 'type')` inside a value, however deep. */
function fromAiCalls(value: unknown): Array<{ key: string; description: string }> {
	const text = JSON.stringify(value);
	return [...text.matchAll(/\$fromAI\('([^']*)', (?:`([^`]*)`|'([^']*)')/g)].map((m) => ({
		key: m[1],
		description: m[2] ?? m[3] ?? '',
	}));
}

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	return (
		(!show.resource || show.resource.includes(resource)) &&
		(!show.operation || show.operation.includes(operation))
	);
}

function checkToolNode(node: NodeJson): void {
	const { resource, operation, descriptionType, toolDescription, ...fields } =
		node.parameters as Record<string, unknown> & {
			resource: string;
			operation: string;
		};
	expect(properties.some((p) => p.name === 'operation' && shownFor(p, resource, operation))).toBe(
		true,
	);
	for (const name of Object.keys(fields)) {
		expect([
			node.name,
			name,
			properties.some((p) => p.name === name && shownFor(p, resource, operation)),
		]).toEqual([node.name, name, true]);
	}
	expect(descriptionType).toBe('manual');
	expect(String(toolDescription).length).toBeGreaterThan(60);
	for (const call of fromAiCalls(fields)) {
		expect([node.name, call.key, call.description.length > 15]).toEqual([
			node.name,
			call.key,
			true,
		]);
	}
}

describe.each([
	['examples/ask-your-workspace.json', 8, '@n8n/n8n-nodes-langchain.agent'],
	['examples/workspace-mcp-server.json', 13, '@n8n/n8n-nodes-langchain.mcpTrigger'],
])('%s', (file, toolCount, consumerType) => {
	const workflow = read(file);
	const tools = workflow.nodes.filter((n) => n.type === TOOL_TYPE);
	const consumer = workflow.nodes.find((n) => n.type === consumerType);

	it(`has ${toolCount} Workspace Practice tools, each connected to the ${consumerType.split('.')[1]}`, () => {
		expect(tools).toHaveLength(toolCount);
		for (const tool of tools) {
			expect(workflow.connections[tool.name]).toEqual({
				ai_tool: [[{ node: consumer?.name, type: 'ai_tool', index: 0 }]],
			});
		}
	});

	it('each tool sets only fields of its operation, describes itself, and describes its parameters', () => {
		tools.forEach(checkToolNode);
	});

	it('tool names are distinct and valid function names for a model', () => {
		const names = tools.map((t) => t.name.replace(/[^a-zA-Z0-9_-]+/g, '_'));
		expect(new Set(names).size).toBe(names.length);
		for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
	});
});

describe('examples/workspace-mcp-server.json answers what a coach asks an assistant (issue 57)', () => {
	const tools = read('examples/workspace-mcp-server.json').nodes.filter(
		(n) => n.type === TOOL_TYPE,
	);
	const jobs = tools.map(
		(t) => `${String(t.parameters.resource)}:${String(t.parameters.operation)}`,
	);

	it.each([
		['who practised', 'session:getAll'],
		['how a session scored', 'session:get'],
		['whose assignment is past due, and a member’s assignments', 'assignment:getAll'],
		['tier changes', 'skill:getTierChanges'],
		['analytics per scenario', 'scenario:getAnalyticsSummary'],
		['analytics per participant', 'scenario:getParticipantAnalytics'],
		['scenario create', 'scenarioJob:create'],
		['scenario job get', 'scenarioJob:get'],
	])('%s (%s)', (_question, job) => {
		expect(jobs).toContain(job);
	});

	it('no two tools share a description', () => {
		const descriptions = tools.map((t) => String(t.parameters.toolDescription));
		expect(new Set(descriptions).size).toBe(descriptions.length);
	});
});

describe('the ready-to-paste tool set-ups in docs/ai-agents.md', () => {
	const doc = readFileSync(join(ROOT, 'docs', 'ai-agents.md'), 'utf8');
	const section = doc.slice(doc.indexOf('\n## Ready-to-paste tool set-ups\n'));
	const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
	const pasted = JSON.parse(block) as { nodes: NodeJson[] };
	const exampleTools = [
		...read('examples/ask-your-workspace.json').nodes,
		...read('examples/workspace-mcp-server.json').nodes,
	].filter((n) => n.type === TOOL_TYPE);

	it('cover finding scenarios, creating one and checking on it, assigning, and reading the Knowledge Hub', () => {
		const jobs = pasted.nodes.map(
			(n) => `${String(n.parameters.resource)}:${String(n.parameters.operation)}`,
		);
		expect(jobs).toEqual([
			'scenario:getAll',
			'scenarioJob:create',
			'scenarioJob:get',
			'scenario:assign',
			'knowledgeHubPage:getAll',
			'knowledgeHubPage:get',
		]);
	});

	it('are the examples’ own tool nodes (which the e2e suite runs), parameter for parameter', () => {
		for (const node of pasted.nodes) {
			expect(node.type).toBe(TOOL_TYPE);
			const same = exampleTools.find((t) => t.name === node.name);
			expect([node.name, same?.parameters]).toEqual([node.name, node.parameters]);
			checkToolNode(node);
		}
	});
});
