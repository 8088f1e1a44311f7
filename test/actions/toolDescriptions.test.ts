/**
 * What an AI model sees of the tool variant. n8n 2.x builds a tool's description from the operation's
 * `action` alone ("<action> in Workspace Practice", n8n-workflow's getToolDescriptionForNode), names a
 * newly added node after the same text (makeNodeName), and the tool after the node
 * (nodeNameToToolName, at most 64 characters). So each action must say what the operation does and
 * what it needs, and stay short enough that the tool name is not cut off; each operation's description
 * (shown in the editor, the default of a manual Tool Description) says what it returns.
 */
import type {
	INode,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';

const description = new WorkspacePractice().description;
/** As n8n registers the tool variant (convertNodeToAiTool): same properties, name suffixed. */
const toolType: INodeTypeDescription = {
	...description,
	name: `${description.name}Tool`,
	outputs: ['ai_tool'],
};

const optionsOf = (property: INodeProperties): INodePropertyOptions[] =>
	(property.options ?? []).filter((o): o is INodePropertyOptions => 'value' in o);

const resourceProperty = description.properties.find(
	(p) => p.name === 'resource',
) as INodeProperties;
const operations = optionsOf(resourceProperty).flatMap((resource) =>
	description.properties
		.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		)
		.flatMap((p) => optionsOf(p).map((op) => ({ resource, op }))),
);

function toolNode(resource: string, operation: string): INode {
	return {
		id: 'tool',
		name: NodeHelpers.makeNodeName({ resource, operation }, toolType),
		type: `n8n-nodes-workspace-practice.${toolType.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource, operation, descriptionType: 'auto' },
	};
}

describe('what a model sees of each operation', () => {
	it('covers every operation of the node', () => {
		expect(operations.length).toBe(34);
	});

	it.each(
		operations.map(({ resource, op }) => [`${resource.name} → ${op.name}`, resource, op] as const),
	)(
		'%s: the automatic tool description is its action, and the tool name is not cut off',
		(_label, resource, op) => {
			expect(op.action).toBeTruthy();
			const node = toolNode(String(resource.value), String(op.value));
			const nodeType = { description: toolType } as Parameters<
				typeof NodeHelpers.getToolDescriptionForNode
			>[1];
			expect(NodeHelpers.getToolDescriptionForNode(node, nodeType)).toBe(
				`${op.action} in Workspace Practice`,
			);
			expect(node.name).toBe(`${op.action} in Workspace Practice`);
			const toolName = nodeNameToToolName(node);
			expect(toolName).toBe(node.name.replace(/ /g, '_'));
			expect(toolName.length).toBeLessThanOrEqual(64);
			// The editor lists the operation's description; it says what comes back or what it does in full.
			expect((op.description ?? '').length).toBeGreaterThan(40);
		},
	);

	it('an action names what the operation needs: an ID, a URL, a prompt, a member or a title', () => {
		const needs: Record<string, RegExp> = {
			'scenarioJob:get': /by ID/,
			'scenarioJob:cancel': /by ID/,
			'scenarioJob:create': /from a prompt/,
			'scenario:assign': /to a member/,
			'scenario:grantAccess': /a member/,
			'scenario:checkAccess': /a member/,
			'session:get': /by ID/,
			'knowledgeHubPage:get': /by ID/,
			'knowledgeHubPage:update': /by ID/,
			'knowledgeHubPage:archive': /by ID/,
			'knowledgeHubPage:create': /with a title/,
			'knowledgeHubSource:get': /by ID/,
			'knowledgeHubSource:archive': /by ID/,
			'knowledgeHubSource:createFromUrl': /from a URL/,
			'knowledgeHubFolder:get': /by ID/,
			'studioSession:create': /for a member/,
		};
		for (const [key, pattern] of Object.entries(needs)) {
			const [resource, operation] = key.split(':');
			const found = operations.find(
				({ resource: r, op }) => r.value === resource && op.value === operation,
			);
			expect(found?.op.action).toMatch(pattern);
		}
	});

	it("each resource explains the service's term", () => {
		for (const resource of optionsOf(resourceProperty))
			expect((resource.description ?? '').length).toBeGreaterThan(20);
		const explained = (value: string): string =>
			optionsOf(resourceProperty).find((r) => r.value === value)?.description ?? '';
		expect(explained('scenarioJob')).toMatch(/background job.*AI builds a practice scenario/);
		expect(explained('studioSession')).toMatch(/link a member opens to build a scenario/);
		expect(explained('knowledgeHubPage')).toMatch(/knowledge base/);
	});
});
