/** Spec 3.3 and 4.6: Knowledge Hub pages. */
import { SEED } from '../../simulator';
import {
	deleteResultSchema,
	pageDetailSchema,
	pageListSchema,
	pageVersionListSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());
beforeEach(() => t.control.reset());

const P = SEED.pages;
const list = async (params: Record<string, string> = {}) =>
	expectOk(await t.api.get('/knowledge-hub/pages', { params }), pageListSchema);
const detail = async (id: string, params: Record<string, string> = {}) =>
	expectOk(await t.api.get(`/knowledge-hub/pages/${id}`, { params }), pageDetailSchema);
const patch = (id: string, body: Record<string, unknown>) =>
	t.api.patch(`/knowledge-hub/pages/${id}`, body);
const versions = async (id: string) =>
	expectOk(await t.api.get(`/knowledge-hub/pages/${id}/versions`), pageVersionListSchema);
const nowIso = () => new Date(t.clock.now()).toISOString();

describe('GET /knowledge-hub/pages', () => {
	it('every non-archived page of every visibility and status, body omitted', async () => {
		const body = await list();
		const ids = body.data.map((p) => p.id);
		for (const p of [
			P.published,
			P.publishedWithDraft,
			P.draftNeverPublished,
			P.draftPreviouslyPublished,
			P.aiGenerated,
		])
			expect(ids).toContain(p.id);
		expect(ids).not.toContain(P.archived.id);
		expect(new Set(body.data.map((p) => p.visibility))).toEqual(
			new Set(['private', 'workspace', 'global']),
		);
		expect(body.data.every((p) => !('content' in p) && !('sources' in p))).toBe(true);
	});

	it('status filter, including archived; comma lists; unknown values rejected', async () => {
		expect((await list({ status: 'archived' })).data.map((p) => p.id)).toEqual([P.archived.id]);
		expect((await list({ status: 'draft' })).data.every((p) => p.status === 'draft')).toBe(true);
		expect((await list({ status: 'draft,archived' })).pagination.total_count).toBe(3);
		expectError(
			await t.api.get('/knowledge-hub/pages', { params: { status: 'deleted' } }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
	});

	it('folder_id, owner_id, skill_id and case-insensitive query', async () => {
		expect((await list({ folder_id: SEED.folders.objections.id })).data.map((p) => p.id)).toEqual([
			P.published.id,
		]);
		const bob = SEED.members.find((m) => m.first_name === 'Bob');
		expect((await list({ owner_id: bob?.id ?? '' })).data.map((p) => p.id)).toEqual([
			P.publishedWithDraft.id,
		]);
		expect((await list({ skill_id: SEED.skills.negotiation.id })).data.map((p) => p.id)).toEqual([
			P.draftPreviouslyPublished.id,
		]);
		expect((await list({ query: 'PRICING' })).data.map((p) => p.id)).toEqual([P.published.id]);
	});

	it('updated_after and updated_before are inclusive', async () => {
		const page = await detail(P.published.id);
		const exact = await list({ updated_after: page.updated_at, updated_before: page.updated_at });
		expect(exact.data.map((p) => p.id)).toEqual([P.published.id]);
		const after = new Date(Date.parse(page.updated_at) + 1).toISOString();
		expect((await list({ updated_after: after })).data.map((p) => p.id)).not.toContain(
			P.published.id,
		);
		expectError(
			await t.api.get('/knowledge-hub/pages', { params: { updated_after: 'last week' } }),
			400,
			'invalid_request',
			'invalid_value',
			'updated_after',
		);
	});

	it('sort: updated_at (default) and created_at newest first, title A-Z; each order fixed as the spec says', async () => {
		const times = (rows: Array<{ updated_at: string }>) =>
			rows.map((r) => Date.parse(r.updated_at));
		const def = (await list()).data;
		expect(times(def)).toEqual([...times(def)].sort((a, b) => b - a));
		expect((await list({ sort: 'updated_at' })).data.map((p) => p.id)).toEqual(
			def.map((p) => p.id),
		);
		const created = (await list({ sort: 'created_at' })).data.map((p) => Date.parse(p.created_at));
		expect(created).toEqual([...created].sort((a, b) => b - a));
		const titles = (await list({ sort: 'title' })).data.map((p) => p.title);
		expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
		expectError(
			await t.api.get('/knowledge-hub/pages', { params: { sort: 'owner' } }),
			400,
			'invalid_request',
			'invalid_value',
			'sort',
		);
		// The spec gives these values no "-" (their order is fixed): refused rather than guessed at.
		expectError(
			await t.api.get('/knowledge-hub/pages', { params: { sort: '-title' } }),
			400,
			'invalid_request',
			'invalid_value',
			'no - prefix',
		);
		expectError(
			await t.api.get('/knowledge-hub/pages', { params: { sorting: 'title' } }),
			400,
			'invalid_request',
			'invalid_value',
			'it sorts by sort',
		);
	});

	it('identical updated_at timestamps: the latest change comes first, consistently', async () => {
		await patch(P.draftNeverPublished.id, { content: 'a' });
		await patch(P.published.id, { content: 'b' });
		const rows = (await list()).data;
		expect(rows[0].updated_at).toBe(rows[1].updated_at);
		expect(rows.slice(0, 2).map((p) => p.id)).toEqual([P.published.id, P.draftNeverPublished.id]);
		expect((await list()).data.map((p) => p.id)).toEqual(rows.map((p) => p.id));
	});
});

describe('GET /knowledge-hub/pages/{id}', () => {
	it('published body, full sources, skills and version; no draft unless include=draft', async () => {
		const page = await detail(P.published.id);
		expect(page).toMatchObject({ status: 'published', version: 3, source_count: 2 });
		expect(page.content).toContain('Lead with value');
		expect(page.sources.map((s) => s.id)).toEqual([
			SEED.sources.uploadReady.id,
			SEED.sources.urlReady.id,
		]);
		expect(page.draft).toBeUndefined();
		const withDraft = await detail(P.publishedWithDraft.id, { include: 'draft' });
		expect(withDraft.draft).toEqual({
			title: 'Discovery call checklist (v2)',
			content: expect.stringContaining('budget'),
		});
		expect(withDraft.content).not.toContain('budget');
	});

	it('a never-published page has version null and content null', async () => {
		expect(await detail(P.draftNeverPublished.id)).toMatchObject({
			status: 'draft',
			version: null,
			content: null,
			published_at: null,
		});
	});

	it('unknown page: 404 naming the id; unknown include rejected', async () => {
		expectError(
			await t.api.get('/knowledge-hub/pages/6f9b0e4e-0000-4000-8000-000000000000'),
			404,
			'not_found',
			null,
			'6f9b0e4e-0000-4000-8000-000000000000',
		);
		expectError(
			await t.api.get(`/knowledge-hub/pages/${P.published.id}`, { params: { include: 'content' } }),
			400,
			'invalid_request',
			'invalid_value',
			'include',
		);
	});
});

describe('spec 3.3: PATCH/PUT transitions', () => {
	it('content creates a new draft: status, version and published content unchanged; updated_at moves with the clock', async () => {
		t.clock.advance(60_000);
		const res = expectOk(
			await patch(P.published.id, { content: 'New draft text' }),
			pageDetailSchema,
		);
		expect(res).toMatchObject({
			status: 'published',
			version: 3,
			draft: { content: 'New draft text' },
		});
		expect(res.content).toContain('Lead with value');
		expect(res.updated_at).toBe(nowIso());
		expect((await detail(P.published.id, { include: 'draft' })).draft?.content).toBe(
			'New draft text',
		);
		expect((await versions(P.published.id)).pagination.total_count).toBe(3);
	});

	it('status=published publishes the draft: version and published_at advance, a manual_edit row by the API user', async () => {
		t.clock.advance(60_000);
		await patch(P.published.id, { content: 'Version four' });
		t.clock.advance(1000);
		const res = expectOk(await patch(P.published.id, { status: 'published' }), pageDetailSchema);
		expect(res).toMatchObject({
			status: 'published',
			version: 4,
			content: 'Version four',
			published_at: nowIso(),
			updated_at: nowIso(),
		});
		const v = await versions(P.published.id);
		expect(v.data[0]).toMatchObject({
			version: 4,
			change_type: 'manual_edit',
			created_by: { email: SEED.apiUser.email },
			created_at: nowIso(),
		});
	});

	it('content and status=published in one call publish that content', async () => {
		const res = expectOk(
			await patch(P.draftNeverPublished.id, {
				content: 'Day 1',
				title: 'Week one',
				status: 'published',
			}),
			pageDetailSchema,
		);
		expect(res).toMatchObject({
			status: 'published',
			version: 1,
			content: 'Day 1',
			title: 'Week one',
		});
	});

	it('status=draft moves a published page to draft, keeping its version', async () => {
		const res = expectOk(await patch(P.published.id, { status: 'draft' }), pageDetailSchema);
		expect(res).toMatchObject({ status: 'draft', version: 3 });
	});

	it('PATCH cannot archive: 400 naming status, nothing changes', async () => {
		expectError(
			await patch(P.published.id, { status: 'archived' }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
		expectError(
			await patch(P.published.id, { status: 'live' }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
		expect((await detail(P.published.id)).status).toBe('published');
	});

	it('PUT behaves the same as PATCH', async () => {
		const res = expectOk(
			await t.api.put(`/knowledge-hub/pages/${P.publishedWithDraft.id}`, { status: 'published' }),
			pageDetailSchema,
		);
		expect(res).toMatchObject({
			version: 2,
			title: 'Discovery call checklist (v2)',
			content: expect.stringContaining('budget'),
		});
	});

	it('replacement lists swap folders, sources and skills; unknown or malformed ids give 400', async () => {
		const res = expectOk(
			await patch(P.published.id, {
				folder_ids: [SEED.folders.onboarding.id],
				source_ids: [SEED.sources.notionReady.id],
				skill_ids: [],
			}),
			pageDetailSchema,
		);
		expect(res.folders.map((f) => f.id)).toEqual([SEED.folders.onboarding.id]);
		expect(res.sources.map((s) => s.id)).toEqual([SEED.sources.notionReady.id]);
		expect(res).toMatchObject({ skills: [], source_count: 1 });
		expectError(
			await patch(P.published.id, { folder_ids: ['not-a-uuid'] }),
			400,
			'invalid_request',
			'invalid_value',
			'folder_ids',
		);
		expectError(
			await patch(P.published.id, { skill_ids: ['11111111-2222-4333-8444-555555555555'] }),
			400,
			'invalid_request',
			'invalid_value',
			'skill_ids',
		);
		expectError(
			await patch(P.published.id, { source_ids: [SEED.sources.archivedUrl.id] }),
			400,
			'invalid_request',
			'invalid_value',
			'source_ids',
		);
	});

	it('unknown page gives 404', async () => {
		expectError(
			await patch('00000000-0000-4000-8000-000000000001', { title: 'x' }),
			404,
			'not_found',
			null,
			'00000000-0000-4000-8000-000000000001',
		);
	});
});

describe('DELETE /knowledge-hub/pages/{id} and versions', () => {
	it('archives: {id, deleted: true}; gone from the default list, listed under status=archived', async () => {
		const res = expectOk(
			await t.api.delete(`/knowledge-hub/pages/${P.published.id}`),
			deleteResultSchema,
		);
		expect(res).toEqual({ id: P.published.id, deleted: true });
		expect((await list()).data.map((p) => p.id)).not.toContain(P.published.id);
		expect((await list({ status: 'archived' })).data.map((p) => p.id)).toContain(P.published.id);
		expect((await detail(P.published.id)).status).toBe('archived');
		expectError(
			await t.api.delete('/knowledge-hub/pages/00000000-0000-4000-8000-000000000002'),
			404,
			'not_found',
		);
	});

	it('versions: newest first, with change_type and created_by (null for AI-generated)', async () => {
		const v = await versions(P.published.id);
		expect(v.data.map((x) => [x.version, x.change_type])).toEqual([
			[3, 'manual_edit'],
			[2, 'ai_generation'],
			[1, 'created'],
		]);
		expect(v.data[1].created_by).toBeNull();
		expect(v.data[0].created_by).not.toBeNull();
		expect((await versions(P.aiGenerated.id)).data[0]).toMatchObject({
			change_type: 'ai_generation',
			created_by: null,
		});
		const paged = expectOk(
			await t.api.get(`/knowledge-hub/pages/${P.published.id}/versions`, {
				params: { page: 2, page_size: 2 },
			}),
			pageVersionListSchema,
		);
		expect(paged.data.map((x) => x.version)).toEqual([1]);
		expectError(
			await t.api.get('/knowledge-hub/pages/00000000-0000-4000-8000-000000000003/versions'),
			404,
			'not_found',
		);
	});
});

describe('POST /knowledge-hub/pages (reference operation)', () => {
	it('creates a draft by default (201, version null, draft carries the body)', async () => {
		const res = expectOk(
			await t.api.post('/knowledge-hub/pages', { title: 'New guide', content: 'Body' }),
			pageDetailSchema,
			201,
		);
		expect(res).toMatchObject({
			title: 'New guide',
			status: 'draft',
			version: null,
			content: null,
			visibility: 'workspace',
			draft: { title: 'New guide', content: 'Body' },
			owner: { email: SEED.apiUser.email },
		});
		expect((await list()).data[0].id).toBe(res.id);
	});

	it('status=published publishes at once as version 1', async () => {
		const res = expectOk(
			await t.api.post('/knowledge-hub/pages', {
				title: 'Live',
				content: 'Now',
				status: 'published',
				visibility: 'private',
				folder_ids: [SEED.folders.sales.id],
				skill_ids: [SEED.skills.discovery.id],
			}),
			pageDetailSchema,
			201,
		);
		expect(res).toMatchObject({
			status: 'published',
			version: 1,
			content: 'Now',
			visibility: 'private',
			published_at: nowIso(),
		});
		expect((await versions(res.id)).data).toEqual([
			expect.objectContaining({
				version: 1,
				change_type: 'created',
				created_by: expect.objectContaining({ email: SEED.apiUser.email }),
			}),
		]);
	});

	it('validates title, status and visibility', async () => {
		expectError(
			await t.api.post('/knowledge-hub/pages', { content: 'x' }),
			400,
			'invalid_request',
			null,
			'title',
		);
		expectError(
			await t.api.post('/knowledge-hub/pages', { title: 'x', status: 'archived' }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
		expectError(
			await t.api.post('/knowledge-hub/pages', { title: 'x', visibility: 'global' }),
			400,
			'invalid_request',
			'invalid_value',
			'visibility',
		);
	});
});

describe('control helpers change pages as other users', () => {
	it('publish as another user, or as the AI (created_by null)', async () => {
		const bob = SEED.members.find((m) => m.first_name === 'Bob');
		t.control.updatePage(P.published.id, { content: 'by bob' }, bob?.email);
		t.control.publishPage(P.published.id, bob?.email);
		t.control.updatePage(
			P.published.id,
			{ content: 'by ai', status: 'published' },
			undefined,
			true,
		);
		const v = await versions(P.published.id);
		expect(
			v.data.slice(0, 2).map((x) => [x.version, x.change_type, x.created_by?.email ?? null]),
		).toEqual([
			[5, 'ai_generation', null],
			[4, 'manual_edit', bob?.email],
		]);
		const created = t.control.createPage({
			title: 'From control',
			status: 'published',
			asEmail: bob?.email,
		});
		expect((await detail(created.id)).owner?.email).toBe(bob?.email);
		t.control.archivePage(created.id);
		expect((await detail(created.id)).status).toBe('archived');
	});
});
