/**
 * Issue 49: a wrong Base URL answered in the user's words, naming the Base URL. n8n's own address
 * pasted (http://127.0.0.1:5678/rest/v1) answers a web page or n8n's own JSON, which used to read
 * "Not found: <!DOCTYPE html> … Check the ID"; a refused connection names the Base URL to check. The
 * credential test runs in n8n as a declarative request, whose texts for a status come from its rules
 * and, with no answer at all, from n8n (the bare network code: the Base URL's hint explains it).
 */
import { ScriptedServer, TEST_KEY } from '../support/scriptedServer';
import { testCredential } from '../../n8n-harness/credentialTest';
import { runNode } from '../../n8n-harness/runNode';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const N8N_PAGE =
	'<!DOCTYPE html><html lang="en"><head><title>n8n.io - Workflow Automation</title></head><body></body></html>';
const html = (status: number) => () => ({
	status,
	body: N8N_PAGE,
	headers: { 'content-type': 'text/html; charset=utf-8' },
});

/** Member → Get Many, a list call as the issue's. */
async function listMembers(baseUrl: string) {
	return await runNode({
		parameters: { resource: 'member', operation: 'getAll' },
		credentials: { baseUrl, apiKey: TEST_KEY },
	});
}

const SAYS_BASE_URL = (baseUrl: string, what: RegExp) =>
	new RegExp(
		`^The Base URL ${baseUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} answered with ${what.source} \\(HTTP \\d+\\), not the Workspace Practice API$`,
	);

describe('the nodes', () => {
	test.each([404, 200])(
		'a web page (HTTP %i): the Base URL is named, not "Not found … Check the ID"',
		async (status) => {
			server.script(html(status));
			const { error } = await listMembers(server.baseUrl);
			expect(error?.message).toMatch(SAYS_BASE_URL(server.baseUrl, /a web page \(HTML\)/));
			expect(error?.description).toMatch(
				/not n8n's own address \(such as http:\/\/localhost:5678\/rest\/v1\)/,
			);
			expect(error?.message).not.toMatch(/DOCTYPE|Check the ID/);
			// Not retried: the address is wrong, not the service briefly down.
			expect(server.requests).toHaveLength(1);
		},
	);

	test.each([
		[401, { status: 'error', message: 'Unauthorized' }],
		[404, { code: 404, message: 'The requested webhook "GET rest/v1/members" is not registered.' }],
	])("n8n's own JSON (HTTP %i) is not read as the service's answer", async (status, body) => {
		server.script(() => ({ status, body }));
		const { error } = await listMembers(server.baseUrl);
		expect(error?.message).toMatch(
			SAYS_BASE_URL(
				server.baseUrl,
				/JSON that is not the Workspace Practice API's \(it looks like n8n's own\)/,
			),
		);
		expect(error?.message).not.toMatch(/API key was not accepted/);
	});

	test("the service's own 404 still reads as the service's", async () => {
		server.script(() => ({
			status: 404,
			body: { error: { type: 'not_found', code: 'member_not_found', message: 'No such member' } },
		}));
		const { error } = await listMembers(server.baseUrl);
		expect(error?.message).toMatch(/^Not found: No such member/);
	});

	test('a refused connection names the Base URL to check', async () => {
		const baseUrl = 'http://127.0.0.1:9/rest/v1';
		const { error } = await listMembers(baseUrl);
		expect(error?.message).toBe('Could not reach 127.0.0.1:9 (connection refused)');
		expect(error?.description).toContain(
			`Check the Base URL (${baseUrl}) in the Workspace Practice API credential`,
		);
	});
});

describe('the credential test', () => {
	test("a web page or n8n's JSON at 404: the test names what answered and n8n's own address", async () => {
		server.script(html(404));
		const result = await testCredential({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Base URL answered with a web page \(HTML\) \(HTTP 404\)/);
		expect(result.message).toMatch(
			/n8n's own address \(such as http:\/\/localhost:5678\/rest\/v1\)/,
		);
	});

	test("n8n's 401 (its REST API wants a login): the rule says it may be n8n's address", async () => {
		server.script(() => ({ status: 401, body: { status: 'error', message: 'Unauthorized' } }));
		const result = await testCredential({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
		expect(result.message).toMatch(/n8n's own address/);
	});
});
