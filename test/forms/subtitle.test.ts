/**
 * Canvas subtitles in words (issue 14), evaluated as n8n's editor does: the node's parameters with
 * their defaults filled in (NodeHelpers.getNodeParameters), the `subtitle` expression resolved by
 * n8n-workflow's expression engine with `$parameter` only.
 */
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ACTION_NODE_TYPE } from '../../n8n-harness/runNode';
import { nodeTypes } from '../../n8n-harness/nodeTypes';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { resources } from '../../nodes/WorkspacePractice/actions/resources';

function subtitleOf(
	description: INodeTypeDescription,
	type: string,
	values: INodeParameters,
): unknown {
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

describe('Workspace Practice: "<Operation>: <Resource>" in display names', () => {
	const { description } = new WorkspacePractice();
	const cases = Object.values(resources).flatMap((module) =>
		module.operation.options.map(
			(option) =>
				[module.option.value, option.value, `${option.name}: ${module.option.name}`] as const,
		),
	);

	test('every operation of every resource is covered', () => {
		expect(cases).toHaveLength(34);
	});

	test.each(cases)('%s → %s reads "%s"', (resource, operation, words) => {
		expect(subtitleOf(description, ACTION_NODE_TYPE, { resource, operation })).toBe(words);
	});

	test('a new node shows its defaults in words', () => {
		expect(subtitleOf(description, ACTION_NODE_TYPE, {})).toBe('Create: Scenario Job');
		expect(subtitleOf(description, ACTION_NODE_TYPE, { resource: 'knowledgeHubPage' })).toBe(
			'Get Many: Knowledge Hub Page',
		);
	});

	test('a value the node does not offer (an old workflow) shows as it is, not as nothing', () => {
		expect(
			subtitleOf(description, ACTION_NODE_TYPE, { resource: 'session', operation: 'delete' }),
		).toBe('delete: session');
	});
});

describe('Knowledge Hub trigger: its events in words', () => {
	const { description } = new WorkspacePracticeTrigger();
	const type = 'n8n-nodes-workspace-practice.workspacePracticeTrigger';

	test('the default events', () => {
		expect(subtitleOf(description, type, {})).toBe('Page Created, Page Published');
	});

	test('every event, in the order chosen', () => {
		const events = ['sourceReady', 'pageUpdated', 'pageCreated', 'pagePublished'];
		expect(subtitleOf(description, type, { events })).toBe(
			'Source Ready, Page Updated, Page Created, Page Published',
		);
	});

	test('no events: empty, not an error', () => {
		expect(subtitleOf(description, type, { events: [] })).toBe('');
	});
});

describe('Job Trigger: its statuses in words', () => {
	const { description } = new WorkspacePracticeJobTrigger();
	const type = 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger';

	test('the default statuses, by their names in the form', () => {
		expect(subtitleOf(description, type, {})).toBe('Job: Completed, Failed, Cancelled');
	});

	test('the statuses chosen, in the order chosen', () => {
		expect(subtitleOf(description, type, { statuses: ['failed', 'cancelled'] })).toBe(
			'Job: Failed, Cancelled',
		);
	});
});
