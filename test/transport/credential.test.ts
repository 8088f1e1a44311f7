import { cleanApiKey, checkApiKey, checkBaseUrl } from '../../nodes/shared/transport/apiKey';
import { WorkspacePracticeApi } from '../../credentials/WorkspacePracticeApi.credentials.js';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { testCredential } from '../../n8n-harness/credentialTest';
import { runNode } from '../../n8n-harness/runNode';
import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const workspace = { id: 'w1', name: 'Acme', url_slug: 'acme', created_at: '2026-01-01T00:00:00Z' };
const answerWorkspaceFor = (key: string) =>
	server.script((req) =>
		req.headers.authorization === `Bearer ${key}`
			? { status: 200, body: workspace }
			: {
					status: 401,
					body: {
						error: {
							type: 'authentication_error',
							code: 'invalid_api_key',
							message: 'API key invalid or inactive',
						},
					},
				},
	);

describe('API key as pasted', () => {
	test.each([
		['surrounding whitespace', `  ${TEST_KEY}\n`],
		['double quotes', `"${TEST_KEY}"`],
		['single quotes and spaces', ` '${TEST_KEY}' `],
		['a Bearer prefix', `Bearer ${TEST_KEY}`],
		['a quoted Bearer prefix', `"bearer  ${TEST_KEY}"`],
	])('with %s is cleaned by the credential and the transport alike', async (_label, pasted) => {
		expect(cleanApiKey(pasted)).toBe(TEST_KEY);
		answerWorkspaceFor(TEST_KEY);
		const { items, error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: server.baseUrl, apiKey: pasted },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(workspace);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);
	});

	test.each([
		['too short', 'svc_live_abc'],
		['uppercase prefix', `SVC_live_${'a'.repeat(40)}`],
		['no _live_', `svc_test_${'a'.repeat(40)}`],
		['a symbol in the body', `svc_live_${'a'.repeat(39)}!`],
		['empty', '   '],
	])('%s is refused before any request, showing the expected form', async (_label, key) => {
		answerWorkspaceFor(TEST_KEY);
		const { error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: server.baseUrl, apiKey: key },
		});
		expect(server.requests).toHaveLength(0);
		expect(error?.message).toMatch(/^Workspace Practice API credential: The API key/);
		expect(error?.message).toContain('"_live_" and 40 letters or digits');
		if (key.trim().length > 12) expect(error?.message).not.toContain(key.trim());
	});

	test('any lowercase <word>_live_ prefix is accepted (the deployed service uses another word)', () => {
		expect(checkApiKey(`exec_live_${'Z9'.repeat(20)}`)).toEqual({
			key: `exec_live_${'Z9'.repeat(20)}`,
		});
	});
});

describe('Base URL', () => {
	test('a trailing slash is tolerated', async () => {
		answerWorkspaceFor(TEST_KEY);
		const { error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: `${server.baseUrl}//`, apiKey: TEST_KEY },
		});
		expect(error).toBeUndefined();
		expect(server.requests[0].path).toBe('/workspace');
	});

	test('a base without /rest/v1 is refused before any request', async () => {
		answerWorkspaceFor(TEST_KEY);
		const { error } = await runNode({
			parameters: { resource: 'workspace', operation: 'get' },
			credentials: { baseUrl: server.baseUrl.replace('/rest/v1', ''), apiKey: TEST_KEY },
		});
		expect(server.requests).toHaveLength(0);
		expect(error?.message).toContain('must be the full base ending in /rest/v1');
	});
});

describe('credential test (as the n8n server runs it)', () => {
	test('passes against a service that accepts the key, calling GET /workspace', async () => {
		answerWorkspaceFor(TEST_KEY);
		const result = await testCredential({ baseUrl: `${server.baseUrl}/`, apiKey: ` ${TEST_KEY} ` });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/workspace']]);
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_KEY}`);
	});

	test('a well-formed key the service refuses: "not accepted by the service", not a format error', async () => {
		answerWorkspaceFor(TEST_KEY);
		const result = await testCredential({
			baseUrl: server.baseUrl,
			apiKey: `svc_live_${'0'.repeat(40)}`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The API key is well-formed but was not accepted by the service \(revoked, or from another workspace\)/,
		);
		expect(result.message).not.toMatch(/_live_|40 letters/);
		// n8n's routing repeats a request answered 401 once (its credential refresh); both read /workspace.
		expect(new Set(server.requests.map((r) => r.path))).toEqual(new Set(['/workspace']));
	});

	test.each([
		['too short', 'svc_live_abc'],
		['no _live_', `svc_test_${'a'.repeat(40)}`],
		['empty', '  '],
	])(
		'a malformed key (%s) is refused before any request, with the form expected',
		async (_label, key) => {
			answerWorkspaceFor(TEST_KEY);
			const result = await testCredential({ baseUrl: server.baseUrl, apiKey: key });
			expect(result.status).toBe('Error');
			// In the nodes' words (transport/apiKey.ts): the test is the nodes' method (testedBy).
			expect(result.message).toMatch(/^The API key (does not have the expected form|is empty)/);
			expect(result.message).toContain('"_live_" and 40 letters or digits');
			expect(result.message).toContain('No request was sent');
			expect(server.requests).toHaveLength(0);
		},
	);

	test('a Base URL without /rest/v1 is refused before any request, saying what it must be', async () => {
		answerWorkspaceFor(TEST_KEY);
		const result = await testCredential({
			baseUrl: server.baseUrl.replace('/rest/v1', '/api'),
			apiKey: TEST_KEY,
		});
		expect(result.message).toMatch(/^The Base URL must be the full base ending in \/rest\/v1/);
		expect(result.message).toContain('No request was sent');
		expect(server.requests).toHaveLength(0);
	});

	test('a Base URL where nothing answers the API (404) says what to check', async () => {
		server.script(() => ({ status: 404, body: 'Not Found' }));
		const result = await testCredential({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
		expect(result.message).toMatch(
			/^Nothing answers at this Base URL \(404\): check that it is the service's full base/,
		);
	});

	test('a dead URL: said as the nodes say it (could not reach, connection refused), not a bare ECONNREFUSED', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9/rest/v1',
			apiKey: TEST_KEY,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not reach 127\.0\.0\.1:9 \(connection refused\)\. Nothing was sent: .*Check the Base URL \(http:\/\/127\.0\.0\.1:9\/rest\/v1\) in the Workspace Practice API credential/,
		);
		expect(result.message).not.toMatch(/ECONNREFUSED/);
		const baseUrl = new WorkspacePracticeApi().properties.find((p) => p.name === 'baseUrl');
		expect(baseUrl?.description).not.toMatch(/ECONNREFUSED/);
		expect(baseUrl?.description).toMatch(/servers entry/);
		expect(baseUrl?.description).toMatch(/workspace admin/);
	});

	test('a mistyped host: "host name not found", not a bare ENOTFOUND', async () => {
		const result = await testCredential({
			baseUrl: 'http://api.exec.invalid/rest/v1',
			apiKey: TEST_KEY,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not reach api\.exec\.invalid \((host name not found|host name lookup failed)\)\. Nothing was sent/,
		);
		expect(result.message).not.toMatch(/ENOTFOUND|EAI_AGAIN/);
	});

	test('every node with the credential names the test (n8n looks for testedBy on the nodes), and has it', () => {
		for (const node of [
			new WorkspacePractice(),
			new WorkspacePracticeTrigger(),
			new WorkspacePracticeJobTrigger(),
		]) {
			const entry = node.description.credentials?.find((c) => c.name === 'workspacePracticeApi');
			expect(entry?.testedBy).toBe('workspacePracticeApiTest');
			expect(typeof node.methods.credentialTest?.workspacePracticeApiTest).toBe('function');
		}
		// The credential's own declarative test would win over testedBy (n8n's CredentialsTester).
		expect('test' in new WorkspacePracticeApi()).toBe(false);
	});

	test("the credential's key and Base URL rules agree with the nodes' own checks", async () => {
		const keys = [
			TEST_KEY,
			`exec_live_${'Z9'.repeat(20)}`,
			'svc_live_abc',
			`SVC_live_${'a'.repeat(40)}`,
			`svc_live_${'a'.repeat(39)}!`,
			`"Bearer ${TEST_KEY}"`,
			'',
		];
		for (const key of keys) {
			const node = 'key' in checkApiKey(key);
			const credential = await new WorkspacePracticeApi()
				.authenticate({ apiKey: key, baseUrl: 'https://api.exec.com/rest/v1' }, { url: '/' })
				.then(
					() => true,
					() => false,
				);
			expect([key, credential]).toEqual([key, node]);
		}
		for (const baseUrl of [
			'https://api.exec.com/rest/v1/',
			'https://api.exec.com/api',
			'nonsense',
		]) {
			const node = 'baseUrl' in checkBaseUrl(baseUrl);
			const credential = await new WorkspacePracticeApi()
				.authenticate({ apiKey: TEST_KEY, baseUrl }, { url: '/' })
				.then(
					() => true,
					() => false,
				);
			expect([baseUrl, credential]).toEqual([baseUrl, node]);
		}
	});
});
