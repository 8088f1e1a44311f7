/**
 * Values as an AI model gives them. The editor's "let the model define this parameter" button names the
 * $fromAI() key after the field's display name (letters, digits and "-" kept, the rest "_"), so the
 * fields a model fills say what they take; and a model filling a scenario field may give the URL of the
 * scenario's page whatever mode the field is in.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';

const { properties } = new WorkspacePractice().description;

/** The key the editor writes into $fromAI() for a top-level field (as n8n 2.41's editor does). */
const editorKey = (displayName: string): string =>
	displayName.replace(/[^a-zA-Z0-9-]/g, '_').slice(0, 63);

function field(name: string, resource: string, operation: string): INodeProperties {
	const found = properties.find(
		(p) =>
			p.name === name &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
	if (!found) throw new Error(`no field ${name} on ${resource} → ${operation}`);
	return found;
}

describe('the $fromAI() keys the editor makes from our field names', () => {
	it.each([
		['scenario', 'scenario', 'assign', 'Scenario_ID_or_URL'],
		['scenario', 'scenario', 'getAnalyticsSummary', 'Scenario_ID_or_URL'],
		['jobId', 'scenarioJob', 'get', 'Job_ID'],
		['jobId', 'scenarioJob', 'cancel', 'Job_ID'],
		['session', 'session', 'get', 'Session_ID'],
		['skill', 'skill', 'getProficiency', 'Skill_ID'],
		['pageId', 'knowledgeHubPage', 'get', 'Page_ID'],
		['pageId', 'knowledgeHubPage', 'update', 'Page_ID'],
		['sourceId', 'knowledgeHubSource', 'get', 'Source_ID'],
		['folderId', 'knowledgeHubFolder', 'get', 'Folder_ID'],
	])('%s on %s → %s: "%s"', (name, resource, operation, key) => {
		expect(editorKey(field(name, resource, operation).displayName)).toBe(key);
	});
});

describe('a scenario URL given where an ID is expected', () => {
	let sim: RunningSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ clock: new ManualClock() });
	});
	afterAll(async () => await sim.close());
	beforeEach(() => sim.control.reset());

	const scenario = SEED.scenarios.procurementDiscovery;
	const url = `https://acme-corp.app.exec.com/scenarios/${scenario.slug}`;
	const run = async (parameters: Record<string, unknown>) =>
		await runNode({
			parameters: { resource: 'scenario', ...parameters },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});

	it.each(['id', 'list'])('in %s mode, the analytics read the slug from the URL', async (mode) => {
		const { items, error } = await run({
			operation: 'getAnalyticsSummary',
			scenario: { __rl: true, mode, value: url },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(sim.control.requests().map((r) => r.path)).toEqual([
			`/scenarios/${scenario.slug}/analytics/summary`,
		]);
	});

	it('in By ID mode, Check Access looks the slug up and asks with the ID', async () => {
		const member = SEED.members[0];
		const { error } = await run({
			operation: 'checkAccess',
			scenario: { __rl: true, mode: 'id', value: url },
			userEmail: member.email,
		});
		expect(error).toBeUndefined();
		const paths = sim.control.requests().map((r) => r.path);
		expect(paths.at(-1)).toBe(`/scenarios/${scenario.id}/access`);
	});

	it('a plain ID is still an ID', async () => {
		const { error } = await run({
			operation: 'getAnalyticsSummary',
			scenario: { __rl: true, mode: 'id', value: scenario.id },
		});
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => r.path)).toEqual([
			`/scenarios/${scenario.id}/analytics/summary`,
		]);
	});
});
