import type { IDataObject } from 'n8n-workflow';

import { INSTANT_JOB_TIMINGS, SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { pages, folders, sources } = SEED;

const sim = useSimulator('knowledgeHubSource', { jobTimings: INSTANT_JOB_TIMINGS });
const { run } = sim;
const apiRequests = () => sim.control.requests({ path: '/knowledge-hub/*' });

describe('Knowledge Hub Source → Create From URL', () => {
	test('a new URL: type url, title and url in the body; 201 becomes is_new true', async () => {
		const { items, error } = await run({
			operation: 'createFromUrl',
			url: 'https://example.com/new-guide',
			title: 'New guide',
		});
		expect(error).toBeUndefined();
		const [request] = apiRequests();
		expect([request.method, request.path, request.status]).toEqual([
			'POST',
			'/knowledge-hub/sources',
			201,
		]);
		expect(request.body).toEqual({
			type: 'url',
			title: 'New guide',
			url: 'https://example.com/new-guide',
		});
		expect(json(items)[0]).toMatchObject({
			title: 'New guide',
			source_type: 'url',
			external_url: 'https://example.com/new-guide',
			is_new: true,
		});
	});

	test('cover and folders go in the body', async () => {
		const { items } = await run({
			operation: 'createFromUrl',
			url: 'https://example.com/with-folders',
			title: 'Filed',
			additionalFields: { cover: 'covers/a.png', folder_ids: [folders.sales.id, folders.files.id] },
			// The raw record: Simplify leaves the cover out.
			simplify: false,
		});
		expect(apiRequests()[0].body).toEqual({
			type: 'url',
			title: 'Filed',
			url: 'https://example.com/with-folders',
			cover: 'covers/a.png',
			folder_ids: [folders.sales.id, folders.files.id],
		});
		const [source] = json(items);
		expect(source.cover).toBe('covers/a.png');
		expect((source.folders as IDataObject[]).map((f) => f.id)).toEqual([
			folders.sales.id,
			folders.files.id,
		]);
	});

	test('a URL already in the workspace returns that source with is_new false (200)', async () => {
		const { items } = await run({
			operation: 'createFromUrl',
			url: sources.urlReady.url,
			title: 'Again',
		});
		expect(apiRequests()[0].status).toBe(200);
		expect(json(items)[0]).toMatchObject({
			id: sources.urlReady.id,
			title: sources.urlReady.name,
			is_new: false,
		});
	});

	test('a URL that is not http(s), an empty title or a bad folder ID fails before any request', async () => {
		const badUrl = await run({
			operation: 'createFromUrl',
			url: 'ftp://example.com/x',
			title: 'x',
		});
		expect(badUrl.error?.message).toBe(
			'URL: must be a web address starting with http:// or https://, got "ftp://example.com/x"',
		);
		// A blank title typed in the form is refused by n8n itself; one that is only spaces (or an empty
		// expression) reaches our check.
		const noTitle = await run({
			operation: 'createFromUrl',
			url: 'https://example.com/x',
			title: '={{ "  " }}',
		});
		expect(noTitle.error?.message).toBe('Title: is required and cannot be empty');
		const badFolder = await run({
			operation: 'createFromUrl',
			url: 'https://example.com/x',
			title: 'x',
			additionalFields: { folder_ids: 'sales' },
		});
		expect(badFolder.error?.message).toMatch(/Folders: must be a UUID/);
		expect(apiRequests()).toHaveLength(0);
	});

	test('Continue On Fail: one new, one duplicate, one invalid URL, each paired to its input', async () => {
		const { items, error } = await run(
			{ operation: 'createFromUrl', url: '={{ $json.url }}', title: '={{ $json.title }}' },
			{
				continueOnFail: true,
				input: [
					{ url: 'https://example.com/one', title: 'One' },
					{ url: sources.urlReady.url, title: 'Dup' },
					{ url: 'example.com/no-scheme', title: 'Bad' },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.is_new).toBe(true);
		expect(items[1].json).toMatchObject({ id: sources.urlReady.id, is_new: false });
		expect(items[2].json.error).toMatch(/^URL: must be a web address/);
		expect(apiRequests()).toHaveLength(2);
	});
});

describe('Knowledge Hub Source → Get Many', () => {
	test('default form: one page of 50, archived sources left out', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/knowledge-hub/sources', { page: '1', page_size: '50' }],
		]);
		const ids = json(items).map((source) => source.id);
		expect(ids).toHaveLength(8);
		expect(ids).not.toContain(sources.archivedUrl.id);
	});

	test('every filter goes on the wire under its API name', async () => {
		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: {
				type: 'url',
				status: 'ready',
				folder_id: rl(folders.sales.id),
				page_id: rl(pages.published.id, 'id'),
				query: 'pricing',
			},
		});
		expect(apiRequests()[0].query).toEqual({
			type: 'url',
			status: 'ready',
			folder_id: folders.sales.id,
			page_id: pages.published.id,
			query: 'pricing',
			page: '1',
			page_size: '100',
		});
		expect(json(items).map((source) => source.id)).toEqual([sources.urlReady.id]);
	});

	test('Limit 3 returns 3 items from one request', async () => {
		const { items } = await run({ operation: 'getAll', limit: 3 });
		expect(items).toHaveLength(3);
		expect(apiRequests().map((r) => r.query)).toEqual([{ page: '1', page_size: '3' }]);
	});

	test('a page filter that is not a UUID fails before any request', async () => {
		const { error } = await run({ operation: 'getAll', filters: { page_id: rl('pricing', 'id') } });
		expect(error?.message).toMatch(/^Attached to Page: must be a UUID/);
		expect(apiRequests()).toHaveLength(0);
	});
});

describe('Knowledge Hub Source → Get and Archive', () => {
	test('Get: default form has no content; Include Content adds it', async () => {
		const plain = await run({ operation: 'get', sourceId: rl(sources.uploadReady.id) });
		expect(json(plain.items)[0]).toMatchObject({
			id: sources.uploadReady.id,
			title: sources.uploadReady.name,
		});
		expect(json(plain.items)[0]).not.toHaveProperty('content');
		const full = await run({
			operation: 'get',
			sourceId: rl(sources.uploadReady.id),
			options: { includeContent: true },
		});
		expect(json(full.items)[0].content).toBe(
			`# ${sources.uploadReady.name}\n\nExtracted text of ${sources.uploadReady.name}.`,
		);
		expect(apiRequests().map((r) => r.query)).toEqual([{}, { include: 'content' }]);
	});

	test('Archive sends DELETE, outputs {id, deleted: true}, and the source is gone', async () => {
		const { items } = await run({
			operation: 'archive',
			sourceId: rl(sources.notionReady.id, 'id'),
		});
		expect(apiRequests()[0]).toMatchObject({
			method: 'DELETE',
			path: `/knowledge-hub/sources/${sources.notionReady.id}`,
		});
		expect(json(items)).toEqual([{ id: sources.notionReady.id, deleted: true }]);
		const again = await run({ operation: 'get', sourceId: rl(sources.notionReady.id) });
		expect(again.error?.message).toMatch(/Not found.*404/);
	});

	test('a source ID from an expression that is not a UUID fails before any request', async () => {
		const { error } = await run({ operation: 'archive', sourceId: rl('={{ "abc" }}', 'id') });
		expect(error?.message).toBe('Source ID: must be a UUID (8-4-4-4-12 hex digits), got "abc"');
		expect(apiRequests()).toHaveLength(0);
	});
});
