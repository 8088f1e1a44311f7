import { INSTANT_JOB_TIMINGS, SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { pages, folders, skills, sources, members } = SEED;
const NOT_A_UUID = 'not-a-uuid';
const UNKNOWN_PAGE = '00000000-0000-4000-8000-000000000000';

const sim = useSimulator('knowledgeHubPage', { jobTimings: INSTANT_JOB_TIMINGS });
const { run } = sim;
const apiRequests = () => sim.control.requests({ path: '/knowledge-hub/*' });

describe('Knowledge Hub Page → Get Many', () => {
	test('default form: one page of 50, every non-archived page, newest update first', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/knowledge-hub/pages', { page: '1', page_size: '50' }],
		]);
		const titles = json(items).map((page) => page.title);
		expect(titles).toHaveLength(5);
		expect(titles).not.toContain(pages.archived.name);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('every filter goes on the wire under its API name', async () => {
		const { items, error } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: {
				folder_id: rl(folders.sales.id),
				status: 'published',
				owner_id: members[0].id,
				skill_id: rl(skills.objection.id),
				query: '  Pricing ',
				updated_after: '2026-01-01T00:00:00',
				updated_before: '2026-12-31T23:59:59Z',
			},
			sort: { field: 'title' },
		});
		expect(error).toBeUndefined();
		expect(apiRequests()[0].query).toEqual({
			folder_id: folders.sales.id,
			status: 'published',
			owner_id: members[0].id,
			skill_id: skills.objection.id,
			query: 'Pricing',
			updated_after: '2026-01-01T00:00:00.000Z',
			updated_before: '2026-12-31T23:59:59.000Z',
			sort: 'title',
			page: '1',
			page_size: '100',
		});
		expect(json(items).map((page) => page.id)).toEqual([pages.published.id]);
	});

	test('status Archived and sort Created reach the archived page; a folder given By ID works', async () => {
		const { items } = await run({
			operation: 'getAll',
			filters: { status: 'archived', folder_id: rl(folders.sales.id, 'id') },
			sort: { field: 'created_at' },
		});
		expect(json(items).map((page) => page.id)).toEqual([pages.archived.id]);
	});

	test('Limit 2 asks for a page of 2 and returns 2 items', async () => {
		const { items } = await run({ operation: 'getAll', returnAll: false, limit: 2 });
		expect(apiRequests().map((r) => r.query)).toEqual([{ page: '1', page_size: '2' }]);
		expect(items).toHaveLength(2);
	});

	test('an invalid date or a folder that is not a UUID fails before any request', async () => {
		const bad = await run({ operation: 'getAll', filters: { updated_after: 'last tuesday' } });
		expect(bad.error?.message).toMatch(/Updated After: must be an ISO 8601 date-time/);
		const badFolder = await run({
			operation: 'getAll',
			filters: { folder_id: rl(NOT_A_UUID, 'id') },
		});
		expect(badFolder.error?.message).toMatch(/Folder: must be a UUID/);
		// An AI agent or an expression may hand a bare string instead of a locator object.
		const badSkill = await run({
			operation: 'getAll',
			filters: { skill_id: 'objection handling' },
		});
		expect(badSkill.error?.message).toBe(
			'Skill: must be a UUID (8-4-4-4-12 hex digits), got "objection handling"',
		);
		expect(apiRequests()).toHaveLength(0);
		const bareId = await run({ operation: 'getAll', filters: { skill_id: skills.negotiation.id } });
		expect(apiRequests()[0].query.skill_id).toBe(skills.negotiation.id);
		expect(json(bareId.items).map((page) => page.title)).toEqual(['Negotiation playbook']);
	});
});

describe('Knowledge Hub Page → Get Many with Return All across API pages', () => {
	const big = useSimulator('knowledgeHubPage', { dataSize: { pages: 230 } });

	test('Return All reads every page of 100 and splits the rows into items', async () => {
		const { items, error } = await big.run({ operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		const requested = big.control
			.requests({ path: '/knowledge-hub/pages' })
			.map((r) => r.query.page);
		expect(requested.sort()).toEqual(['1', '2', '3']);
		expect(items).toHaveLength(235);
		expect(new Set(json(items).map((page) => page.id)).size).toBe(235);
	});
});

describe('Knowledge Hub Page → Get', () => {
	test('default form: published body and sources, no draft', async () => {
		const { items, error } = await run({
			operation: 'get',
			pageId: rl(pages.publishedWithDraft.id),
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', `/knowledge-hub/pages/${pages.publishedWithDraft.id}`, {}],
		]);
		const [page] = json(items);
		expect(page.content).toBe('- Ask about the current process');
		expect(page).not.toHaveProperty('draft');
	});

	test('Include Draft sends include=draft and returns the draft', async () => {
		const { items } = await run({
			operation: 'get',
			pageId: rl(pages.publishedWithDraft.id, 'id'),
			options: { includeDraft: true },
		});
		expect(apiRequests()[0].query).toEqual({ include: 'draft' });
		expect(json(items)[0].draft).toEqual({
			title: 'Discovery call checklist (v2)',
			content: '- Ask about the current process\n- Ask about budget',
		});
	});

	test('a typed page ID that is not a UUID: n8n refuses the run from the By ID regex', async () => {
		await expect(run({ operation: 'get', pageId: rl(NOT_A_UUID, 'id') })).rejects.toThrow(
			/The page ID must be a UUID/,
		);
		expect(apiRequests()).toHaveLength(0);
	});

	test('a page ID from an expression that is not a UUID fails with the field, the rule and the item', async () => {
		const { error } = await run(
			{ operation: 'get', pageId: rl('={{ $json.id }}', 'id') },
			{ input: [{ id: NOT_A_UUID }] },
		);
		expect(error?.message).toBe(
			'Page ID: must be a UUID (8-4-4-4-12 hex digits), got "not-a-uuid"',
		);
		expect(error?.description).toMatch(/Item 0:/);
		expect(apiRequests()).toHaveLength(0);
	});

	test('an unknown page is a 404 NodeApiError naming it', async () => {
		const { error } = await run({ operation: 'get', pageId: rl(UNKNOWN_PAGE, 'id') });
		expect(error?.message).toMatch(/Not found/);
		expect(error?.message).toMatch(/404/);
	});

	test('Continue On Fail: good and bad items each get their own paired output', async () => {
		const { items, error } = await run(
			{ operation: 'get', pageId: rl('={{ $json.id }}', 'id') },
			{
				continueOnFail: true,
				input: [
					{ id: pages.published.id },
					{ id: NOT_A_UUID },
					{ id: UNKNOWN_PAGE },
					{ id: pages.aiGenerated.id },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.id).toBe(pages.published.id);
		expect(items[1].json.error).toMatch(/Page ID: must be a UUID/);
		expect(items[2].json.error).toMatch(/Not found/);
		expect(items[2].json.httpCode).toBe('404');
		expect(items[3].json.id).toBe(pages.aiGenerated.id);
		// The invalid item cost no request; the other three made one each.
		expect(apiRequests()).toHaveLength(3);
	});
});

describe('Knowledge Hub Page → Create', () => {
	test('default form: only the title is sent; the page starts as a draft', async () => {
		const { items, error } = await run({ operation: 'create', title: 'Call openers' });
		expect(error).toBeUndefined();
		const [request] = apiRequests();
		expect([request.method, request.path, request.body]).toEqual([
			'POST',
			'/knowledge-hub/pages',
			{ title: 'Call openers' },
		]);
		expect(json(items)[0]).toMatchObject({ title: 'Call openers', status: 'draft' });
	});

	test('every additional field goes in the body under its API name', async () => {
		const { items, error } = await run({
			operation: 'create',
			title: 'Renewal guide',
			additionalFields: {
				content: '## Renewals',
				status: 'published',
				visibility: 'private',
				folder_ids: [folders.sales.id, folders.onboarding.id],
				source_ids: `${sources.uploadReady.id}, ${sources.urlReady.id}`,
				skill_ids: [skills.negotiation.id],
			},
		});
		expect(error).toBeUndefined();
		expect(apiRequests()[0].body).toEqual({
			title: 'Renewal guide',
			content: '## Renewals',
			status: 'published',
			visibility: 'private',
			folder_ids: [folders.sales.id, folders.onboarding.id],
			source_ids: [sources.uploadReady.id, sources.urlReady.id],
			skill_ids: [skills.negotiation.id],
		});
		const [page] = json(items);
		expect(page).toMatchObject({
			status: 'published',
			visibility: 'private',
			version: 1,
			content: '## Renewals',
			source_count: 2,
		});
	});

	test('an empty title or a non-UUID in a list fails before any request', async () => {
		const empty = await run({ operation: 'create', title: '   ' });
		expect(empty.error?.message).toBe('Title: is required and cannot be empty');
		const badList = await run({
			operation: 'create',
			title: 'x',
			additionalFields: { skill_ids: 'abc' },
		});
		expect(badList.error?.message).toMatch(/Skills: must be a UUID/);
		expect(apiRequests()).toHaveLength(0);
	});
});

describe('Knowledge Hub Page → Update', () => {
	test('only the fields added are sent; the lists replace what the page had', async () => {
		const { items, error } = await run({
			operation: 'update',
			pageId: rl(pages.published.id),
			updateFields: {
				title: 'Pricing objections',
				content: 'Value first.',
				status: 'published',
				folder_ids: [folders.onboarding.id],
				source_ids: [],
				skill_ids: [skills.discovery.id],
			},
		});
		expect(error).toBeUndefined();
		const [request] = apiRequests();
		expect([request.method, request.path]).toEqual([
			'PATCH',
			`/knowledge-hub/pages/${pages.published.id}`,
		]);
		expect(request.body).toEqual({
			title: 'Pricing objections',
			content: 'Value first.',
			status: 'published',
			folder_ids: [folders.onboarding.id],
			source_ids: [],
			skill_ids: [skills.discovery.id],
		});
		const [page] = json(items);
		expect(page).toMatchObject({
			title: 'Pricing objections',
			content: 'Value first.',
			version: 4,
			source_count: 0,
		});
		expect(page.folders).toEqual([expect.objectContaining({ id: folders.onboarding.id })]);
		expect(page.skills).toEqual([expect.objectContaining({ id: skills.discovery.id })]);
	});

	test('status Draft alone; omitted lists stay untouched', async () => {
		const { items } = await run({
			operation: 'update',
			pageId: rl(pages.published.id),
			updateFields: { status: 'draft' },
		});
		expect(apiRequests()[0].body).toEqual({ status: 'draft' });
		expect(json(items)[0]).toMatchObject({ status: 'draft', source_count: 2 });
	});

	test('no field to update fails without a request', async () => {
		const { error } = await run({
			operation: 'update',
			pageId: rl(pages.published.id),
			updateFields: {},
		});
		expect(error?.message).toBe('Update Fields: add at least one field to change');
		expect(apiRequests()).toHaveLength(0);
	});

	test('the replacement lists say plainly that they replace', async () => {
		const { registry } = await import('../../n8n-harness/nodeTypes');
		const node = registry['n8n-nodes-workspace-practice.workspacePractice'];
		const properties = 'nodeVersions' in node ? [] : node.description.properties;
		const updateFields = properties.find(
			(p) =>
				p.name === 'updateFields' && p.displayOptions?.show?.resource?.includes('knowledgeHubPage'),
		);
		const lists = (updateFields?.options ?? []).filter(
			(o) => 'name' in o && /_ids$/.test(o.name),
		) as Array<{ description?: string }>;
		expect(lists).toHaveLength(3);
		for (const list of lists) expect(list.description).toMatch(/^REPLACES/);
	});
});

describe('Knowledge Hub Page → Archive and Get Versions', () => {
	test('Archive sends DELETE and outputs {id, deleted: true}', async () => {
		const { items, error } = await run({
			operation: 'archive',
			pageId: rl(pages.draftNeverPublished.id),
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path])).toEqual([
			['DELETE', `/knowledge-hub/pages/${pages.draftNeverPublished.id}`],
		]);
		expect(json(items)).toEqual([{ id: pages.draftNeverPublished.id, deleted: true }]);
		const after = await run({ operation: 'getAll', returnAll: true });
		expect(json(after.items).map((page) => page.id)).not.toContain(pages.draftNeverPublished.id);
	});

	test('Get Versions: default form lists the history newest first', async () => {
		const { items, error } = await run({
			operation: 'getVersions',
			pageId: rl(pages.published.id),
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.path, r.query])).toEqual([
			[`/knowledge-hub/pages/${pages.published.id}/versions`, { page: '1', page_size: '50' }],
		]);
		expect(json(items).map((v) => [v.version, v.change_type])).toEqual([
			[3, 'manual_edit'],
			[2, 'ai_generation'],
			[1, 'created'],
		]);
	});

	test('Get Versions with Limit 1 and with Return All', async () => {
		const limited = await run({
			operation: 'getVersions',
			pageId: rl(pages.published.id),
			limit: 1,
		});
		expect(json(limited.items).map((v) => v.version)).toEqual([3]);
		expect(apiRequests()[0].query).toEqual({ page: '1', page_size: '1' });
		sim.control.clearRequests();
		const all = await run({
			operation: 'getVersions',
			pageId: rl(pages.published.id),
			returnAll: true,
		});
		expect(all.items).toHaveLength(3);
		expect(apiRequests()[0].query).toEqual({ page: '1', page_size: '100' });
	});
});
