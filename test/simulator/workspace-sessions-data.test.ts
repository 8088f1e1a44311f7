/** Spec 4.4 (collections, workspace, members, groups, contexts), sessions, and issue item 7 (seeded data, size). */
import { SEED, startSimulator, SYSTEM_EMAIL_DOMAIN } from '../../simulator';
import {
	collectionListSchema,
	contextListSchema,
	groupListSchema,
	memberListSchema,
	scenarioListSchema,
	sessionDetailSchema,
	sessionListSchema,
	workspaceSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());

describe('workspace, members, groups, collections, contexts', () => {
	it('GET /workspace returns the seeded workspace', async () => {
		expect(expectOk(await t.api.get('/workspace'), workspaceSchema)).toMatchObject({
			id: SEED.workspace.id,
			name: 'Acme Corp',
			url_slug: 'acme-corp',
		});
	});

	it('members: id is the user id; includes the system user, not people who left', async () => {
		const body = expectOk(await t.api.get('/workspace/members'), memberListSchema);
		expect(body.data.every((m) => m.id === m.user.id)).toBe(true);
		const emails = body.data.map((m) => m.user.email);
		expect(emails).toEqual(SEED.members.map((m) => m.email));
		expect(emails).toContain(SEED.systemUser.email);
		expect(SEED.systemUser.email.endsWith(SYSTEM_EMAIL_DOMAIN)).toBe(true);
		expect(emails).not.toContain(SEED.formerUser.email);
		expect(new Set(body.data.map((m) => m.role))).toEqual(new Set(['admin', 'staff', 'member']));
	});

	it('members filtered by comma-separated group_ids', async () => {
		const one = expectOk(
			await t.api.get('/workspace/members', { params: { group_ids: SEED.groups.leadership.id } }),
			memberListSchema,
		);
		expect(one.data.map((m) => m.user.first_name)).toEqual(['Jane', 'Bob']);
		const two = expectOk(
			await t.api.get('/workspace/members', {
				params: { group_ids: `${SEED.groups.leadership.id},${SEED.groups.customerSuccess.id}` },
			}),
			memberListSchema,
		);
		expect(two.data).toHaveLength(5);
	});

	it('groups', async () => {
		const body = expectOk(await t.api.get('/workspace/groups'), groupListSchema);
		expect(body.data.map((g) => g.id)).toEqual([
			SEED.groups.sales.id,
			SEED.groups.customerSuccess.id,
			SEED.groups.leadership.id,
		]);
	});

	it('collections are ordered by name and count their live scenarios', async () => {
		const body = expectOk(await t.api.get('/collections'), collectionListSchema);
		const names = body.data.map((c) => c.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		for (const c of body.data) {
			const scenarios = expectOk(
				await t.api.get('/scenarios', { params: { collection_ids: c.id } }),
				scenarioListSchema,
			);
			expect(c.scenario_count).toBe(scenarios.pagination.total_count);
		}
		expect(body.data.find((c) => c.id === SEED.collections.empty.id)?.scenario_count).toBe(0);
	});

	it('GET /contexts (spec only) lists contexts', async () => {
		const body = expectOk(await t.api.get('/contexts'), contextListSchema);
		expect(body.data.map((c) => c.id).sort()).toEqual(SEED.contexts.map((c) => c.id).sort());
		expect(body.data.map((c) => c.title)).toContain('Competitor landscape');
	});
});

describe('sessions (reference operations)', () => {
	const list = async (params: Record<string, string> = {}) =>
		expectOk(await t.api.get('/sessions', { params }), sessionListSchema);

	it('newest first by default; includes people who left and ungraded sessions', async () => {
		const body = await list({ page_size: '100' });
		const times = body.data.map((s) => Date.parse(s.created_at));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(body.data.some((s) => s.user.email === SEED.formerUser.email)).toBe(true);
		expect(body.data.some((s) => !s.is_valid_attempt && s.score === null && s.rank === null)).toBe(
			true,
		);
	});

	it('sorting by score and duration both ways, missing values last', async () => {
		const asc = (await list({ sorting: 'score', page_size: '100' })).data.map((s) => s.score);
		const scored = asc.filter((x): x is number => x !== null);
		expect(scored).toEqual([...scored].sort((a, b) => a - b));
		expect(asc[asc.length - 1]).toBeNull();
		const desc = (await list({ sorting: '-duration', page_size: '100' })).data.map(
			(s) => s.duration_seconds ?? 0,
		);
		expect(desc).toEqual([...desc].sort((a, b) => b - a));
		expectError(
			await t.api.get('/sessions', { params: { sorting: 'name' } }),
			400,
			'invalid_request',
			'invalid_value',
			'sorting',
		);
	});

	it("sorts by `sorting` only: `sort` (not this list's name) is refused, not ignored", async () => {
		expectError(
			await t.api.get('/sessions', { params: { sort: 'score' } }),
			400,
			'invalid_request',
			'invalid_value',
			'sort is not a parameter of this list; it sorts by sorting',
		);
	});

	it('filters: users, scenarios, collections, skills, programs, groups, rank list, dates, system users', async () => {
		const janes = await list({ user_emails: SEED.apiUser.email });
		expect(janes.data.every((s) => s.user.email === SEED.apiUser.email)).toBe(true);
		expect(
			(await list({ program_ids: SEED.programs.q1Onboarding.id })).pagination.total_count,
		).toBe(janes.pagination.total_count);
		expect(
			(await list({ scenario_ids: SEED.scenarios.discoveryCall.id })).pagination.total_count,
		).toBe(6);
		expect(
			(await list({ skill_ids: SEED.skills.negotiation.id })).data.map((s) => s.scenario.slug),
		).toEqual(['renewal-negotiation']);
		expect(
			(await list({ collection_ids: SEED.collections.onboarding.id })).pagination.total_count,
		).toBe(6);
		const ranks = await list({ rank: 'gold,unranked', page_size: '100' });
		expect(new Set(ranks.data.map((s) => s.rank))).toEqual(new Set(['gold', 'unranked']));
		const cs = await list({ group_ids: SEED.groups.customerSuccess.id, page_size: '100' });
		expect(new Set(cs.data.map((s) => s.user.first_name))).toEqual(
			new Set(['Erin', 'Frank', 'Gina']),
		);
		const all = await list({ page_size: '100' });
		const pivot = all.data[5].created_at;
		const since = await list({ start_date: pivot, page_size: '100' });
		const at = (x: { created_at: string }) => Date.parse(x.created_at);
		expect(since.pagination.total_count).toBe(
			all.data.filter((x) => at(x) >= Date.parse(pivot)).length,
		);
		const until = await list({ end_date: pivot, page_size: '100' });
		expect(until.pagination.total_count).toBe(
			all.data.filter((x) => at(x) <= Date.parse(pivot)).length,
		);
		// Both bounds are inclusive: the pivot session is in both results.
		expect(since.pagination.total_count + until.pagination.total_count).toBeGreaterThan(
			all.pagination.total_count,
		);
		const noSys = await list({ exclude_system_users: 'true', page_size: '100' });
		expect(noSys.data.some((s) => s.user.email === SEED.systemUser.email)).toBe(false);
		expect(noSys.pagination.total_count).toBe(all.pagination.total_count - 3);
		expectError(
			await t.api.get('/sessions', { params: { rank: 'platinum' } }),
			400,
			'invalid_request',
			'invalid_value',
			'rank',
		);
		expectError(
			await t.api.get('/sessions', { params: { exclude_system_users: 'maybe' } }),
			400,
			'invalid_request',
			'invalid_value',
			'exclude_system_users',
		);
	});

	it('detail with include=transcript,evaluations; 404 for an unknown id', async () => {
		const [first] = (await list({ sorting: '-score' })).data;
		const plain = expectOk(await t.api.get(`/sessions/${first.id}`), sessionDetailSchema);
		expect(plain.transcript).toBeUndefined();
		expect(plain.evaluations).toBeUndefined();
		expect(plain.outcome_feedback).toEqual(expect.any(String));
		const full = expectOk(
			await t.api.get(`/sessions/${first.id}`, { params: { include: 'transcript,evaluations' } }),
			sessionDetailSchema,
		);
		expect(full.transcript?.length).toBeGreaterThan(0);
		expect(full.evaluations?.[0].items[0].grade).toBe('good');
		expectError(
			await t.api.get('/sessions/00000000-0000-4000-8000-0000000000cc'),
			404,
			'not_found',
			null,
			'00000000-0000-4000-8000-0000000000cc',
		);
	});
});

describe('issue item 7: deterministic data and size', () => {
	it('two simulators with the default seed serve identical data and ids; SEED describes them', async () => {
		const other = await bootSim();
		try {
			for (const path of [
				'/scenarios?include=skills',
				'/knowledge-hub/pages',
				'/scenarios/assignments',
				'/sessions?page_size=100',
			]) {
				expect((await other.api.get(path)).data).toEqual((await t.api.get(path)).data);
			}
			expect(other.control.fixtures()).toEqual(SEED);
		} finally {
			await other.close();
		}
	});

	it('another seed gives other ids, same shapes', async () => {
		const other = await bootSim({ seed: 7 });
		try {
			expect(other.control.fixtures().scenarios.procurementDiscovery.id).not.toBe(
				SEED.scenarios.procurementDiscovery.id,
			);
			expect(other.control.fixtures().scenarios.procurementDiscovery.slug).toBe(
				SEED.scenarios.procurementDiscovery.slug,
			);
		} finally {
			await other.close();
		}
	});

	// How fast the build is belongs to the benchmarks (bench/), not to a test that a busy machine could fail.
	it('dataSize {scenarios: 10000} builds and pages through', async () => {
		const { buildSeed } = await import('../../simulator/state/seed');
		expect(buildSeed(42, { scenarios: 10_000 }).scenarios.length).toBeGreaterThan(10_000);
		const big = await startSimulator({
			dataSize: { scenarios: 10_000, members: 50, pages: 200, sources: 100 },
		});
		try {
			const res = await fetch(
				`${big.baseUrl}/scenarios?page=100&page_size=100&include_archived=true`,
				{ headers: { Authorization: `Bearer ${big.apiKey}` } },
			);
			const body = scenarioListSchema.parse(await res.json());
			expect(body.pagination.total_count).toBe(10_000 + 8);
			expect(body.data).toHaveLength(100);
			const members = memberListSchema.parse(
				await (
					await fetch(`${big.baseUrl}/workspace/members?page_size=1`, {
						headers: { Authorization: `Bearer ${big.apiKey}` },
					})
				).json(),
			);
			expect(members.pagination.total_count).toBe(58);
		} finally {
			await big.close();
		}
	});
});

describe('issue item 8: every route has a response schema', () => {
	it('the router and the schema table list the same routes', async () => {
		const { buildRouter } = await import('../../simulator/routes');
		const { RESPONSE_SCHEMAS } = await import('../../simulator/routes/response-schemas');
		const { Engine } = await import('../../simulator/engine');
		const { ManualClock } = await import('../../simulator/clock');
		const engine = new Engine({
			clock: new ManualClock(),
			seed: 42,
			dataSize: {},
			jobTimings: { queuedMs: 0, processingMs: 0 },
			rateLimits: false,
			latencyMs: 0,
		});
		const keys = buildRouter(engine).keys();
		expect(keys.sort()).toEqual(Object.keys(RESPONSE_SCHEMAS).sort());
		expect(keys).toHaveLength(33); // 32 operations + PUT as the alias of PATCH
	});
});
