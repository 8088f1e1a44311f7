import { runNode } from '../engine/runNode';
import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

test('Workspace → Get goes through the engine with the bearer key', async () => {
	server.script(() => ({ status: 200, body: { id: 'w1', name: 'Acme', url_slug: 'acme', created_at: '2026-01-01T00:00:00Z' } }));
	const { items, error } = await runNode({
		parameters: { resource: 'workspace', operation: 'get' },
		credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
	});
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json)).toEqual([{ id: 'w1', name: 'Acme', url_slug: 'acme', created_at: '2026-01-01T00:00:00Z' }]);
	expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);
});
