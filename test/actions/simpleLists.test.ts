import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { useSimulator } from './support';

/** Lists with no filters: the same Get Many contract for each. */
const lists: Array<{
	title: string;
	resource: string;
	noun: string;
	path: string;
	seeded: Array<{ id: string }>;
}> = [
	{
		title: 'Collection',
		resource: 'collection',
		noun: 'collection',
		path: '/collections',
		seeded: Object.values(SEED.collections),
	},
	{
		title: 'Group',
		resource: 'group',
		noun: 'group',
		path: '/workspace/groups',
		seeded: Object.values(SEED.groups),
	},
	{
		title: 'Context',
		resource: 'context',
		noun: 'context',
		path: '/contexts',
		seeded: SEED.contexts,
	},
];

const sim = useSimulator();

describe.each(lists)('$title → Get Many', ({ resource, noun, path, seeded }) => {
	const run = async (parameters: INodeParameters, input?: IDataObject[]) =>
		await sim.run({ resource, operation: 'getAll', ...parameters }, { input });

	test(`default form: one page of 50, one item per ${noun}`, async () => {
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', path, { page: '1', page_size: '50' }],
		]);
		expect(items.map((item) => item.json.id).sort()).toEqual(seeded.map((row) => row.id).sort());
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Limit: asks for just that many', async () => {
		const { items } = await run({ limit: 1 });
		expect(sim.control.requests()[0].query).toEqual({ page: '1', page_size: '1' });
		expect(items).toHaveLength(1);
	});

	test('Return All: pages of 100; each input item gets its own list, paired to it', async () => {
		const { items } = await run({ returnAll: true }, [{}, {}]);
		expect(sim.control.requests().map((r) => r.query)).toEqual([
			{ page: '1', page_size: '100' },
			{ page: '1', page_size: '100' },
		]);
		expect(items).toHaveLength(seeded.length * 2);
		expect(items.filter((item) => (item.pairedItem as { item: number }).item === 1)).toHaveLength(
			seeded.length,
		);
	});
});
