/** Spec 4.2: scenarios list, access check/grant, assignments list and assign. */
import { SEED } from '../../simulator';
import {
	accessCheckSchema,
	accessGrantSchema,
	assignmentListSchema,
	assignmentSchema,
	scenarioListSchema,
} from '../../simulator/schemas';
import { bootSim, expectError, expectOk, type TestSim } from './helpers';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());

const S = SEED.scenarios;
const email = (first: string): string => {
	const m = SEED.members.find((x) => x.first_name === first);
	if (!m) throw new Error(first);
	return m.email;
};
const list = async (params: Record<string, string | number>) =>
	expectOk(await t.api.get('/scenarios', { params }), scenarioListSchema);

describe('GET /scenarios', () => {
	it('admin view: every non-archived scenario, newest first, without skills unless asked', async () => {
		const body = await list({});
		const ids = body.data.map((s) => s.id);
		expect(ids).toContain(S.pricingObjection.id); // private scenarios too
		expect(ids).not.toContain(S.archived.id);
		const created = body.data.map((s) => Date.parse(s.created_at));
		expect([...created].sort((a, b) => b - a)).toEqual(created);
		expect(body.data.every((s) => s.skills === undefined)).toBe(true);
	});

	it('include_archived=true adds archived scenarios', async () => {
		const body = await list({ include_archived: 'true' });
		expect(body.data.map((s) => s.id)).toContain(S.archived.id);
		expect(body.pagination.total_count).toBe((await list({})).pagination.total_count + 1);
	});

	it('include=skills adds the skills each scenario evaluates', async () => {
		const body = await list({ include: 'skills' });
		const pd = body.data.find((s) => s.id === S.procurementDiscovery.id);
		expect(pd?.skills?.map((k) => k.id).sort()).toEqual(
			[SEED.skills.discovery.id, SEED.skills.procurement.id].sort(),
		);
		expect(body.data.every((s) => Array.isArray(s.skills))).toBe(true);
	});

	it('an unknown include value is rejected', async () => {
		expectError(
			await t.api.get('/scenarios', { params: { include: 'owners' } }),
			400,
			'invalid_request',
			'invalid_value',
			'include',
		);
	});

	it('owner_email filters by owner; a malformed one gives 400', async () => {
		const body = await list({ owner_email: SEED.apiUser.email });
		expect(body.data.length).toBeGreaterThan(0);
		expect(body.data.every((s) => s.owner?.email === SEED.apiUser.email)).toBe(true);
		expectError(
			await t.api.get('/scenarios', { params: { owner_email: 'jane' } }),
			400,
			'invalid_request',
			'invalid_value',
			'owner_email',
		);
	});

	it('visible_to_email checks owner, user shares, group shares and workspace shares', async () => {
		const ids = async (who: string) =>
			(await list({ visible_to_email: who })).data.map((s) => s.id);
		const dev = await ids(email('Dev'));
		expect(dev).toContain(S.pricingObjection.id); // user share
		expect(dev).toContain(S.coldCall.id); // owner
		const erin = await ids(email('Erin'));
		expect(erin).toContain(S.pricingObjection.id); // group share
		expect(erin).not.toContain(S.coldCall.id); // private, not shared
		expect(erin).toContain(S.procurementDiscovery.id); // workspace visibility
		const bob = await ids(email('Bob'));
		expect(bob).not.toContain(S.pricingObjection.id);
	});

	it('visibility filters by scope and rejects other values', async () => {
		const priv = await list({ visibility: 'private' });
		expect(priv.data.length).toBeGreaterThan(0);
		expect(priv.data.every((s) => s.visibility === 'private')).toBe(true);
		expectError(
			await t.api.get('/scenarios', { params: { visibility: 'public' } }),
			400,
			'invalid_request',
			'invalid_value',
			'visibility',
		);
	});

	it('skill_ids and collection_ids take comma-separated lists (any match)', async () => {
		const one = await list({ skill_ids: SEED.skills.negotiation.id });
		expect(one.data.map((s) => s.slug)).toEqual(['renewal-negotiation']);
		const two = await list({
			skill_ids: `${SEED.skills.negotiation.id},${SEED.skills.procurement.id}`,
		});
		expect(two.data.map((s) => s.slug).sort()).toEqual([
			'procurement-discovery',
			'renewal-negotiation',
		]);
		const col = await list({
			collection_ids: `${SEED.collections.negotiation.id},${SEED.collections.onboarding.id}`,
			include: 'skills',
		});
		expect(col.data.map((s) => s.slug).sort()).toEqual([
			'cold-call-opener',
			'discovery-call-with-it-director',
			'pricing-objection-drill',
			'renewal-negotiation',
		]);
	});

	it('every field of spec 2.4 is present, objective carries the outcomes-to-avoid section', async () => {
		const pd = (await list({})).data.find((s) => s.id === S.procurementDiscovery.id);
		expect(pd).toMatchObject({
			slug: S.procurementDiscovery.slug,
			language: 'English',
			visibility: 'workspace',
			owner: { email: SEED.apiUser.email },
		});
		expect(pd?.objective).toContain('##### Outcomes to Avoid:');
		expect(pd?.url).toMatch(/^https:\/\//);
	});
});

describe('GET /scenarios/{id}/access', () => {
	const check = async (scenarioId: string, who: string) =>
		expectOk(
			await t.api.get(`/scenarios/${scenarioId}/access`, { params: { user_email: who } }),
			accessCheckSchema,
		);

	it('owner has every permission', async () => {
		expect((await check(S.pricingObjection.id, email('Carla'))).permissions).toEqual({
			can_view: true,
			can_share: true,
			can_monitor: true,
			can_edit: true,
		});
	});

	it('shares and workspace visibility grant what they say', async () => {
		expect((await check(S.pricingObjection.id, email('Dev'))).permissions).toEqual({
			can_view: true,
			can_share: false,
			can_monitor: false,
			can_edit: false,
		});
		expect((await check(S.pricingObjection.id, email('Erin'))).permissions).toEqual({
			can_view: true,
			can_share: true,
			can_monitor: false,
			can_edit: false,
		});
		expect((await check(S.pricingObjection.id, email('Bob'))).permissions).toEqual({
			can_view: false,
			can_share: false,
			can_monitor: false,
			can_edit: false,
		});
		expect((await check(S.procurementDiscovery.id, email('Bob'))).permissions.can_view).toBe(true);
	});

	it('echoes user_email and scenario_id', async () => {
		expect(await check(S.procurementDiscovery.id, email('Bob'))).toMatchObject({
			user_email: email('Bob'),
			scenario_id: S.procurementDiscovery.id,
		});
	});

	it('missing user_email gives 400 naming it; unknown scenario 404 naming the id; unknown user user_not_found', async () => {
		expectError(
			await t.api.get(`/scenarios/${S.procurementDiscovery.id}/access`),
			400,
			'invalid_request',
			null,
			'user_email',
		);
		expectError(
			await t.api.get('/scenarios/nope-id/access', { params: { user_email: email('Bob') } }),
			404,
			'not_found',
			null,
			'nope-id',
		);
		expectError(
			await t.api.get(`/scenarios/${S.procurementDiscovery.id}/access`, {
				params: { user_email: 'x@y.com' },
			}),
			400,
			'invalid_request',
			'user_not_found',
		);
	});
});

describe('POST /scenarios/{id}/access', () => {
	it('grants a level and the check reflects it', async () => {
		const res = await t.api.post(`/scenarios/${S.coldCall.id}/access`, {
			user_email: email('Gina'),
			permission_level: 'monitor',
		});
		expect(expectOk(res, accessGrantSchema)).toEqual({
			user_email: email('Gina'),
			scenario_id: S.coldCall.id,
			permission_level: 'monitor',
			granted: true,
		});
		const after = expectOk(
			await t.api.get(`/scenarios/${S.coldCall.id}/access`, {
				params: { user_email: email('Gina') },
			}),
			accessCheckSchema,
		);
		expect(after.permissions).toEqual({
			can_view: true,
			can_share: false,
			can_monitor: true,
			can_edit: false,
		});
	});

	it('validates the body and the scenario', async () => {
		const url = `/scenarios/${S.coldCall.id}/access`;
		expectError(
			await t.api.post(url, { user_email: email('Gina') }),
			400,
			'invalid_request',
			null,
			'permission_level',
		);
		expectError(
			await t.api.post(url, { permission_level: 'view' }),
			400,
			'invalid_request',
			null,
			'user_email',
		);
		expectError(
			await t.api.post(url, { user_email: email('Gina'), permission_level: 'owner' }),
			400,
			'invalid_request',
			'invalid_value',
			'permission_level',
		);
		expectError(
			await t.api.post(url, { user_email: 'ghost@acme.com', permission_level: 'view' }),
			400,
			'invalid_request',
			'user_not_found',
		);
		expectError(
			await t.api.post('/scenarios/missing-scn/access', {
				user_email: email('Gina'),
				permission_level: 'view',
			}),
			404,
			'not_found',
			null,
			'missing-scn',
		);
	});
});

describe('GET /scenarios/assignments', () => {
	const get = async (params: Record<string, string>) =>
		expectOk(await t.api.get('/scenarios/assignments', { params }), assignmentListSchema);

	it('holds assignments in every status with attempt and rank fields', async () => {
		const body = await get({});
		expect(new Set(body.data.map((a) => a.status))).toEqual(
			new Set(['not_started', 'in_progress', 'completed', 'past_due', 'did_not_pass']),
		);
		const completed = body.data.find((a) => a.id === SEED.assignments.completed);
		expect(completed).toMatchObject({
			attempt_count: 4,
			attempt_min: 1,
			attempt_max: null,
			rank_min: 'silver',
			best_rank: 'gold',
			program: { id: SEED.programs.q1Onboarding.id },
		});
		const notStarted = body.data.find((a) => a.id === SEED.assignments.not_started);
		expect(notStarted).toMatchObject({ best_score: null, best_rank: null, attempt_count: 0 });
	});

	it('status takes one or more values; others are rejected', async () => {
		const body = await get({ status: 'completed,past_due' });
		expect(body.data.length).toBe(3);
		expect(body.data.every((a) => a.status === 'completed' || a.status === 'past_due')).toBe(true);
		expectError(
			await t.api.get('/scenarios/assignments', { params: { status: 'done' } }),
			400,
			'invalid_request',
			'invalid_value',
			'status',
		);
	});

	it('user_ids ∪ user_emails', async () => {
		const bob = SEED.members.find((m) => m.first_name === 'Bob');
		const body = await get({ user_ids: bob?.id ?? '', user_emails: email('Erin') });
		expect(new Set(body.data.map((a) => a.user.email))).toEqual(
			new Set([email('Bob'), email('Erin')]),
		);
	});

	it('scenario_ids and program_ids', async () => {
		const byScenario = await get({ scenario_ids: S.procurementDiscovery.id });
		expect(byScenario.data).toHaveLength(3);
		const byProgram = await get({ program_ids: SEED.programs.salesBootcamp.id });
		expect(byProgram.data.map((a) => a.status).sort()).toEqual(['did_not_pass', 'not_started']);
	});
});

describe('POST /scenarios/{id}/assignments', () => {
	it('creates a not_started assignment (200) that the list shows', async () => {
		const res = await t.api.post(`/scenarios/${S.coldCall.id}/assignments`, {
			user_email: email('Frank'),
			due_date: '2026-04-01T17:00:00Z',
			assigner_email: SEED.apiUser.email,
			attempt_min: 2,
			attempt_max: 4,
			rank_min: 'silver',
			custom_message: 'Please practice',
		});
		const a = expectOk(res, assignmentSchema);
		expect(a).toMatchObject({
			status: 'not_started',
			attempt_count: 0,
			attempt_min: 2,
			attempt_max: 4,
			rank_min: 'silver',
			best_score: null,
			due_date: '2026-04-01T17:00:00.000Z',
		});
		const listed = expectOk(
			await t.api.get('/scenarios/assignments', { params: { scenario_ids: S.coldCall.id } }),
			assignmentListSchema,
		);
		expect(listed.data.map((x) => x.id)).toContain(a.id);
	});

	it('defaults attempt_min 1, attempt_max null, rank_min null', async () => {
		const a = expectOk(
			await t.api.post(`/scenarios/${S.coldCall.id}/assignments`, {
				user_email: email('Gina'),
				due_date: '2026-04-01T00:00:00Z',
			}),
			assignmentSchema,
		);
		expect(a).toMatchObject({ attempt_min: 1, attempt_max: null, rank_min: null });
	});

	it('validates fields, user and scenario', async () => {
		const url = `/scenarios/${S.coldCall.id}/assignments`;
		const who = email('Gina');
		expectError(
			await t.api.post(url, { user_email: who }),
			400,
			'invalid_request',
			null,
			'due_date',
		);
		expectError(
			await t.api.post(url, { due_date: '2026-04-01T00:00:00Z' }),
			400,
			'invalid_request',
			null,
			'user_email',
		);
		expectError(
			await t.api.post(url, { user_email: who, due_date: 'tomorrow' }),
			400,
			'invalid_request',
			'invalid_value',
			'due_date',
		);
		expectError(
			await t.api.post(url, { user_email: who, due_date: '2026-04-01T00:00:00Z', attempt_min: 0 }),
			400,
			'invalid_request',
			'invalid_value',
			'attempt_min',
		);
		expectError(
			await t.api.post(url, {
				user_email: who,
				due_date: '2026-04-01T00:00:00Z',
				attempt_min: 3,
				attempt_max: 2,
			}),
			400,
			'invalid_request',
			'invalid_value',
			'attempt_max',
		);
		expectError(
			await t.api.post(url, {
				user_email: who,
				due_date: '2026-04-01T00:00:00Z',
				rank_min: 'unranked',
			}),
			400,
			'invalid_request',
			'invalid_value',
			'rank_min',
		);
		expectError(
			await t.api.post(url, { user_email: 'ghost@acme.com', due_date: '2026-04-01T00:00:00Z' }),
			400,
			'invalid_request',
			'user_not_found',
		);
		expectError(
			await t.api.post('/scenarios/zzz/assignments', {
				user_email: who,
				due_date: '2026-04-01T00:00:00Z',
			}),
			404,
			'not_found',
			null,
			'zzz',
		);
	});
});
