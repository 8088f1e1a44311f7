import { listPage, ScriptedServer } from '../support/scriptedServer';
import { probe } from './probe';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

/** A list endpoint of `total` rows; later pages answer faster, so completion order differs from page order. */
function serveList(total: number) {
	server.script((req) => {
		const page = Number(req.query.page ?? 1);
		const pageSize = Number(req.query.page_size ?? 50);
		return {
			status: 200,
			body: listPage(page, pageSize, total),
			delayMs: Math.max(5, 60 - page * 5),
		};
	});
}

const ids = (items: Array<{ json: Record<string, unknown> }>) => items.map((item) => item.json.id);
const expectedIds = (count: number) => Array.from({ length: count }, (_, i) => `row-${i + 1}`);

describe('Return All', () => {
	test('asks page_size 100, reads every page once, keeps server order, at most 4 in flight', async () => {
		serveList(1234);
		const { items, error } = await probe(server.baseUrl, {
			list: true,
			returnAll: true,
			path: '/scenarios',
		});
		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(expectedIds(1234));
		expect(server.requests).toHaveLength(13);
		expect(server.requests.every((r) => r.query.page_size === '100')).toBe(true);
		expect(server.requests.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 13 }, (_, i) => i + 1),
		);
		// Page 1 alone first (it tells how many pages exist), then up to 4 at once.
		expect(server.requests[0].query.page).toBe('1');
		expect(server.requests[0].inFlight).toBe(1);
		expect(server.maxInFlight).toBe(4);
	});

	test('one page is one request', async () => {
		serveList(30);
		const { items } = await probe(server.baseUrl, {
			list: true,
			returnAll: true,
			path: '/scenarios',
		});
		expect(items).toHaveLength(30);
		expect(server.requests).toHaveLength(1);
	});

	test('an empty list is one request and no items', async () => {
		serveList(0);
		const { items, error } = await probe(server.baseUrl, {
			list: true,
			returnAll: true,
			path: '/scenarios',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(0);
		expect(server.requests).toHaveLength(1);
	});
});

describe('Limit', () => {
	test('Limit 30 asks page_size 30 once', async () => {
		serveList(500);
		const { items } = await probe(server.baseUrl, {
			list: true,
			returnAll: false,
			limit: 30,
			path: '/scenarios',
		});
		expect(ids(items)).toEqual(expectedIds(30));
		expect(server.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '30' }]);
	});

	test('Limit 120 takes two pages of 100 and stops', async () => {
		serveList(10_000);
		const { items } = await probe(server.baseUrl, {
			list: true,
			returnAll: false,
			limit: 120,
			path: '/scenarios',
		});
		expect(ids(items)).toEqual(expectedIds(120));
		expect(server.requests.map((r) => r.query)).toEqual([
			{ page: '1', page_size: '100' },
			{ page: '2', page_size: '100' },
		]);
	});

	test('a limit above the total reads only the pages that exist', async () => {
		serveList(150);
		const { items } = await probe(server.baseUrl, {
			list: true,
			returnAll: false,
			limit: 1000,
			path: '/scenarios',
		});
		expect(items).toHaveLength(150);
		expect(server.requests).toHaveLength(2);
	});
});

test('a failing page fails the whole list with the service error', async () => {
	server.script((req) =>
		req.query.page === '3'
			? {
					status: 400,
					body: {
						error: { type: 'invalid_request', code: 'invalid_pagination', message: 'page too far' },
					},
				}
			: { status: 200, body: listPage(Number(req.query.page), 100, 500) },
	);
	const { error } = await probe(server.baseUrl, {
		list: true,
		returnAll: true,
		path: '/scenarios',
	});
	expect(error?.message).toContain('invalid_pagination');
});
