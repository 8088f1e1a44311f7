/**
 * Scenario Job → Create's form as n8n shows it: which settings appear for which Wait for Completion
 * mode (n8n-workflow's own display rules, for the node and for its AI-tool variant), and the run-time
 * checks of the settings that moved under Options.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { toolVariant } from '../../n8n-harness/toolAgent';
import { apiCalls, bootJobSim, createParams, runJobNode } from './jobTestKit';

const node = new WorkspacePractice();
const tool = toolVariant(node);

/** The Create properties n8n displays for these top-level values, by name (notices by their text). */
function shown(description: INodeTypeDescription, values: Record<string, unknown>): string[] {
	const parameters = { resource: 'scenarioJob', operation: 'create', ...values };
	const fake = { typeVersion: 1, parameters } as unknown as INode;
	return description.properties
		.filter((p) => NodeHelpers.displayParameter(parameters, p, fake, description))
		.filter((p) => !['resource', 'operation'].includes(p.name))
		.map((p) =>
			p.type === 'notice' ? `notice: ${p.displayName.split(' ').slice(0, 2).join(' ')}` : p.name,
		);
}

/** The Options collection's entries n8n displays for this mode (`/waitForCompletion` is the root value). */
function options(mode: string, inside: INodeParameters = {}): string[] {
	const collection = node.description.properties.find(
		(p) =>
			p.name === 'options' &&
			p.displayOptions?.show?.resource?.includes('scenarioJob') &&
			p.displayOptions.show.operation?.includes('create'),
	)!;
	const root = {
		resource: 'scenarioJob',
		operation: 'create',
		waitForCompletion: mode,
		options: inside,
	};
	const fake = { typeVersion: 1, parameters: root } as unknown as INode;
	return (collection.options as INodeProperties[])
		.filter((p) => NodeHelpers.displayParameter(inside, p, fake, node.description, root))
		.map((p) => p.name);
}

describe("Scenario Job → Create's form", () => {
	test('each notice shows only for the mode it describes; the tool variant has its own Wait for Completion', () => {
		expect(shown(node.description, { waitForCompletion: 'poll' })).toEqual([
			'userEmail',
			'prompt',
			'contextFrom',
			'waitForCompletion',
			'notice: This step',
			'additionalFields',
			'options',
			'simplify',
			'batching',
		]);
		expect(shown(node.description, { waitForCompletion: 'callback' })).toContain(
			'notice: Until Callback',
		);
		expect(shown(node.description, { waitForCompletion: 'callback' })).not.toContain(
			'notice: This step',
		);
		expect(
			shown(node.description, { waitForCompletion: 'off' }).filter((n) => n.startsWith('notice')),
		).toEqual([]);
		const toolWait = tool.description.properties.filter(
			(p) =>
				p.name === 'waitForCompletion' &&
				NodeHelpers.displayParameter(
					{ resource: 'scenarioJob', operation: 'create' },
					p,
					null,
					tool.description,
				),
		);
		expect(toolWait).toHaveLength(1);
		expect(toolWait[0].default).toBe('off');
		expect(toolWait[0].options!.map((o) => (o as { value: string }).value)).toEqual([
			'off',
			'poll',
		]);
		expect(shown(tool.description, { waitForCompletion: 'poll' })).not.toContain(
			'notice: This step',
		);
	});

	test('Context From: Knowledge Hub Pages shows the pages and which body, in the node and the tool', () => {
		for (const description of [node.description, tool.description]) {
			const pages = shown(description, { waitForCompletion: 'off', contextFrom: 'pages' });
			expect(pages.slice(0, 5)).toEqual([
				'userEmail',
				'prompt',
				'contextFrom',
				'contextPages',
				'contextPageBody',
			]);
			const text = shown(description, { waitForCompletion: 'off' });
			expect(text).not.toContain('contextPages');
			expect(text).not.toContain('contextPageBody');
		}
	});

	test('Options hold Request ID everywhere, Time Limit for the waiting modes, Cancel and First Poll for By Polling', () => {
		expect(options('off')).toEqual(['requestIdMode']);
		expect(options('callback')).toEqual(['requestIdMode', 'timeLimitMinutes']);
		expect(options('poll')).toEqual([
			'cancelOnTimeout',
			'firstPollSeconds',
			'requestIdMode',
			'timeLimitMinutes',
		]);
		expect(options('off', { requestIdMode: 'custom' })).toEqual(['requestIdMode', 'requestId']);
	});

	test('Time Limit is whole minutes in the form', () => {
		const collection = node.description.properties.find(
			(p) => p.name === 'options' && p.displayOptions?.show?.operation?.includes('create'),
		)!;
		const limit = (collection.options as INodeProperties[]).find(
			(p) => p.name === 'timeLimitMinutes',
		)!;
		expect(limit.typeOptions).toMatchObject({ minValue: 1, numberPrecision: 0 });
		expect(limit.default).toBe(15);
	});
});

describe("Scenario Job → Create's Options at run time", () => {
	let sim: RunningSimulator;
	beforeEach(async () => {
		({ sim } = await bootJobSim());
	});
	afterEach(async () => await sim.close());

	test.each([
		[2.5, 'Options → Time Limit (Minutes): must be a whole number from 1 to 1440, got "2.5"'],
		['={{ 0 }}', 'Options → Time Limit (Minutes): must be a whole number from 1 to 1440, got "0"'],
		[
			'={{ 2000 }}',
			'Options → Time Limit (Minutes): must be a whole number from 1 to 1440, got "2000"',
		],
	])('Time Limit %p is refused before any request', async (timeLimitMinutes, message) => {
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, { options: { timeLimitMinutes } }),
		});
		expect(error?.message).toBe(message);
		expect(apiCalls(sim)).toHaveLength(0);
	});

	test('a Request ID Value left empty is refused before any request', async () => {
		const { error } = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				options: { requestIdMode: 'custom', requestId: '' },
			}),
		});
		expect(error?.message).toBe('Options → Request ID Value: is required and cannot be empty');
		expect(apiCalls(sim)).toHaveLength(0);
	});
});
