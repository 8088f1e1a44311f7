/**
 * The "From List" searches of the Scenario, Session and Skill pickers, called the way the n8n editor
 * calls them: through the node type's methods with n8n-core's LoadOptionsContext.
 */
import type { ILoadOptionsFunctions, INode, INodeListSearchResult } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { loadOptionsContext as harnessContext } from '../../n8n-harness/loadOptions';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';

type Search = (
	this: ILoadOptionsFunctions,
	filter?: string,
	token?: string,
) => Promise<INodeListSearchResult>;

function loadOptionsContext(
	sim: RunningSimulator,
	parameters: INode['parameters'],
): ILoadOptionsFunctions {
	return harnessContext({ baseUrl: sim.baseUrl, apiKey: sim.apiKey }, { parameters });
}

const methods = new WorkspacePractice().methods.listSearch as Record<string, Search>;

describe('list searches against the seeded workspace', () => {
	let sim: RunningSimulator;
	let ctx: ILoadOptionsFunctions;
	beforeAll(async () => {
		sim = await startSimulator({ clock: new ManualClock() });
		ctx = loadOptionsContext(sim, { resource: 'scenario', operation: 'checkAccess' });
	});
	afterAll(async () => await sim.close());
	beforeEach(() => sim.control.reset());

	test('searchScenarios: one API page, name as label, ID as value, the web URL as link', async () => {
		const { results, paginationToken } = await methods.searchScenarios.call(ctx);
		expect(sim.control.requests().map((r) => [r.path, r.query])).toEqual([
			['/scenarios', { page: '1', page_size: '50' }],
		]);
		expect(paginationToken).toBeUndefined();
		expect(results).toContainEqual({
			name: SEED.scenarios.procurementDiscovery.name,
			value: SEED.scenarios.procurementDiscovery.id,
			url: `https://acme-corp.app.exec.com/scenarios/${SEED.scenarios.procurementDiscovery.slug}`,
		});
		expect(results.map((r) => r.value)).not.toContain(SEED.scenarios.archived.id);
	});

	test('searchScenarios with a filter matches name or slug, case-insensitively', async () => {
		const { results } = await methods.searchScenarios.call(ctx, 'DISCOVERY');
		expect(results.map((r) => r.name).sort()).toEqual(
			[SEED.scenarios.procurementDiscovery.name, SEED.scenarios.discoveryCall.name].sort(),
		);
		const bySlug = await methods.searchScenarios.call(ctx, 'cold-call');
		expect(bySlug.results.map((r) => r.value)).toEqual([SEED.scenarios.coldCall.id]);
	});

	test('searchSessions: labelled by person, scenario and time; filter on person or scenario', async () => {
		const { results } = await methods.searchSessions.call(ctx);
		expect(sim.control.requests().map((r) => r.path)).toEqual(['/sessions']);
		expect(results.length).toBeGreaterThan(10);
		expect(results[0].name).toMatch(
			/^[A-Z][a-z]+ [A-Z][a-z]+ · .+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/,
		);
		const frank = await methods.searchSessions.call(ctx, 'frank@acme');
		expect(frank.results.length).toBeGreaterThan(0);
		expect(frank.results.every((r) => r.name.startsWith('Frank Osei'))).toBe(true);
		const pricing = await methods.searchSessions.call(ctx, 'renewal');
		expect(pricing.results.length).toBeGreaterThan(0);
		expect(pricing.results.every((r) => r.name.includes('Renewal Negotiation'))).toBe(true);
	});

	test('searchSkills: name and UUID; filter narrows', async () => {
		const { results } = await methods.searchSkills.call(ctx);
		expect(results).toContainEqual({
			name: SEED.skills.objection.name,
			value: SEED.skills.objection.id,
		});
		const filtered = await methods.searchSkills.call(ctx, 'objection');
		expect(filtered.results).toEqual([
			{ name: SEED.skills.objection.name, value: SEED.skills.objection.id },
		]);
	});
});

describe('searchScenarios pages through a large workspace', () => {
	let big: RunningSimulator;
	beforeAll(async () => {
		big = await startSimulator({ clock: new ManualClock(), dataSize: { scenarios: 120 } });
	});
	afterAll(async () => await big.close());

	test('one API page per call; the token asks for the next page and the last page has none', async () => {
		const ctx = loadOptionsContext(big, { resource: 'scenario', operation: 'getAnalyticsSummary' });
		const first = await methods.searchScenarios.call(ctx);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const third = await methods.searchScenarios.call(ctx, undefined, '3');
		expect(third.paginationToken).toBeUndefined();
		expect(big.control.requests().map((r) => r.query.page)).toEqual(['1', '3']);
		const seen = new Set([...first.results, ...third.results].map((r) => r.value));
		expect(seen.size).toBe(first.results.length + third.results.length);
	});
});
