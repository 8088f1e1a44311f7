import { LoggerProxy } from 'n8n-workflow';

import { runNode } from '../../n8n-harness/runNode';
import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const workspace = { id: 'w1', name: 'Acme', url_slug: 'acme', created_at: '2026-01-01T00:00:00Z' };
const notFound = { status: 404, body: { error: { type: 'not_found', message: 'Workspace gone' } } };

test('one request per input item, each output paired to its input', async () => {
	server.script(() => ({ status: 200, body: workspace }));
	const { items } = await runNode({
		parameters: { resource: 'workspace', operation: 'get' },
		credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
		input: [{ a: 1 }, { a: 2 }, { a: 3 }],
	});
	expect(server.requests).toHaveLength(3);
	expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
});

test('Continue On Fail: the failing item becomes an error item, the others go on', async () => {
	server.script(() => (server.requests.length === 2 ? notFound : { status: 200, body: workspace }));
	const { items, error } = await runNode({
		parameters: { resource: 'workspace', operation: 'get' },
		credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
		input: [{ a: 1 }, { a: 2 }, { a: 3 }],
		continueOnFail: true,
	});
	expect(error).toBeUndefined();
	expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(items[0].json).toEqual(workspace);
	expect(items[1].json).toMatchObject({
		error: 'Not found: Workspace gone [404 not_found]',
		httpCode: '404',
	});
	expect(items[1].json.description).toContain('HTTP 404');
	expect(items[2].json).toEqual(workspace);
});

test('without Continue On Fail the run stops at the failing item and says which (one item at a time)', async () => {
	server.script(() => (server.requests.length === 2 ? notFound : { status: 200, body: workspace }));
	const { error } = await runNode({
		parameters: { resource: 'workspace', operation: 'get', batching: { itemsInParallel: 1 } },
		credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
		input: [{ a: 1 }, { a: 2 }, { a: 3 }],
	});
	expect(server.requests).toHaveLength(2);
	expect(error?.context.itemIndex).toBe(1);
});

test('nothing n8n logs while running carries the API key', async () => {
	const lines: string[] = [];
	const capture = (level: string) => (message: string, meta?: object) =>
		lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`);
	LoggerProxy.init({
		error: capture('error'),
		warn: capture('warn'),
		info: capture('info'),
		debug: capture('debug'),
	} as never);
	try {
		server.script(() =>
			server.requests.length === 1 ? notFound : { status: 200, body: workspace },
		);
		await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: server.baseUrl, apiKey: TEST_KEY },
			input: [{}, {}],
		});
	} finally {
		LoggerProxy.init({ error() {}, warn() {}, info() {}, debug() {} } as never);
	}
	expect(lines.length).toBeGreaterThan(0);
	expect(lines.join('\n')).not.toContain(TEST_KEY.slice(9));
});
