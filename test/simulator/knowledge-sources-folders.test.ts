/** Spec 3.2 and 4.5 (sources) and the folder operations of the reference document. */
import { SEED } from '../../simulator';
import {
	deleteResultSchema,
	folderListSchema,
	folderSchema,
	sourceListSchema,
	sourceSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim({ jobTimings: { queuedMs: 1000, processingMs: 4000 } });
});
afterAll(() => t.close());
beforeEach(() => t.control.reset());

const create = (body: Record<string, unknown>) => t.api.post('/knowledge-hub/sources', body);
const get = async (id: string, params: Record<string, string> = {}) =>
	expectOk(await t.api.get(`/knowledge-hub/sources/${id}`, { params }), sourceSchema);
const list = async (params: Record<string, string> = {}) =>
	expectOk(await t.api.get('/knowledge-hub/sources', { params }), sourceListSchema);

describe('spec 3.2: URL ingest', () => {
	it('201 pending → processing → ready with processed_at, following the clock', async () => {
		const created = expectOk(
			await create({
				type: 'url',
				title: 'Pricing',
				url: 'https://example.org/new-pricing',
				folder_ids: [SEED.folders.sales.id],
			}),
			sourceSchema,
			201,
		);
		expect(created).toMatchObject({
			status: 'pending',
			source_type: 'url',
			external_url: 'https://example.org/new-pricing',
			processed_at: null,
			cover: '',
		});
		expect(created.folders.map((f) => f.id)).toEqual([SEED.folders.sales.id]);
		t.clock.advance(1000);
		expect((await get(created.id)).status).toBe('processing');
		t.clock.advance(4000);
		const ready = await get(created.id, { include: 'content' });
		expect(ready.status).toBe('ready');
		expect(ready.processed_at).toBe(new Date(t.clock.now()).toISOString());
		expect(ready.content).toContain('example.org/new-pricing');
		expect(ready.token_count).toBeGreaterThan(0);
	});

	it('the same URL again: 200 with the existing source, unchanged', async () => {
		const first = expectOk(
			await create({ type: 'url', title: 'One', url: 'https://example.org/dup' }),
			sourceSchema,
			201,
		);
		const again = expectOk(
			await create({ type: 'url', title: 'Two', url: 'https://example.org/dup' }),
			sourceSchema,
			200,
		);
		expect(again).toEqual(first);
		const seeded = expectOk(
			await create({ type: 'url', title: 'x', url: SEED.sources.urlReady.url }),
			sourceSchema,
			200,
		);
		expect(seeded.id).toBe(SEED.sources.urlReady.id);
	});

	it(`a URL containing "fail-extraction" ends failed`, async () => {
		const created = expectOk(
			await create({ type: 'url', title: 'Broken', url: 'https://example.org/fail-extraction' }),
			sourceSchema,
			201,
		);
		t.clock.advance(5000);
		expect(await get(created.id)).toMatchObject({ status: 'failed', processed_at: null });
	});

	it('validation: type, title and url; only url sources can be created', async () => {
		expectError(
			await create({ title: 'x', url: 'https://a.example' }),
			400,
			'invalid_request',
			null,
			'type',
		);
		expectError(
			await create({ type: 'url', url: 'https://a.example' }),
			400,
			'invalid_request',
			null,
			'title',
		);
		expectError(await create({ type: 'url', title: 'x' }), 400, 'invalid_request', null, 'url');
		expectError(
			await create({ type: 'upload', title: 'x', url: 'https://a.example' }),
			400,
			'invalid_request',
			'invalid_value',
			'type',
		);
		expectError(
			await create({ type: 'url', title: 'x', url: 'ftp:/nope' }),
			400,
			'invalid_request',
			'invalid_value',
			'url',
		);
		expectError(
			await create({ type: 'url', title: 'x', url: 'https://a.example', folder_ids: ['nope'] }),
			400,
			'invalid_request',
			'invalid_value',
			'folder_ids',
		);
	});

	it('DELETE archives: {id, deleted: true}, then 404 on get and delete, gone from the list; the URL can be ingested again', async () => {
		const id = SEED.sources.urlReady.id;
		expect(
			expectOk(await t.api.delete(`/knowledge-hub/sources/${id}`), deleteResultSchema),
		).toEqual({ id, deleted: true });
		expectError(await t.api.get(`/knowledge-hub/sources/${id}`), 404, 'not_found', null, id);
		expectError(await t.api.delete(`/knowledge-hub/sources/${id}`), 404, 'not_found', null, id);
		expect((await list()).data.map((s) => s.id)).not.toContain(id);
		const again = expectOk(
			await create({ type: 'url', title: 'again', url: SEED.sources.urlReady.url }),
			sourceSchema,
			201,
		);
		expect(again.id).not.toBe(id);
	});

	it('control can create sources and force their status', async () => {
		const s = t.control.createSource({ url: 'https://example.org/control', title: 'Ctl' });
		expect(t.control.setSourceStatus(s.id, 'processing').status).toBe('processing');
		t.clock.advance(60_000);
		expect((await get(s.id)).status).toBe('processing'); // a forced state stays put
		expect(t.control.setSourceStatus(s.id, 'ready').processed_at).not.toBeNull();
	});
});

describe('GET /knowledge-hub/sources', () => {
	it('seeded sources cover every type and status; archived ones are not listed; rows carry no content', async () => {
		const rows = (await list()).data;
		expect(new Set(rows.map((s) => s.source_type))).toEqual(
			new Set(['upload', 'url', 'notion', 'google_drive', 'guru', 'page', 'integration']),
		);
		expect(new Set(rows.map((s) => s.status))).toEqual(
			new Set(['pending', 'processing', 'ready', 'failed']),
		);
		expect(rows.map((s) => s.id)).not.toContain(SEED.sources.archivedUrl.id);
		expect(rows.every((s) => s.content === undefined)).toBe(true);
		expect(rows.find((s) => s.source_type === 'upload')?.external_url).toBeNull();
	});

	it('type, status (comma lists), folder_id, query and page_id filters', async () => {
		expect((await list({ type: 'notion' })).data.map((s) => s.id)).toEqual([
			SEED.sources.notionReady.id,
		]);
		expect((await list({ status: 'pending,processing' })).data.map((s) => s.status).sort()).toEqual(
			['pending', 'processing'],
		);
		expect((await list({ folder_id: SEED.folders.objections.id })).data.map((s) => s.id)).toEqual([
			SEED.sources.notionReady.id,
		]);
		expect((await list({ query: 'DECK' })).data.map((s) => s.id)).toEqual([
			SEED.sources.uploadReady.id,
		]);
		expect((await list({ page_id: SEED.pages.published.id })).data.map((s) => s.id).sort()).toEqual(
			[SEED.sources.uploadReady.id, SEED.sources.urlReady.id].sort(),
		);
		expectError(
			await t.api.get('/knowledge-hub/sources', { params: { type: 'pdf' } }),
			400,
			'invalid_request',
			'invalid_value',
			'type',
		);
		expectError(
			await t.api.get('/knowledge-hub/sources', { params: { status: 'done' } }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
	});

	it('detail: include=content only for a ready source; unknown id 404', async () => {
		expect((await get(SEED.sources.uploadReady.id)).content).toBeUndefined();
		expect((await get(SEED.sources.uploadReady.id, { include: 'content' })).content).toEqual(
			expect.any(String),
		);
		expect((await get(SEED.sources.guruPending.id, { include: 'content' })).content).toBeNull();
		expectError(
			await t.api.get('/knowledge-hub/sources/00000000-0000-4000-8000-00000000000a'),
			404,
			'not_found',
			null,
			'00000000-0000-4000-8000-00000000000a',
		);
	});
});

describe('Knowledge Hub folders', () => {
	it('lists every folder by name with counts; parent_id and query filter', async () => {
		const all = expectOk(await t.api.get('/knowledge-hub/folders'), folderListSchema);
		const names = all.data.map((f) => f.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		const sales = all.data.find((f) => f.id === SEED.folders.sales.id);
		expect(sales).toMatchObject({ parent: null, subfolder_count: 1, item_count: 2 });
		const children = expectOk(
			await t.api.get('/knowledge-hub/folders', { params: { parent_id: SEED.folders.sales.id } }),
			folderListSchema,
		);
		expect(children.data.map((f) => f.id)).toEqual([SEED.folders.objections.id]);
		const q = expectOk(
			await t.api.get('/knowledge-hub/folders', { params: { query: 'board' } }),
			folderListSchema,
		);
		expect(q.data.map((f) => f.name)).toEqual(['Onboarding']);
	});

	it('item_count counts non-archived pages only', async () => {
		await t.api.delete(`/knowledge-hub/pages/${SEED.pages.publishedWithDraft.id}`);
		const sales = expectOk(
			await t.api.get(`/knowledge-hub/folders/${SEED.folders.sales.id}`),
			folderSchema,
		);
		expect(sales.item_count).toBe(1);
	});

	it('get by id; unknown id 404 naming it', async () => {
		expect(
			expectOk(
				await t.api.get(`/knowledge-hub/folders/${SEED.folders.objections.id}`),
				folderSchema,
			).parent,
		).toBe(SEED.folders.sales.id);
		expectError(
			await t.api.get('/knowledge-hub/folders/00000000-0000-4000-8000-00000000000b'),
			404,
			'not_found',
			null,
			'00000000-0000-4000-8000-00000000000b',
		);
	});
});

describe('archived sources and pages', () => {
	it('an archived source drops out of the pages it was attached to', async () => {
		await t.api.delete(`/knowledge-hub/sources/${SEED.sources.uploadReady.id}`);
		const page = await t.api.get(`/knowledge-hub/pages/${SEED.pages.published.id}`);
		expect(page.data.source_count).toBe(1);
		expect(page.data.sources.map((s: { id: string }) => s.id)).toEqual([SEED.sources.urlReady.id]);
	});
});

describe('UUID filters', () => {
	it.each([
		['/knowledge-hub/pages', 'folder_id'],
		['/knowledge-hub/pages', 'skill_id'],
		['/knowledge-hub/sources', 'folder_id'],
		['/knowledge-hub/sources', 'page_id'],
		['/knowledge-hub/folders', 'parent_id'],
	])('%s rejects a %s that is not a UUID', async (path, name) => {
		expectError(
			await t.api.get(path, { params: { [name]: 'sales' } }),
			400,
			'invalid_request',
			'invalid_value',
			name,
		);
	});
});
