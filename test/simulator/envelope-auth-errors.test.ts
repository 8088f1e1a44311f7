/** Spec 4.0 (list envelope, pagination), 5 (authentication) and 7 (error envelope). */
import axios from 'axios';
import { DEFAULT_API_KEY, SEED } from '../../simulator';
import {
	errorEnvelopeSchema,
	groupListSchema,
	memberListSchema,
	scenarioListSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());

describe('spec 4.0: list envelope and pagination', () => {
	it('defaults to page 1 and page_size 50 with integer pagination fields', async () => {
		const body = expectOk(await t.api.get('/workspace/members'), memberListSchema);
		expect(body.pagination).toEqual({
			page: 1,
			page_size: 50,
			total_count: SEED.members.length,
			total_pages: 1,
		});
		expect(body.data).toHaveLength(SEED.members.length);
	});

	it('slices pages and computes total_pages = ceil(total / page_size)', async () => {
		const p1 = expectOk(
			await t.api.get('/workspace/members', { params: { page: 1, page_size: 3 } }),
			memberListSchema,
		);
		const p3 = expectOk(
			await t.api.get('/workspace/members', { params: { page: 3, page_size: 3 } }),
			memberListSchema,
		);
		expect(p1.pagination.total_pages).toBe(Math.ceil(SEED.members.length / 3));
		expect(p1.data.map((m) => m.user.email)).toEqual(SEED.members.slice(0, 3).map((m) => m.email));
		expect(p3.data.map((m) => m.user.email)).toEqual(SEED.members.slice(6, 9).map((m) => m.email));
	});

	it('a page past the end is empty but keeps the totals', async () => {
		const body = expectOk(
			await t.api.get('/workspace/groups', { params: { page: 9 } }),
			groupListSchema,
		);
		expect(body.data).toEqual([]);
		expect(body.pagination).toMatchObject({ page: 9, total_count: 3, total_pages: 1 });
	});

	it('no rows gives total_count 0 and total_pages 0', async () => {
		const body = expectOk(
			await t.api.get('/scenarios', { params: { owner_email: 'nobody@acme.com' } }),
			scenarioListSchema,
		);
		expect(body.pagination).toEqual({ page: 1, page_size: 50, total_count: 0, total_pages: 0 });
	});

	it('accepts the bounds page_size=1 and page_size=100', async () => {
		expect(
			(await t.api.get('/workspace/groups', { params: { page_size: 1 } })).data.data,
		).toHaveLength(1);
		expect((await t.api.get('/workspace/groups', { params: { page_size: 100 } })).status).toBe(200);
	});

	it.each([
		['page', '0'],
		['page', '-1'],
		['page', 'abc'],
		['page', '1.5'],
		['page_size', '0'],
		['page_size', '101'],
		['page_size', 'abc'],
		['page_size', '1.5'],
		['page_size', ''],
	])(
		'%s=%s gives 400 invalid_request invalid_pagination naming the parameter',
		async (name, value) => {
			const res = await t.api.get(`/scenarios?${name}=${encodeURIComponent(value)}`);
			expectError(res, 400, 'invalid_request', 'invalid_pagination', name);
		},
	);

	it.each([
		'/scenarios',
		'/scenarios/assignments',
		'/sessions',
		'/skills',
		'/collections',
		'/workspace/members',
		'/workspace/groups',
		'/contexts',
		'/knowledge-hub/folders',
		'/knowledge-hub/pages',
		'/knowledge-hub/sources',
	])('%s validates pagination', async (path) => {
		expectError(
			await t.api.get(path, { params: { page_size: 101 } }),
			400,
			'invalid_request',
			'invalid_pagination',
		);
	});
});

describe('spec 5: authentication', () => {
	const bare = () => axios.create({ baseURL: t.sim.baseUrl, validateStatus: () => true });

	it('the default key has the svc_live_ + 40 alphanumerics form', () => {
		expect(DEFAULT_API_KEY).toMatch(/^svc_live_[A-Za-z0-9]{40}$/);
	});

	it('accepts exactly the configured key with the Bearer prefix', async () => {
		expect((await t.api.get('/workspace')).status).toBe(200);
	});

	it.each([
		['missing header', undefined],
		['wrong key', `Bearer svc_live_${'x'.repeat(40)}`],
		['key without Bearer', DEFAULT_API_KEY],
		['lower-case bearer without space', `Bearer${DEFAULT_API_KEY}`],
		['key with a trailing character', `Bearer ${DEFAULT_API_KEY}x`],
		['OpenAPI prefix', `Bearer exec_live_${'a'.repeat(40)}`],
	])('%s gives 401 authentication_error invalid_api_key', async (_label, header) => {
		const res = await bare().get('/workspace', {
			headers: header ? { Authorization: header } : {},
		});
		const err = expectError(res, 401, 'authentication_error', 'invalid_api_key');
		expect(err.message.toLowerCase()).toMatch(/invalid|inactive/);
	});

	it('checks the key on every operation, including writes', async () => {
		const res = await bare().post('/scenario-studio/jobs', {
			user_email: SEED.apiUser.email,
			prompt: 'x',
		});
		expectError(res, 401, 'authentication_error', 'invalid_api_key');
		expect(t.control.store.jobs.size).toBe(0);
	});

	it('a simulator started with another key accepts only that key', async () => {
		const key = `svc_live_${'K'.repeat(40)}`;
		const other = await bootSim({ apiKey: key });
		try {
			expect((await other.api.get('/workspace')).status).toBe(200);
			const res = await axios.get(`${other.sim.baseUrl}/workspace`, {
				headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` },
				validateStatus: () => true,
			});
			expect(res.status).toBe(401);
		} finally {
			await other.close();
		}
	});

	it('refuses to start with a key of the wrong form', async () => {
		await expect(bootSim({ apiKey: 'exec_live_abc' })).rejects.toThrow(/svc_live_/);
	});
});

describe('spec 7: error envelope', () => {
	it('every error body is {error: {type, code?, message}}', async () => {
		const res = await t.api.get('/knowledge-hub/pages/00000000-0000-4000-8000-000000000000');
		const parsed = errorEnvelopeSchema.parse(res.data);
		expect(parsed.error.type).toBe('not_found');
		expect(parsed.error.code).toBeUndefined();
		expect(parsed.error.message).toContain('00000000-0000-4000-8000-000000000000');
	});

	it('an unknown endpoint answers 404 not_found in the same envelope', async () => {
		expectError(await t.api.get('/nope'), 404, 'not_found', undefined, '/nope');
	});

	it('a known path with the wrong method answers 405', async () => {
		expectError(await t.api.delete('/workspace'), 405, 'invalid_request', 'method_not_allowed');
	});

	it('malformed JSON bodies give 400 invalid_request invalid_json', async () => {
		const res = await t.api.post('/scenario-studio/jobs', '{not json', {
			headers: { 'content-type': 'application/json' },
		});
		expectError(res, 400, 'invalid_request', 'invalid_json');
	});

	it('paths outside /rest/v1 are not the API', async () => {
		const res = await axios.get(`http://127.0.0.1:${t.sim.port}/workspace`, {
			validateStatus: () => true,
		});
		expect(res.status).toBe(404);
	});
});
