import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../engine/runNode';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const run = async (parameters: INodeParameters, input?: IDataObject[]) =>
	await runNode({
		parameters: { resource: 'context', operation: 'getAll', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		input,
	});

const seeded = SEED.contexts;

describe('Context → Get Many', () => {
	test('default form: one page of 50, one item per context', async () => {
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(sim.control.requests().map((r) => [r.method, r.path, r.query])).toEqual([
			['GET', '/contexts', { page: '1', page_size: '50' }],
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
		expect(items.filter((item) => (item.pairedItem as { item: number }).item === 1)).toHaveLength(seeded.length);
	});
});
