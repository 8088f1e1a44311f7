/** Spec 4.2 analytics (summary, participants) and 4.3 skill proficiency rules 1-4. */
import { SEED, SEED_NOW } from '../../simulator';
import {
	analyticsSummarySchema,
	participantListSchema,
	proficiencyListSchema,
	skillListSchema,
} from '../../simulator/schemas';
import { bootSim, DAY, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());

const PD = SEED.scenarios.procurementDiscovery;
const emailOf = (first: string): string => {
	const m = SEED.members.find((x) => x.first_name === first);
	if (!m) throw new Error(first);
	return m.email;
};
const participants = async (params: Record<string, string | number> = {}, scenario = PD.id) =>
	expectOk(
		await t.api.get(`/scenarios/${scenario}/analytics/participants`, { params }),
		participantListSchema,
	);

describe('GET /scenarios/{id}/analytics/participants', () => {
	it('one row per participant from graded sessions: first, best, lift, counts, duration', async () => {
		const body = await participants();
		const jane = body.data.find((r) => r.user.email === SEED.apiUser.email);
		expect(jane).toMatchObject({
			session_count: 4,
			first_score: 88,
			first_rank: 'silver',
			best_score: 95,
			best_rank: 'gold',
			lift_percentage: 7,
		});
		const expectedSeconds = t.control.store.data.sessions
			.filter((s) => s.scenarioId === PD.id && s.userId === SEED.apiUser.id)
			.reduce((sum, s) => sum + (s.durationSeconds ?? 0), 0);
		expect(jane?.total_duration_seconds).toBe(expectedSeconds);
		// Carla has an abandoned (ungraded) session that does not count.
		expect(body.data.find((r) => r.user.email === emailOf('Carla'))?.session_count).toBe(3);
	});

	it('accepts the slug as well as the id', async () => {
		expect(await participants({}, PD.slug)).toEqual(await participants({}, PD.id));
	});

	it('default order is best_score descending', async () => {
		const best = (await participants()).data.map((r) => r.best_score ?? 0);
		expect(best).toEqual([...best].sort((a, b) => b - a));
	});

	it.each([
		'best_score',
		'first_score',
		'lift_percentage',
		'total_duration_seconds',
		'session_count',
	] as const)(
		'sorts by %s ascending and, with a leading -, descending; via sort and sorting alike',
		async (key) => {
			const asc = (await participants({ sort: key })).data.map((r) => r[key] ?? 0);
			expect(asc).toEqual([...asc].sort((a, b) => a - b));
			const desc = (await participants({ sorting: `-${key}` })).data.map((r) => r[key] ?? 0);
			expect(desc).toEqual([...desc].sort((a, b) => b - a));
			expect(new Set(asc).size).toBeGreaterThan(1); // the order is actually tested
		},
	);

	it('sort and sorting together must agree (the node sends both, the same value)', async () => {
		const both = await participants({ sort: 'session_count', sorting: 'session_count' });
		expect(both.data.map((r) => r.session_count)).toEqual(
			(await participants({ sort: 'session_count' })).data.map((r) => r.session_count),
		);
		expectError(
			await t.api.get(`/scenarios/${PD.id}/analytics/participants`, {
				params: { sort: 'best_score', sorting: '-best_score' },
			}),
			400,
			'invalid_request',
			'invalid_value',
			'sort and sorting disagree',
		);
	});

	it('rejects unknown sort keys', async () => {
		expectError(
			await t.api.get(`/scenarios/${PD.id}/analytics/participants`, { params: { sort: 'name' } }),
			400,
			'invalid_request',
			'invalid_value',
			'sort',
		);
		expectError(
			await t.api.get(`/scenarios/${PD.id}/analytics/participants`, {
				params: { sorting: '-name' },
			}),
			400,
			'invalid_request',
			'invalid_value',
			'sorting',
		);
	});

	it('user_ids ∪ user_emails, and group_ids', async () => {
		const bob = SEED.members.find((m) => m.first_name === 'Bob');
		const union = await participants({ user_ids: bob?.id ?? '', user_emails: emailOf('Dev') });
		expect(union.data.map((r) => r.user.email).sort()).toEqual(
			[emailOf('Bob'), emailOf('Dev')].sort(),
		);
		const cs = await participants({ group_ids: SEED.groups.customerSuccess.id });
		expect(cs.data.map((r) => r.user.email)).toEqual([emailOf('Erin')]);
	});

	it('start_date and end_date are inclusive bounds on session time', async () => {
		const janeSessions = t.control.store.data.sessions
			.filter((s) => s.scenarioId === PD.id && s.userId === SEED.apiUser.id)
			.sort((a, b) => a.createdAt - b.createdAt);
		const second = new Date(janeSessions[1].createdAt).toISOString();
		const third = new Date(janeSessions[2].createdAt).toISOString();
		const body = await participants({
			user_emails: SEED.apiUser.email,
			start_date: second,
			end_date: third,
		});
		expect(body.data[0]).toMatchObject({ session_count: 2, first_score: 92, best_score: 95 });
		expectError(
			await t.api.get(`/scenarios/${PD.id}/analytics/participants`, {
				params: { start_date: 'yesterday' },
			}),
			400,
			'invalid_request',
			'invalid_value',
			'start_date',
		);
	});

	it('exclude_system_users drops @exec.com users; people who left stay in history', async () => {
		const all = (await participants()).data.map((r) => r.user.email);
		expect(all).toContain(SEED.systemUser.email);
		expect(all).toContain(SEED.formerUser.email);
		const without = (await participants({ exclude_system_users: 'true' })).data.map(
			(r) => r.user.email,
		);
		expect(without).not.toContain(SEED.systemUser.email);
		expect(without).toHaveLength(all.length - 1);
	});

	it('unknown scenario gives 404 naming it; a scenario without sessions has no rows', async () => {
		expectError(
			await t.api.get('/scenarios/unknown-slug/analytics/participants'),
			404,
			'not_found',
			null,
			'unknown-slug',
		);
		expect((await participants({}, SEED.scenarios.coldCall.slug)).pagination.total_count).toBe(0);
	});
});

describe('GET /scenarios/{id}/analytics/summary', () => {
	it('aggregates the participant rows', async () => {
		const rows = (await participants()).data;
		const s = expectOk(
			await t.api.get(`/scenarios/${PD.slug}/analytics/summary`),
			analyticsSummarySchema,
		);
		expect(s.participant_count).toBe(rows.length);
		expect(s.total_sessions).toBe(rows.reduce((n, r) => n + r.session_count, 0));
		const avgBest = rows.reduce((n, r) => n + (r.best_score ?? 0), 0) / rows.length;
		expect(s.average_best_score).toBeCloseTo(avgBest, 1);
		expect(s.average_best_rank).toBe('silver');
		const totalSeconds = rows.reduce((n, r) => n + r.total_duration_seconds, 0);
		expect(s.total_practice_minutes).toBe(Math.round(totalSeconds / 60));
		expect(s.average_session_duration_seconds).toBeCloseTo(totalSeconds / s.total_sessions, 1);
		expect(s.score_distribution.map((d) => d.rank)).toEqual([
			'gold',
			'silver',
			'bronze',
			'unranked',
		]);
		expect(s.score_distribution.reduce((n, d) => n + d.count, 0)).toBe(rows.length);
		const gold = rows.filter((r) => (r.best_score ?? 0) >= 90).length;
		expect(s.score_distribution[0]).toEqual({
			rank: 'gold',
			count: gold,
			percentage: Math.round((gold / rows.length) * 1000) / 10,
		});
	});

	it('takes the same filters', async () => {
		const s = expectOk(
			await t.api.get(`/scenarios/${PD.id}/analytics/summary`, {
				params: { user_emails: SEED.apiUser.email },
			}),
			analyticsSummarySchema,
		);
		expect(s).toMatchObject({
			participant_count: 1,
			total_sessions: 4,
			average_best_score: 95,
			average_best_rank: 'gold',
			average_lift_percentage: 7,
		});
		const noSys = expectOk(
			await t.api.get(`/scenarios/${PD.id}/analytics/summary`, {
				params: { exclude_system_users: 'true' },
			}),
			analyticsSummarySchema,
		);
		expect(noSys.participant_count).toBe((await participants()).data.length - 1);
	});

	it('404 for an unknown scenario', async () => {
		expectError(
			await t.api.get('/scenarios/nope/analytics/summary'),
			404,
			'not_found',
			null,
			'nope',
		);
	});
});

describe('GET /skills', () => {
	it('ordered by name; include=proficiency adds the aggregate', async () => {
		const plain = expectOk(await t.api.get('/skills'), skillListSchema);
		const names = plain.data.map((s) => s.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(plain.data.every((s) => s.proficiency_summary === undefined)).toBe(true);
		const withP = expectOk(
			await t.api.get('/skills', { params: { include: 'proficiency' } }),
			skillListSchema,
		);
		const disc = withP.data.find((s) => s.id === SEED.skills.discovery.id)?.proficiency_summary;
		const rows = expectOk(
			await t.api.get(`/skills/${SEED.skills.discovery.id}/proficiency`),
			proficiencyListSchema,
		).data;
		const scored = rows.filter((r) => r.score !== null);
		expect(disc).toMatchObject({
			participant_count: rows.length,
			scored_participant_count: scored.length,
		});
		expect(
			withP.data.find((s) => s.id === SEED.skills.negotiation.id)?.proficiency_summary,
		).toEqual({
			participant_count: 0,
			scored_participant_count: 0,
			pct_proficient_plus: 0,
			avg_score: null,
		});
	});
});

describe('spec 4.3: GET /skills/{id}/proficiency', () => {
	// Negotiation has no seeded observations, so each test controls every input.
	const skill = SEED.skills.negotiation.id;
	const asOf = SEED_NOW;
	const at = (daysAgo: number) => asOf - daysAgo * DAY;
	const prof = async (params: Record<string, string> = {}, skillId = skill) =>
		expectOk(await t.api.get(`/skills/${skillId}/proficiency`, { params }), proficiencyListSchema);
	beforeEach(() => t.control.reset());

	it('rule 1: 30-day half-life time-decay weighting (not a plain mean)', async () => {
		for (const [score, days] of [
			[100, 0],
			[50, 30],
			[40, 90],
		])
			t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score, at: at(days) });
		const [row] = (await prof()).data;
		// Weights 1, 1/2, 1/8: (100 + 25 + 5) / 1.625 = 80 → proficient; a plain mean (63.3) would be developing.
		expect(row.score).toBe(80);
		expect(row.tier).toBe('proficient');
		expect(row.observation_count).toBe(3);
		expect(row.last_practiced_at).toBe(new Date(at(0)).toISOString());
	});

	it('rule 2: fewer than 3 observations → score null, tier insufficient_data', async () => {
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 99, at: at(1) });
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 99, at: at(2) });
		expect((await prof()).data[0]).toMatchObject({
			score: null,
			tier: 'insufficient_data',
			observation_count: 2,
		});
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 99, at: at(3) });
		expect((await prof()).data[0]).toMatchObject({
			score: 99,
			tier: 'excellent',
			observation_count: 3,
		});
	});

	it('rule 3: tiers at 90 / 75 / 50', async () => {
		const plan: Array<[string, number, string]> = [
			['Jane', 90, 'excellent'],
			['Bob', 89.9, 'proficient'],
			['Carla', 75, 'proficient'],
			['Dev', 74.9, 'developing'],
			['Erin', 50, 'developing'],
			['Frank', 49.9, 'needs_work'],
		];
		for (const [who, score] of plan)
			for (let i = 0; i < 3; i++)
				t.control.addObservation({ userEmail: emailOf(who), skillId: skill, score, at: at(i) });
		const rows = (await prof()).data;
		for (const [who, score, tier] of plan)
			expect(rows.find((r) => r.user.email === emailOf(who))).toMatchObject({ score, tier });
	});

	it('rule 4: only users with at least one observation; all practising members without filters', async () => {
		t.control.addObservation({ userEmail: emailOf('Gina'), skillId: skill, score: 70, at: at(1) });
		const rows = (await prof()).data;
		expect(rows.map((r) => r.user.email)).toEqual([emailOf('Gina')]);
		expect((await prof({ user_emails: emailOf('Frank') })).data).toEqual([]);
		// Seeded skill: everyone who practised, members only (the former user is not reported).
		const disc = (await prof({}, SEED.skills.discovery.id)).data.map((r) => r.user.email);
		expect(disc).not.toContain(SEED.formerUser.email);
		expect(new Set(disc)).toEqual(new Set(SEED.members.map((m) => m.email))); // every member practised it
	});

	it('the seeded discovery skill shows every tier', async () => {
		const tiers = new Set((await prof({}, SEED.skills.discovery.id)).data.map((r) => r.tier));
		expect(tiers).toEqual(
			new Set(['excellent', 'proficient', 'developing', 'needs_work', 'insufficient_data']),
		);
	});

	it('end_date sets the as-of date: later observations are ignored and decay is measured from it', async () => {
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 60, at: at(40) });
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 60, at: at(35) });
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 60, at: at(31) });
		t.control.addObservation({ userEmail: emailOf('Bob'), skillId: skill, score: 100, at: at(1) });
		const now = (await prof()).data[0];
		expect(now.observation_count).toBe(4);
		const past = (await prof({ end_date: new Date(at(30)).toISOString() })).data[0];
		expect(past).toMatchObject({
			observation_count: 3,
			score: 60,
			tier: 'developing',
			last_practiced_at: new Date(at(31)).toISOString(),
		});
		expect((await prof({ end_date: new Date(at(50)).toISOString() })).data).toEqual([]);
		expectError(
			await t.api.get(`/skills/${skill}/proficiency`, { params: { end_date: 'soon' } }),
			400,
			'invalid_request',
			'invalid_value',
			'end_date',
		);
	});

	it('exclude_system_users, user_ids ∪ user_emails and group_ids', async () => {
		const disc = SEED.skills.discovery.id;
		expect((await prof({}, disc)).data.map((r) => r.user.email)).toContain(SEED.systemUser.email);
		expect(
			(await prof({ exclude_system_users: 'true' }, disc)).data.map((r) => r.user.email),
		).not.toContain(SEED.systemUser.email);
		const bob = SEED.members.find((m) => m.first_name === 'Bob');
		const union = (await prof({ user_ids: bob?.id ?? '', user_emails: emailOf('Dev') }, disc)).data
			.map((r) => r.user.email)
			.sort();
		expect(union).toEqual([emailOf('Bob'), emailOf('Dev')].sort());
		const cs = (await prof({ group_ids: SEED.groups.customerSuccess.id }, disc)).data
			.map((r) => r.user.email)
			.sort();
		expect(cs).toEqual([emailOf('Erin'), emailOf('Frank'), emailOf('Gina')].sort());
	});

	it('unknown skill gives 404 naming the id', async () => {
		expectError(
			await t.api.get('/skills/11111111-2222-4333-8444-555555555555/proficiency'),
			404,
			'not_found',
			null,
			'11111111-2222-4333-8444-555555555555',
		);
	});
});
