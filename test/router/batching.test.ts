import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../../n8n-harness/runNode';
import { startSimulator, type Clock, type RunningSimulator } from '../../simulator';
import { createParams } from '../jobs/jobTestKit';
import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

/** A folder ID that tells which item asked for it. */
const folderId = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
const itemOf = (path: string) => Number(path.slice(-12));

const getFolders = (count: number, batching?: INodeParameters) => ({
	parameters: {
		resource: 'knowledgeHubFolder',
		operation: 'get',
		folderId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		...(batching ? { batching } : {}),
	},
	credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
	input: Array.from({ length: count }, (_, index) => ({ id: folderId(index) })),
});

describe('items in parallel', () => {
	test('up to Items in Parallel at once (10 by default); output in input order, each paired to its input', async () => {
		// Earlier items answer later, so answers come back out of order.
		server.script((request) => ({
			status: 200,
			body: { id: request.path.split('/').pop(), name: 'f' },
			delayMs: 60 - itemOf(request.path) * 2,
		}));
		const { items, error } = await runNode(getFolders(25));
		expect(error).toBeUndefined();
		expect(server.maxInFlight).toBe(10);
		expect(items.map((item) => item.json.id)).toEqual(
			Array.from({ length: 25 }, (_, i) => folderId(i)),
		);
		expect(items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 25 }, (_, i) => ({ item: i })),
		);

		server.script(() => ({ status: 200, body: { id: 'x' }, delayMs: 20 }));
		await runNode(getFolders(12, { itemsInParallel: 3 }));
		expect(server.maxInFlight).toBe(3);
		expect(server.requests).toHaveLength(12);
	});

	test('Continue On Fail: a failing item becomes its error item in place', async () => {
		server.script((request) =>
			itemOf(request.path) === 4
				? { status: 404, body: { error: { type: 'not_found', message: 'gone' } } }
				: { status: 200, body: { id: request.path.split('/').pop() }, delayMs: 10 },
		);
		const { items, error } = await runNode({ ...getFolders(12), continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 12 }, (_, i) => ({ item: i })),
		);
		expect(items[4].json).toMatchObject({ httpCode: '404' });
		expect(items.filter((item) => 'error' in item.json)).toHaveLength(1);
	});

	test('without Continue On Fail the first failure in input order stops the node and no item starts after it', async () => {
		server.script((request) => {
			const item = itemOf(request.path);
			// Item 6 fails slowly, item 7 quickly: the error must still name item 6.
			if (item === 6 || item === 7) {
				return {
					status: 404,
					body: { error: { type: 'not_found', message: `gone ${item}` } },
					delayMs: item === 6 ? 80 : 0,
				};
			}
			return { status: 200, body: { id: 'x' }, delayMs: 40 };
		});
		const { error } = await runNode(getFolders(40));
		expect(error?.context.itemIndex).toBe(6);
		expect(error?.message).toMatch(/gone 6/);
		// Items 0–9 were in flight when item 7 failed; nothing started after that.
		expect(server.requests.length).toBeLessThanOrEqual(10);
	});

	test('a bad Batching setting fails naming the field and rule before any request', async () => {
		server.script(() => ({ status: 200, body: {} }));
		const { error } = await runNode(getFolders(2, { itemsInParallel: 0 }));
		expect(error?.message).toBe(
			'Batching → Items in Parallel: must be a whole number from 1 to 100, got "0"',
		);
		expect(server.requests).toHaveLength(0);
	});
});

/**
 * The pacing against the simulator's deployed limits. Minutes pass in a second: the node's Date.now
 * and timers, and the simulator's clock, all run SCALE times faster than the wall clock.
 */
describe('pacing to the service limits', () => {
	const SCALE = 60;
	let sim: RunningSimulator;
	let realSetTimeout: typeof setTimeout;

	beforeEach(async () => {
		const realNow = Date.now.bind(Date);
		const start = realNow();
		const scaledNow = () => start + (realNow() - start) * SCALE;
		jest.spyOn(Date, 'now').mockImplementation(scaledNow);
		realSetTimeout = globalThis.setTimeout;
		const scaled = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
			realSetTimeout(handler, (ms ?? 0) / SCALE, ...args);
		globalThis.setTimeout = scaled as unknown as typeof setTimeout;
		const clock: Clock = { now: scaledNow };
		sim = await startSimulator({
			clock,
			rateLimits: true,
			jobTimings: { queuedMs: 0, processingMs: 0 },
		});
	});
	afterEach(async () => {
		globalThis.setTimeout = realSetTimeout;
		jest.restoreAllMocks();
		await sim.close();
	});

	const rateLimited = () => sim.control.requests().filter((r) => r.status === 429);
	const workspaceGets = (count: number, batching?: INodeParameters) =>
		runNode({
			parameters: { resource: 'workspace', operation: 'get', ...(batching ? { batching } : {}) },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			input: Array.from({ length: count }, () => ({})),
		});

	test('150 items alone on their key: every one done, not one 429', async () => {
		const { items, error } = await workspaceGets(150);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(150);
		expect(sim.control.requests()).toHaveLength(150);
		expect(rateLimited()).toHaveLength(0);
	});

	test('two runs at once on one key share the minute: not one 429', async () => {
		const runs = await Promise.all([workspaceGets(70), workspaceGets(70)]);
		expect(runs.map((run) => run.items.length)).toEqual([70, 70]);
		expect(rateLimited()).toHaveLength(0);
	});

	test('25 job creations: paced to 10 a minute, not one 429', async () => {
		const { items, error } = await runNode({
			parameters: createParams({ control: sim.control } as RunningSimulator, {
				waitForCompletion: 'off',
				batching: {},
			}),
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			input: Array.from({ length: 25 }, () => ({})),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(25);
		expect(sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' })).toHaveLength(
			25,
		);
		expect(rateLimited()).toHaveLength(0);
	});

	test('with pacing off (Requests per Minute 0) the same run meets the limit', async () => {
		const { items } = await workspaceGets(200, { requestsPerMinute: 0, itemsInParallel: 100 });
		expect(items).toHaveLength(200);
		expect(rateLimited().length).toBeGreaterThan(0);
	});
});
