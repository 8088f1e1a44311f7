/**
 * Every workflow in examples/ imports into n8n as it stands (1.x and 2.x; the AI ones and the Data table one 2.x only): its node types and versions
 * exist there, its connections name its own nodes, our nodes set only fields of their form and pick
 * only their own credential types. The practice examples' triggers, as configured, are then polled
 * against the simulator (the e2e suite runs the whole workflows in a real n8n).
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { registry } from '../../n8n-harness/nodeTypes';
import { startRig, type TriggerRig } from '../trigger/setup';
import { practiceEventsOf } from '../trigger/practiceSetup';

interface NodeJson {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface WorkflowJson {
	name: string;
	nodes: NodeJson[];
	connections: Record<string, { main?: Array<Array<{ node: string }>> }>;
}

const DIR = join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const read = (file: string): WorkflowJson =>
	JSON.parse(readFileSync(join(DIR, file), 'utf8')) as WorkflowJson;

/**
 * n8n's own nodes the examples may use, at versions n8n 1.123.81 and 2.41.1 both ship (their
 * n8n-nodes-base); a new core node or version goes here once both have it.
 */
const CORE: Record<string, number[]> = {
	'n8n-nodes-base.manualTrigger': [1],
	'n8n-nodes-base.set': [3.4],
	'n8n-nodes-base.splitOut': [1],
	'n8n-nodes-base.aggregate': [1],
	'n8n-nodes-base.httpRequest': [4.2],
	'n8n-nodes-base.scheduleTrigger': [1.2],
	'n8n-nodes-base.readWriteFile': [1],
	'n8n-nodes-base.filter': [2],
	'n8n-nodes-base.summarize': [1.1],
	'n8n-nodes-base.stickyNote': [1],
	'n8n-nodes-base.if': [2],
	'n8n-nodes-base.stopAndError': [1],
};
/** n8n's own nodes in 2.41.1 only: the Data table node of 1.123 is v1 and finds tables by list or ID, not by name. */
const V2_ONLY: Record<string, number[]> = {
	'n8n-nodes-base.dataTable': [1.1],
};
/** The AI examples' nodes, in 2.41.1 only (1.123 lacks AI Agent 3.1 and MCP Server Trigger 2.1). */
const AI: Record<string, number[]> = {
	'@n8n/n8n-nodes-langchain.chatTrigger': [1.4],
	'@n8n/n8n-nodes-langchain.agent': [3.1],
	'@n8n/n8n-nodes-langchain.lmChatOpenAi': [1.3],
	'@n8n/n8n-nodes-langchain.mcpTrigger': [2.1],
};

const ours = (type: string): INodeType | undefined =>
	type.startsWith('n8n-nodes-workspace-practice.') ? (registry[type] as INodeType) : undefined;

describe.each(FILES)('examples/%s', (file) => {
	const workflow = read(file);

	test('node types and versions exist in n8n (1.x and 2.x but for the AI ones); connections name its nodes', () => {
		const names = workflow.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		for (const node of workflow.nodes) {
			const own = ours(node.type);
			const versions = own
				? [own.description.version].flat()
				: (CORE[node.type] ??
					AI[node.type] ??
					V2_ONLY[node.type] ?? ['(not a node type n8n ships)']);
			expect([node.name, node.type, versions.includes(node.typeVersion)]).toEqual([
				node.name,
				node.type,
				true,
			]);
		}
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(names).toContain(from);
			for (const target of (outputs.main ?? []).flat()) expect(names).toContain(target.node);
		}
	});

	test('our nodes set only fields of their form and use their own credential types', () => {
		for (const node of workflow.nodes) {
			const own = ours(node.type);
			if (!own) continue;
			const fields = new Set(own.description.properties.map((p: INodeProperties) => p.name));
			// n8n adds these to every node (poll schedule) or to every tool (its description).
			for (const extra of ['pollTimes', 'descriptionType', 'toolDescription']) fields.add(extra);
			for (const name of Object.keys(node.parameters))
				expect([node.name, name, fields.has(name)]).toEqual([node.name, name, true]);
			const allowed = (own.description.credentials ?? []).map((c) => c.name);
			for (const type of Object.keys(node.credentials ?? {})) expect(allowed).toContain(type);
		}
	});
});

describe('the practice examples’ triggers, as configured, against the simulator', () => {
	let rig: TriggerRig;
	beforeAll(async () => {
		rig = await startRig();
	});
	afterAll(async () => rig.close());
	beforeEach(() => rig.reset());

	/** The example's trigger, reading at every poll (its schedule is the only change). */
	const triggerOf = (file: string) => {
		const node = read(file).nodes.find((n) => n.type.endsWith('.workspacePracticeTrigger'));
		if (!node) throw new Error(`${file} has no practice trigger`);
		const parameters = {
			...node.parameters,
			practiceOptions: { maxReadsPerDay: 0, openReadHours: 0 },
		};
		return rig.harness(parameters as never);
	};
	const poll = async (trigger: ReturnType<typeof triggerOf>) => {
		const outcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		return practiceEventsOf(outcome.items);
	};

	test('coach alert: a low score fires, a high one and a system user’s do not', async () => {
		const trigger = triggerOf('coach-alert-low-score.json');
		expect(await poll(trigger)).toEqual([]);
		const control = rig.sim.control;
		const low = control.addSession({
			userEmail: 'dev@acme.com',
			scenario: 'cold-call-opener',
			score: 40,
		});
		control.addSession({ userEmail: 'carla@acme.com', scenario: 'cold-call-opener', score: 95 });
		control.addSession({ userEmail: 'support@exec.com', scenario: 'cold-call-opener', score: 10 });
		expect((await poll(trigger)).map((e) => [e.event, e.id])).toEqual([['sessionScored', low.id]]);
		expect(await poll(trigger)).toEqual([]);
	});

	test('past-due digest: an open assignment passing its due date fires once', async () => {
		const trigger = triggerOf('past-due-digest.json');
		expect(await poll(trigger)).toEqual([]);
		const control = rig.sim.control;
		const res = await fetch(
			`${rig.sim.baseUrl}/scenarios/${control.fixtures().scenarios.coldCall.id}/assignments`,
			{
				method: 'POST',
				headers: { authorization: `Bearer ${rig.sim.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					user_email: 'erin@acme.com',
					due_date: new Date(Date.parse(control.now()) + 3_600_000).toISOString(),
				}),
			},
		);
		const assignment = (await res.json()) as { id: string };
		expect(await poll(trigger)).toEqual([]);
		control.advance(2 * 3_600_000);
		expect((await poll(trigger)).map((e) => [e.event, e.id])).toEqual([
			['assignmentPastDue', assignment.id],
		]);
		expect(await poll(trigger)).toEqual([]);
	});
});
