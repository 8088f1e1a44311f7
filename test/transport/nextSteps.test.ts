/**
 * Every error says what to do next, after HTTP status, type, code and message; a request that got no
 * answer says whether it went out, and a lost answer to a write says the write may have happened.
 */
import { ScriptedServer } from '../support/scriptedServer';
import { probe } from './probe';

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const envelope = (type: string, code: string, message: string) => ({
	error: { type, code, message },
});

// A POST is not retried, so each case is one request.
const post = { method: 'POST', path: '/scenarios/s1/access', body: '{"a":1}' };

describe('each status family ends with what to do next, keeping the facts', () => {
	test.each([
		[400, 'invalid_request', 'invalid_field', /Fix the field the message names/],
		[422, 'invalid_request', 'invalid_field', /Fix the field the message names/],
		[401, 'authentication_error', 'invalid_api_key', /Check the API key in the Workspace/],
		[403, 'permission_error', 'forbidden', /Ask a workspace admin for access/],
		[403, 'permission_error', 'workspace_inactive', /Ask a workspace admin to reactivate/],
		[404, 'not_found', 'scenario_not_found', /Check the ID, or pick the object from the list/],
		[409, 'conflict', 'already_granted', /read it again .* on its current state/],
		[500, 'server_error', 'boom', /try again in a few minutes/],
		[503, 'service_unavailable', 'down', /try again in a few minutes/],
	])('%i %s/%s', async (status, type, code, next) => {
		server.script(() => ({ status, body: envelope(type, code, 'What the service says') }));
		const { error } = await probe(server.baseUrl, post);
		const facts = `HTTP ${status} · type: ${type} · code: ${code} · message: What the service says. `;
		expect(error?.description?.startsWith(facts)).toBe(true);
		expect(error?.description?.slice(facts.length)).toMatch(next);
		expect(server.requests).toHaveLength(1);
	});

	test('429 for the day: when the day turns, and how to spend less', async () => {
		server.script(() => ({
			status: 429,
			body: { ...envelope('rate_limit_error', 'daily_limit', 'Daily limit'), retry_after: 3600 },
		}));
		const { error } = await probe(server.baseUrl, post);
		expect(error?.description).toMatch(
			/^HTTP 429 · type: rate_limit_error · code: daily_limit · message: Daily limit\. The service asked to wait 3600 s: .* takes requests again at \d{4}-\d\d-\d\dT[\d:.]+Z \(in 1 h 0 min\)\..* To spend less, see the README's limits section.*\.$/,
		);
	});
});

describe('no answer: sent or not, read or write', () => {
	test('a refused connection: nothing was sent, check the Base URL', async () => {
		const closed = new ScriptedServer();
		await closed.start();
		const url = closed.baseUrl;
		await closed.stop();
		const { error } = await probe(url, post);
		expect(error?.message).toBe(`Could not reach ${new URL(url).host} (connection refused)`);
		expect(error?.description).toMatch(/^Nothing was sent: .* Check the Base URL/);
	});

	test('a write whose answer is lost: it may have happened, check before running again', async () => {
		server.script(() => ({ drop: true }));
		const { error } = await probe(server.baseUrl, post);
		expect(server.requests).toHaveLength(1);
		expect(error?.message).toMatch(/^No answer from 127\.0\.0\.1:\d+ \(/);
		expect(error?.description).toMatch(/the change may have been made on the service/);
		expect(error?.description).toMatch(/Check before running the node again/);
		expect(error?.description).not.toMatch(/Base URL/);
	});

	test('a read whose answers are all lost: nothing changed, run it again', async () => {
		server.script(() => ({ drop: true }));
		const { error } = await probe(server.baseUrl, { method: 'GET', path: '/workspace' });
		expect(server.requests).toHaveLength(4);
		expect(error?.message).toMatch(/^No answer from /);
		expect(error?.description).toMatch(/a read changes nothing, so run the node again/);
	});
});
