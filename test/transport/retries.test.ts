import { ScriptedServer } from '../support/scriptedServer';
import type { Reply } from '../support/scriptedServer';
import { probe } from './probe';

/**
 * The pauses the transport asks n8n's `sleep` for, recorded (and still taken): the tests assert on what
 * was waited for, not on the wall clock, which a busy machine stretches.
 */
const pauses: number[] = [];
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow');
	return {
		...actual,
		sleep: async (ms: number) => {
			pauses.push(ms);
			await actual.sleep(ms);
		},
	};
});
beforeEach(() => {
	pauses.length = 0;
});
const waited = () => pauses.reduce((sum, ms) => sum + ms, 0);

const server = new ScriptedServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const ok = { status: 200, body: { ok: true } };
const failing = (status: number) => ({
	status,
	body: { error: { type: 'server_error', message: 'try later' } },
});

/** Fails the first `n` requests with `reply`, then answers 200. */
function failFirst(n: number, reply: Reply) {
	server.script(() => (server.requests.length <= n ? reply : ok));
}

describe('429: waits as the service asks, then retries', () => {
	test('retry_after in the body is honoured', async () => {
		failFirst(1, {
			status: 429,
			body: { error: { type: 'rate_limited', message: 'slow down' }, retry_after: 1 },
		});
		const { items, error } = await probe(server.baseUrl, {});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ status: 200, body: { ok: true } });
		expect(server.requests).toHaveLength(2);
		expect(waited()).toBeGreaterThanOrEqual(1000);
	});

	test('retry_after inside the error envelope is honoured', async () => {
		failFirst(1, {
			status: 429,
			body: { error: { type: 'rate_limited', message: 'slow down', retry_after: 1 } },
		});
		const { error } = await probe(server.baseUrl, {});
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
		expect(waited()).toBeGreaterThanOrEqual(1000);
	});

	test('the Retry-After header is honoured when the body has no retry_after', async () => {
		failFirst(1, {
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { error: { type: 'rate_limited', message: 'slow down' } },
		});
		const { error } = await probe(server.baseUrl, {});
		expect(error).toBeUndefined();
		expect(waited()).toBeGreaterThanOrEqual(1000);
		expect(server.requests.map((r) => r.inFlight)).toEqual([1, 1]);
	});

	test('a wait beyond the cap is a clear rate-limit error at once', async () => {
		server.script(() => ({
			status: 429,
			body: { error: { type: 'rate_limited', message: 'daily quota used' }, retry_after: 36000 },
		}));
		const { error } = await probe(server.baseUrl, {
			method: 'POST',
			path: '/scenario-studio/jobs',
			body: '{}',
		});
		// Not waited out: no pause near the 10 hours asked for.
		expect(pauses.every((ms) => ms < 60_000)).toBe(true);
		expect(server.requests).toHaveLength(1);
		expect(error?.message).toMatch(/^Rate limit reached \[429 rate_limited\]/);
		expect(error?.description).toContain('message: daily quota used');
		expect(error?.description).toContain('asked to wait 36000 s');
	});

	test('429 on a plain write is waited out too (the service did not act on it)', async () => {
		failFirst(1, {
			status: 429,
			body: { error: { type: 'rate_limited', message: 'slow down' }, retry_after: 0.2 },
		});
		const { error } = await probe(server.baseUrl, {
			method: 'POST',
			path: '/scenarios/s1/access',
			body: '{"user_email":"a@b.co"}',
		});
		expect(error).toBeUndefined();
		expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
	});
});

describe('5xx and network failures: retried only when repeating is safe', () => {
	test.each([500, 502, 503])(
		'GET after %i is retried with backoff and succeeds',
		async (status) => {
			failFirst(2, failing(status));
			const { error, items } = await probe(server.baseUrl, {});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(server.requests).toHaveLength(3);
			// Backoff: at least half of 250 ms, then half of 500 ms.
			expect(waited()).toBeGreaterThanOrEqual(375);
		},
	);

	test('GET gives up after four attempts with the last error', async () => {
		server.script(() => failing(503));
		const { error } = await probe(server.baseUrl, {});
		expect(server.requests).toHaveLength(4);
		expect(error?.message).toMatch(/The service failed \(503\)/);
		expect(error?.description).toContain('HTTP 503');
	});

	test('DELETE is retried', async () => {
		failFirst(1, failing(500));
		const { error } = await probe(server.baseUrl, {
			method: 'DELETE',
			path: '/knowledge-hub/sources/x',
		});
		expect(error).toBeUndefined();
		expect(server.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
	});

	test('a plain POST is never retried after a 500', async () => {
		server.script(() => failing(500));
		const { error } = await probe(server.baseUrl, {
			method: 'POST',
			path: '/scenarios/s1/access',
			body: '{"a":1}',
		});
		expect(server.requests).toHaveLength(1);
		expect(error?.message).toMatch(/500/);
	});

	test('a PATCH is never retried after a dropped connection', async () => {
		server.script(() => ({ drop: true }));
		const { error } = await probe(server.baseUrl, {
			method: 'PATCH',
			path: '/knowledge-hub/pages/p',
			body: '{"title":"x"}',
		});
		expect(server.requests).toHaveLength(1);
		// It went out: the answer was lost, not the connection refused.
		expect(error?.message).toMatch(/^No answer from 127\.0\.0\.1:\d+ \(/);
		expect(error?.description).toMatch(/the change may have been made/);
	});

	test('job creation carrying a request_id is retried after a dropped connection', async () => {
		failFirst(1, { drop: true });
		const { error, items } = await probe(server.baseUrl, {
			method: 'POST',
			path: '/scenario-studio/jobs',
			body: '{"user_email":"a@b.co","prompt":"p","request_id":"r1"}',
			idempotent: 'true',
		});
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1].body).toEqual(server.requests[0].body);
		expect(items[0].json.status).toBe(200);
	});

	test('a GET is retried after a dropped connection', async () => {
		failFirst(1, { drop: true });
		const { error } = await probe(server.baseUrl, {});
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
	});
});
