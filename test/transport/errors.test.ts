import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';
import { probe, visibleText } from './probe';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const envelope = (type: string, code: string | undefined, message: string) => ({
	error: { type, ...(code ? { code } : {}), message },
});

describe('service errors become NodeApiErrors with status, type, code and message', () => {
	test('401 says the service did not accept the key, and why it may not', async () => {
		server.script(() => ({
			status: 401,
			body: envelope('authentication_error', 'invalid_api_key', 'API key invalid or inactive'),
		}));
		const { error } = await probe(server.baseUrl, {});
		expect(error?.message).toMatch(
			/^The API key was not accepted by the service \(revoked, or from another workspace\)/,
		);
		expect(error?.message).toContain('401');
		expect(error?.description).toMatch(
			/^HTTP 401 · type: authentication_error · code: invalid_api_key · message: API key invalid or inactive\. Check the API key in the Workspace Practice API credential/,
		);
		expect(server.requests).toHaveLength(1);
	});

	test('403 workspace_inactive is explained', async () => {
		server.script(() => ({
			status: 403,
			body: envelope('permission_error', 'workspace_inactive', 'Workspace is not active'),
		}));
		const { error } = await probe(server.baseUrl, {});
		expect(error?.message).toMatch(/workspace is inactive/i);
		expect(error?.message).toContain('workspace_inactive');
		expect(error?.description).toContain('message: Workspace is not active');
	});

	test('404 names what was not found', async () => {
		server.script(() => ({
			status: 404,
			body: envelope('not_found', 'job_not_found', 'Job job_123 not found'),
		}));
		const { error } = await probe(server.baseUrl, { path: '/scenario-studio/jobs/job_123' });
		expect(error?.message).toMatch(/^Not found: Job job_123 not found/);
		expect(error?.description).toContain('code: job_not_found');
	});

	test('400 keeps the service message and a missing code shows as (none)', async () => {
		server.script(() => ({
			status: 400,
			body: envelope('invalid_request', undefined, 'prompt is required'),
		}));
		const { error } = await probe(server.baseUrl, {
			method: 'POST',
			path: '/scenario-studio/jobs',
			body: '{}',
		});
		expect(error?.message).toMatch(/^Prompt \(prompt\) is required \[400 invalid_request\]/);
		expect(error?.description).toContain('code: (none)');
	});

	test('a refused connection names the host that could not be reached', async () => {
		const closed = new ScriptedServer();
		await closed.start();
		const url = closed.baseUrl;
		await closed.stop();
		const host = new URL(url).host;
		const { error } = await probe(url, {});
		expect(error?.message).toBe(`Could not reach ${host} (connection refused)`);
	});

	test('the API key never appears in errors, items or run data', async () => {
		server.script(() => ({
			status: 401,
			body: envelope('authentication_error', 'invalid_api_key', 'API key invalid or inactive'),
		}));
		const failed = await probe(server.baseUrl, {});
		expect(failed.error).toBeDefined();
		expect(visibleText(failed)).not.toContain(TEST_KEY);
		expect(visibleText(failed)).not.toContain(TEST_KEY.slice(9, 30));

		server.script(() => ({ status: 500, body: envelope('server_error', undefined, 'boom') }));
		const crashed = await probe(server.baseUrl, { method: 'POST', path: '/x', body: '{"a":1}' });
		expect(crashed.error).toBeDefined();
		expect(visibleText(crashed)).not.toContain(TEST_KEY.slice(9, 30));
		// The key did travel, in the header only.
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);
	});
});
