import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

describe('Workspace → Get', () => {
	test('one GET /workspace per input item, each output paired to its item', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			input: [{ a: 1 }, { a: 2 }],
		});
		expect(error).toBeUndefined();
		const requests = sim.control.requests();
		expect(requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
			['GET', '/workspace', {}, undefined],
			['GET', '/workspace', {}, undefined],
		]);
		expect(requests[0].headers.authorization).toBe(`Bearer ${sim.apiKey}`);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json).toEqual({
			id: SEED.workspace.id,
			name: SEED.workspace.name,
			url_slug: SEED.workspace.url_slug,
			created_at: '2024-01-15T10:30:00.000Z',
		});
	});

	test('an inactive workspace: the 403 becomes an error item with Continue On Fail', async () => {
		sim.control.setWorkspaceActive(false);
		const { items, error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			httpCode: '403',
			error: expect.stringMatching(/workspace is inactive/),
		});
	});
});
