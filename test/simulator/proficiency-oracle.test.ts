/**
 * Spec 4.3 against an independent reading of the rules: random observations (seeded), random as-of
 * dates, every filter; the expected rows are worked out here from the observations alone.
 */
import { SEED, SEED_NOW, SYSTEM_EMAIL_DOMAIN } from '../../simulator';
import { proficiencyListSchema } from '../../simulator/schemas';
import { bootSim, DAY, expectOk, type TestSim } from './helpers';
import { mulberry32 } from '../../simulator/state/random';

let t: TestSim;
beforeAll(async () => {
	t = await bootSim();
});
afterAll(() => t.close());

interface Obs {
	email: string;
	score: number;
	at: number;
}

/** The spec's rules, read literally. */
function expected(obs: Obs[], asOf: number, keep: (email: string) => boolean) {
	const rows = new Map<string, { score: number | null; tier: string; count: number }>();
	for (const email of new Set(obs.map((o) => o.email))) {
		if (!keep(email) || email === SEED.formerUser.email) continue;
		const mine = obs.filter((o) => o.email === email && o.at <= asOf);
		if (mine.length === 0) continue; // rule 4: at least one observation
		let mean: number | null = null;
		if (mine.length >= 3) {
			const w = mine.map((o) => 2 ** (-(asOf - o.at) / (30 * DAY))); // rule 1: 30-day half-life
			mean = mine.reduce((sum, o, i) => sum + o.score * w[i], 0) / w.reduce((a, b) => a + b);
		}
		// Rule 3 applies to the score itself; the row shows it to 2 decimals (TIERS-CONTRACT 6).
		const tier =
			mean === null
				? 'insufficient_data'
				: mean >= 90
					? 'excellent'
					: mean >= 75
						? 'proficient'
						: mean >= 50
							? 'developing'
							: 'needs_work';
		const score = mean === null ? null : Math.round(mean * 100) / 100;
		rows.set(email, { score, tier, count: mine.length });
	}
	return rows;
}

const skill = SEED.skills.negotiation.id; // no seeded observations

test.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: every row as the rules say', async (seed) => {
	t.control.reset();
	const next = mulberry32(seed);
	// The former user practised too: not a member any more, so never reported.
	const people = [...SEED.members.map((m) => m.email), SEED.formerUser.email];
	const obs: Obs[] = [];
	for (let i = 0; i < 60; i++) {
		const o = {
			email: people[Math.floor(next() * people.length)],
			score: Math.round(next() * 1000) / 10,
			at: SEED_NOW - Math.floor(next() * 120 * DAY),
		};
		obs.push(o);
		t.control.addObservation({ userEmail: o.email, skillId: skill, score: o.score, at: o.at });
	}
	const asOf = SEED_NOW - Math.floor(next() * 60 * DAY);
	const cs = SEED.groups.customerSuccess.id;
	const inCs = new Set(
		t.control.store.data.users.filter((u) => u.groupIds.includes(cs)).map((u) => u.email),
	);
	const bob = SEED.members.find((m) => m.first_name === 'Bob')!;
	for (const [query, keep] of [
		[{}, () => true],
		[{ exclude_system_users: 'true' }, (e: string) => !e.endsWith(SYSTEM_EMAIL_DOMAIN)],
		[{ group_ids: cs }, (e: string) => inCs.has(e)],
		[
			{ user_ids: bob.id, user_emails: SEED.systemUser.email },
			(e: string) => e === bob.email || e === SEED.systemUser.email,
		],
	] as Array<[Record<string, string>, (email: string) => boolean]>) {
		const body = expectOk(
			await t.api.get(`/skills/${skill}/proficiency`, {
				params: { ...query, end_date: new Date(asOf).toISOString(), page_size: 100 },
			}),
			proficiencyListSchema,
		);
		const want = expected(obs, asOf, keep);
		const got = new Map(
			body.data.map((r) => [
				r.user.email,
				{ score: r.score, tier: r.tier, count: r.observation_count },
			]),
		);
		expect(got).toEqual(want);
		for (const r of body.data) {
			const last = Math.max(
				...obs.filter((o) => o.email === r.user.email && o.at <= asOf).map((o) => o.at),
			);
			expect(r.last_practiced_at).toBe(new Date(last).toISOString());
		}
	}
});

test('a scored roleplay session is an observation of every skill its scenario evaluates (rule 1)', async () => {
	t.control.reset();
	const scenario = t.control.store.data.scenarios.find((x) => x.skillIds.length === 2)!;
	const [first, second] = scenario.skillIds;
	const bob = SEED.members.find((m) => m.first_name === 'Bob')!;
	const count = async (skillId: string) => {
		const body = expectOk(
			await t.api.get(`/skills/${skillId}/proficiency`, { params: { user_ids: bob.id } }),
			proficiencyListSchema,
		);
		return body.data[0]?.observation_count ?? 0;
	};
	const before = [await count(first), await count(second)];
	t.control.addSession({ userEmail: bob.email, scenario: scenario.id, score: 80 });
	const pending = t.control.addSession({ userEmail: bob.email, scenario: scenario.id });
	expect([await count(first), await count(second)]).toEqual([before[0] + 1, before[1] + 1]);
	t.control.scoreSession(pending.id, 70); // an unscored session counts once it is scored
	expect([await count(first), await count(second)]).toEqual([before[0] + 2, before[1] + 2]);
});

test('the tier boundary applies to the unrounded score; the score shows 2 decimals', async () => {
	t.control.reset();
	const bob = SEED.members.find((m) => m.first_name === 'Bob')!;
	// Three observations at one instant: the mean is exact, 89.996 (shows as 90, is proficient).
	for (const score of [89.996, 89.996, 89.996])
		t.control.addObservation({ userEmail: bob.email, skillId: skill, score, at: SEED_NOW - DAY });
	const body = expectOk(
		await t.api.get(`/skills/${skill}/proficiency`, { params: { user_ids: bob.id } }),
		proficiencyListSchema,
	);
	expect(body.data[0]).toMatchObject({ score: 90, tier: 'proficient' });
});

test('end_date is an as-of date: later observations are left out, decay is computed at it', async () => {
	t.control.reset();
	const bob = SEED.members.find((m) => m.first_name === 'Bob')!;
	const add = (score: number, at: number) =>
		t.control.addObservation({ userEmail: bob.email, skillId: skill, score, at });
	add(40, SEED_NOW - 40 * DAY);
	add(100, SEED_NOW - 10 * DAY);
	add(100, SEED_NOW - 10 * DAY);
	add(0, SEED_NOW - DAY); // after the as-of date: ignored
	const asOf = SEED_NOW - 10 * DAY;
	const body = expectOk(
		await t.api.get(`/skills/${skill}/proficiency`, {
			params: { user_ids: bob.id, end_date: new Date(asOf).toISOString() },
		}),
		proficiencyListSchema,
	);
	// At the as-of date the 40 is 30 days old (weight 1/2): (20 + 100 + 100) / 2.5 = 88.
	expect(body.data[0]).toMatchObject({ score: 88, tier: 'proficient', observation_count: 3 });
});
