import type { IDataObject } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const run = async (parameters: IDataObject) =>
	await runNode({
		parameters: { resource: 'member', operation: 'getAll', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});

const emails = (items: Array<{ json: IDataObject }>) =>
	items.map((item) => (item.json.user as IDataObject).email);
const memberRequests = () => sim.control.requests({ path: '/workspace/members' });

describe('Member → Get Many', () => {
	test('default form: one page of 50, one item per member in the API order', async () => {
		const { items, error } = await run({});
		expect(error).toBeUndefined();
		expect(memberRequests().map((r) => r.query)).toEqual([{ page: '1', page_size: '50' }]);
		expect(emails(items)).toEqual(SEED.members.map((m) => m.email));
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Groups filter sends group_ids comma-joined', async () => {
		const { items } = await run({
			returnAll: true,
			filters: { group_ids: [SEED.groups.customerSuccess.id, SEED.groups.leadership.id] },
		});
		expect(memberRequests()[0].query).toEqual({
			group_ids: `${SEED.groups.customerSuccess.id},${SEED.groups.leadership.id}`,
			page: '1',
			page_size: '100',
		});
		expect(emails(items).sort()).toEqual([
			'bob@acme.com',
			'erin@acme.com',
			'frank@acme.com',
			'gina@acme.com',
			'jane@acme.com',
		]);
	});

	test('Limit 3 returns the first three members', async () => {
		const { items } = await run({ limit: 3 });
		expect(emails(items)).toEqual(SEED.members.slice(0, 3).map((m) => m.email));
		expect(memberRequests()[0].query).toEqual({ page: '1', page_size: '3' });
	});
});

describe('Member → Get Many in a large workspace', () => {
	let big: RunningSimulator;
	beforeAll(async () => {
		big = await startSimulator({ clock: new ManualClock(), dataSize: { members: 250 } });
	});
	afterAll(async () => await big.close());

	const runBig = async (parameters: IDataObject) =>
		await runNode({
			parameters: { resource: 'member', operation: 'getAll', ...parameters },
			credentials: { baseUrl: big.baseUrl, apiKey: big.apiKey },
		});

	test('Return All pages through all 258 members, each once', async () => {
		const { items } = await runBig({ returnAll: true });
		expect(items).toHaveLength(258);
		expect(new Set(emails(items)).size).toBe(258);
		const pages = big.control.requests({ path: '/workspace/members' }).map((r) => r.query.page);
		expect(pages.sort()).toEqual(['1', '2', '3']);
	});

	test('Limit 150 reads two pages of 100 and stops at 150', async () => {
		big.control.clearRequests();
		const { items } = await runBig({ limit: 150 });
		expect(items).toHaveLength(150);
		const queries = big.control.requests({ path: '/workspace/members' }).map((r) => r.query);
		expect(queries.map((q) => [q.page, q.page_size]).sort()).toEqual([
			['1', '100'],
			['2', '100'],
		]);
	});
});
