import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { loadOptionsContext as harnessContext } from '../../n8n-harness/loadOptions';

/**
 * Pick-list and "From List" methods run as the n8n server runs them (n8n-harness/loadOptions.ts),
 * against the simulator over HTTP.
 */
function loadOptionsContext(sim: RunningSimulator): ILoadOptionsFunctions {
	return harnessContext({ baseUrl: sim.baseUrl, apiKey: sim.apiKey }, { path: 'parameters.field' });
}

const { methods } = new WorkspacePractice();
type LoadOptionsName = keyof typeof methods.loadOptions;
type ListSearchName = keyof typeof methods.listSearch;

let sim: RunningSimulator;
let ctx: ILoadOptionsFunctions;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
	ctx = loadOptionsContext(sim);
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const load = async (name: LoadOptionsName): Promise<INodePropertyOptions[]> =>
	await (
		methods.loadOptions[name] as (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>
	).call(ctx);

const search = async (
	name: ListSearchName,
	filter?: string,
	token?: string,
): Promise<INodeListSearchResult> =>
	await (
		methods.listSearch[name] as (
			this: ILoadOptionsFunctions,
			filter?: string,
			token?: string,
		) => Promise<INodeListSearchResult>
	).call(ctx, filter, token);

describe('loadOptions pick-lists', () => {
	test('getGroups: group names with their IDs, read with the bearer key', async () => {
		const options = await load('getGroups');
		expect(options).toEqual([
			{ name: 'Sales Team', value: SEED.groups.sales.id },
			{ name: 'Customer Success', value: SEED.groups.customerSuccess.id },
			{ name: 'Leadership', value: SEED.groups.leadership.id },
		]);
		const [request] = sim.control.requests();
		expect([request.path, request.query, request.headers.authorization]).toEqual([
			'/workspace/groups',
			{ page: '1', page_size: '100' },
			`Bearer ${sim.apiKey}`,
		]);
	});

	test('getCollections: names, IDs and descriptions, alphabetical as the API sends them', async () => {
		const options = await load('getCollections');
		expect(options.map((o) => o.name)).toEqual([
			'Archive Picks',
			'Negotiation Drills',
			'Onboarding',
			'Procurement Scenarios',
		]);
		expect(options.find((o) => o.value === SEED.collections.onboarding.id)?.description).toBe(
			'First-week practice for new hires.',
		);
		expect(
			options.find((o) => o.value === SEED.collections.negotiation.id)?.description,
		).toBeUndefined();
	});

	test('Knowledge Hub pick-lists: folders (with emoji), sources and skills', async () => {
		const folders = await load('getKnowledgeHubFolders');
		expect(folders).toContainEqual({ name: '💼 Sales', value: SEED.folders.sales.id });
		expect(folders).toContainEqual({ name: 'Private notes', value: SEED.folders.private.id });
		const sources = await load('getKnowledgeHubSources');
		expect(sources).toContainEqual({
			name: SEED.sources.guruPending.name,
			value: SEED.sources.guruPending.id,
			description: 'guru, pending',
		});
		expect(sources.map((o) => o.value)).not.toContain(SEED.sources.archivedUrl.id);
		const skills = await load('getSkills');
		expect(skills.map((o) => o.value).sort()).toEqual(
			Object.values(SEED.skills)
				.map((s) => s.id)
				.sort(),
		);
		expect(sim.control.requests().map((r) => r.path)).toEqual([
			'/knowledge-hub/folders',
			'/knowledge-hub/sources',
			'/skills',
		]);
	});

	test('an API failure surfaces as an error naming the status', async () => {
		sim.control.setWorkspaceActive(false);
		await expect(load('getGroups')).rejects.toThrow(/403/);
	});
});

describe('"From List" searches', () => {
	test('searchPages sends the filter as the API title search and lists title (status)', async () => {
		const result = await search('searchPages', 'pricing');
		expect(sim.control.requests()[0].query).toEqual({
			query: 'pricing',
			page: '1',
			page_size: '50',
		});
		expect(result).toEqual({
			results: [{ name: 'Pricing objection guide (published)', value: SEED.pages.published.id }],
			paginationToken: undefined,
		});
	});

	test('searchSources and searchFolders: server-side search, source URLs as links', async () => {
		const sources = await search('searchSources', 'Competitor');
		expect(sources.results).toEqual([
			{
				name: 'Competitor pricing page (url)',
				value: SEED.sources.urlReady.id,
				url: SEED.sources.urlReady.url,
			},
		]);
		const folders = await search('searchFolders', 'obj');
		expect(folders.results).toEqual([{ name: '🛡️ Objections', value: SEED.folders.objections.id }]);
		const everyFolder = await search('searchFolders');
		expect(everyFolder.results).toHaveLength(5);
		expect(sim.control.requests().map((r) => r.query)).toEqual([
			{ query: 'Competitor', page: '1', page_size: '50' },
			{ query: 'obj', page: '1', page_size: '50' },
			{ page: '1', page_size: '50' },
		]);
	});
});

describe('"From List" searches page through the API', () => {
	let big: RunningSimulator;
	let bigCtx: ILoadOptionsFunctions;
	beforeAll(async () => {
		big = await startSimulator({ clock: new ManualClock(), dataSize: { pages: 120 } });
		bigCtx = loadOptionsContext(big);
	});
	afterAll(async () => await big.close());

	test('one API page per call; the token asks for the next one and runs out at the end', async () => {
		const call = async (token?: string) =>
			await (
				methods.listSearch.searchPages as (
					this: ILoadOptionsFunctions,
					f?: string,
					t?: string,
				) => Promise<INodeListSearchResult>
			).call(bigCtx, 'generated', token);
		const first = await call();
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const second = await call(first.paginationToken as string);
		const third = await call(second.paginationToken as string);
		expect(third.results).toHaveLength(20);
		expect(third.paginationToken).toBeUndefined();
		const seen = new Set(
			[...first.results, ...second.results, ...third.results].map((r) => r.value),
		);
		expect(seen.size).toBe(120);
		expect(big.control.requests().map((r) => r.query.page)).toEqual(['1', '2', '3']);
	});
});
