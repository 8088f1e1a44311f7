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
		let score: number | null = null;
		if (mine.length >= 3) {
			const w = mine.map((o) => 2 ** (-(asOf - o.at) / (30 * DAY))); // rule 1: 30-day half-life
			const mean = mine.reduce((sum, o, i) => sum + o.score * w[i], 0) / w.reduce((a, b) => a + b);
			score = Math.round(mean * 10) / 10;
		}
		const tier =
			score === null
				? 'insufficient_data'
				: score >= 90
					? 'excellent'
					: score >= 75
						? 'proficient'
						: score >= 50
							? 'developing'
							: 'needs_work';
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
