import { SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { folders } = SEED;

const sim = useSimulator('knowledgeHubFolder');
const { run } = sim;
const apiRequests = () => sim.control.requests({ path: '/knowledge-hub/*' });

describe('Knowledge Hub Folder → Get Many', () => {
	test('default form: every folder, nested ones included, one page of 50', async () => {
		const { items, error } = await run({ operation: 'getAll' });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/knowledge-hub/folders', { page: '1', page_size: '50' }],
		]);
		expect(
			json(items)
				.map((folder) => folder.id)
				.sort(),
		).toEqual(
			Object.values(folders)
				.map((f) => f.id)
				.sort(),
		);
	});

	test('Parent Folder and Search go on the wire as parent_id and query', async () => {
		const { items } = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { parent_id: rl(folders.sales.id), query: 'object' },
		});
		expect(apiRequests()[0].query).toEqual({
			parent_id: folders.sales.id,
			query: 'object',
			page: '1',
			page_size: '100',
		});
		expect(json(items)).toEqual([
			expect.objectContaining({ id: folders.objections.id, parent: folders.sales.id }),
		]);
	});

	test('Limit 2 returns 2 folders', async () => {
		const { items } = await run({ operation: 'getAll', limit: 2 });
		expect(items).toHaveLength(2);
		expect(apiRequests()[0].query).toEqual({ page: '1', page_size: '2' });
	});

	test('a parent that is not a UUID fails before any request', async () => {
		const { error } = await run({ operation: 'getAll', filters: { parent_id: rl('Sales', 'id') } });
		expect(error?.message).toBe(
			'Parent Folder: must be a UUID (8-4-4-4-12 hex digits), got "Sales"',
		);
		expect(apiRequests()).toHaveLength(0);
	});
});

describe('Knowledge Hub Folder → Get', () => {
	test('default form: one folder by its ID', async () => {
		const { items, error } = await run({ operation: 'get', folderId: rl(folders.objections.id) });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path])).toEqual([
			['GET', `/knowledge-hub/folders/${folders.objections.id}`],
		]);
		expect(json(items)).toEqual([
			expect.objectContaining({
				id: folders.objections.id,
				name: 'Objections',
				parent: folders.sales.id,
			}),
		]);
	});

	test('Continue On Fail: a bad ID and an unknown folder become error items next to a good one', async () => {
		const { items, error } = await run(
			{ operation: 'get', folderId: rl('={{ $json.id }}', 'id') },
			{
				continueOnFail: true,
				input: [
					{ id: 'nope' },
					{ id: folders.files.id },
					{ id: '11111111-1111-4111-8111-111111111111' },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.error).toMatch(/^Folder ID: must be a UUID/);
		expect(items[1].json.id).toBe(folders.files.id);
		expect(items[2].json).toMatchObject({ httpCode: '404' });
		expect(apiRequests()).toHaveLength(2);
	});

	test('without Continue On Fail the first bad item stops the run', async () => {
		const { error } = await run(
			{ operation: 'get', folderId: rl('={{ $json.id }}', 'id') },
			{ input: [{ id: folders.files.id }, { id: 'nope' }] },
		);
		expect(error?.message).toMatch(/^Folder ID: must be a UUID/);
		expect(error?.description).toMatch(/Item 1:/);
	});
});
