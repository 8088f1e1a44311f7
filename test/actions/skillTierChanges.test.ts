/**
 * Skill → Get Tier Changes through the real engine against the simulator. Expected changes come from
 * the simulator's own state (its observations read as of each date), compared here by tier rank.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	ManualClock,
	SEED,
	SEED_NOW,
	startSimulator,
	type RunningSimulator,
} from '../../simulator';
import { runToolCalls } from '../../n8n-harness/runTool';
import { proficiency } from '../../simulator/state/analytics';
import { TIER_CHANGE_FIELDS } from '../../nodes/shared/skills/tierChange';
import { json, memberRows, rl, useSimulator } from './support';

const sim = useSimulator('skill');
const { run } = sim;
const DAY = 86_400_000;
const { skills, groups } = SEED;
const NEG = skills.negotiation.id; // no seeded observations: each test writes every input
const iso = (ms: number) => new Date(ms).toISOString();
const TO = SEED_NOW;
const FROM = SEED_NOW - 7 * DAY;
const dates = { fromDate: iso(FROM), toDate: iso(TO) };

const emailOf = (first: string) => SEED.members.find((m) => m.first_name === first)!.email;
const observe = (first: string, score: number, ...daysAgo: number[]) => {
	for (const days of daysAgo)
		sim.control.addObservation({
			userEmail: first.includes('@') ? first : emailOf(first),
			skillId: NEG,
			score,
			at: SEED_NOW - days * DAY,
		});
};

const RANK = ['insufficient_data', 'needs_work', 'developing', 'proficient', 'excellent'];

/** The oracle: every member's tier per skill as of each date, from the simulator's observations. */
function expectedChanges(
	skillIds: string[],
	from: number,
	to: number,
	keep: (email: string) => boolean = () => true,
): string[] {
	const { store } = sim.control;
	const out: string[] = [];
	for (const skillId of skillIds) {
		const obs = store.data.observations.filter((o) => o.skillId === skillId);
		const tierAt = (asOf: number) =>
			new Map(
				proficiency(obs, asOf)
					.filter((p) => store.userById(p.userId)?.member === true)
					.map((p) => [store.userById(p.userId)!.email, p.tier as string]),
			);
		const before = tierAt(from);
		for (const [email, tier] of tierAt(to)) {
			const old = before.get(email) ?? 'insufficient_data';
			if (old === tier || !keep(email)) continue;
			const dir =
				old === 'insufficient_data'
					? 'new'
					: RANK.indexOf(tier) > RANK.indexOf(old)
						? 'up'
						: 'down';
			out.push(`${email} ${skillId} ${old}→${tier} ${dir}`);
		}
	}
	return out.sort();
}

const asLines = (items: Array<{ json: IDataObject }>) =>
	json(items)
		.map(
			(c) =>
				`${(c.member as IDataObject).email as string} ${(c.skill as IDataObject).id as string} ${
					c.tier_before as string
				}→${c.tier_after as string} ${c.direction as string}`,
		)
		.sort();

/** Bob up, Carla down, Dev and Gina new; Erin unchanged; Frank has no tier either time. */
function plantNegotiation(): void {
	observe('Bob', 30, 20, 19, 18);
	observe('Bob', 100, 3, 2, 1, 0);
	observe('Carla', 97, 20, 19, 18);
	observe('Carla', 10, 3, 2, 1, 0);
	observe('Dev', 80, 20, 19);
	observe('Dev', 80, 1);
	observe('Erin', 80, 20, 19, 18);
	observe('Frank', 70, 1);
	observe('Gina', 95, 3, 2, 1);
	observe(SEED.systemUser.email, 95, 3, 2, 1);
}

describe('Skill → Get Tier Changes', () => {
	test('one skill: up, down and new, each named with tiers, scores and direction', async () => {
		plantNegotiation();
		const { items, error } = await run({
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: rl(NEG),
			...dates,
			simplify: false,
		});
		expect(error).toBeUndefined();
		expect(asLines(items)).toEqual(expectedChanges([NEG], FROM, TO));
		const by = (first: string) =>
			json(items).find((c) => (c.member as IDataObject).email === emailOf(first));
		expect(by('Bob')).toMatchObject({ tier_before: 'needs_work', direction: 'up' });
		expect(by('Carla')).toMatchObject({ tier_before: 'excellent', direction: 'down' });
		expect(by('Dev')).toMatchObject({
			tier_before: 'insufficient_data',
			score_before: null,
			direction: 'new',
		});
		expect(by('Gina')).toMatchObject({ tier_after: 'excellent', direction: 'new' });
		expect(by('Erin')).toBeUndefined();
		expect(by('Frank')).toBeUndefined();
		expect(Object.keys(by('Bob')!)).toEqual([...TIER_CHANGE_FIELDS]);
		expect(by('Bob')!.skill).toEqual({ id: NEG, name: skills.negotiation.name });
		expect(by('Bob')!.score_before).toBeLessThan(50);
		expect(by('Bob')!.score_after as number).toBeGreaterThan(75);
		expect(by('Bob')!.summary).toMatch(/^Bob .+: .+ needs work → \w+ \([\d.]+ → [\d.]+\)$/);
		// The skills list (for the name), then the two readings.
		expect(sim.control.requests().map((r) => [r.path, r.query.end_date])).toEqual([
			['/skills', undefined],
			[`/skills/${NEG}/proficiency`, iso(FROM)],
			[`/skills/${NEG}/proficiency`, iso(TO)],
		]);
	});

	test('every skill (the default): the oracle over every skill of the workspace', async () => {
		plantNegotiation();
		const from = SEED_NOW - 20 * DAY;
		const { items, error } = await run({
			operation: 'getTierChanges',
			fromDate: iso(from),
			toDate: iso(TO),
		});
		expect(error).toBeUndefined();
		const all = Object.values(skills).map((s) => s.id);
		const expected = expectedChanges(all, from, TO);
		expect(asLines(items)).toEqual(expected);
		// More than the planted skill moved: the seeded practice counts too.
		expect(new Set(expected.map((line) => line.split(' ')[1])).size).toBeGreaterThan(1);
		// One skills read, then two per skill.
		expect(sim.control.requests()).toHaveLength(1 + 2 * all.length);
	});

	test('group and member filters and Exclude System Users go on both readings', async () => {
		plantNegotiation();
		const params = {
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: rl(NEG, 'id'),
			...dates,
		};
		const withSystem = await run(params);
		expect(asLines(withSystem.items).join()).toContain(SEED.systemUser.email);
		sim.control.reset();
		plantNegotiation();
		const { items } = await run({ ...params, filters: { exclude_system_users: true } });
		expect(asLines(items)).toEqual(
			expectedChanges([NEG], FROM, TO, (email) => email !== SEED.systemUser.email),
		);
		sim.control.reset();
		plantNegotiation();
		const grouped = await run({
			...params,
			filters: {
				group_ids: [groups.customerSuccess.id],
				members: memberRows([emailOf('Bob'), 'email']),
			},
		});
		const readings = sim.control.requests().filter((r) => r.path.endsWith('/proficiency'));
		expect(readings).toHaveLength(2);
		for (const r of readings) {
			expect(r.query).toMatchObject({
				group_ids: groups.customerSuccess.id,
				user_emails: emailOf('Bob'),
			});
		}
		// Bob is not in Customer Success: both filters must hold, so nobody is left.
		expect(grouped.items).toEqual([]);
	});

	test('default dates: now and 7 days before, whole seconds', async () => {
		const before = Math.floor(Date.now() / 1000) * 1000;
		const { error } = await run({ operation: 'getTierChanges', skillScope: 'one', skill: rl(NEG) });
		expect(error).toBeUndefined();
		const [from, to] = sim.control
			.requests()
			.filter((r) => r.path.endsWith('/proficiency'))
			.map((r) => Date.parse(r.query.end_date));
		expect(to).toBeGreaterThanOrEqual(before);
		expect(to).toBeLessThanOrEqual(Date.now());
		expect(to % 1000).toBe(0);
		expect(to - from).toBe(7 * DAY);
	});

	test('Simplify (on by default) keeps what a digest needs', async () => {
		plantNegotiation();
		const { items } = await run({
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: rl(NEG),
			...dates,
		});
		expect(items.length).toBeGreaterThan(0);
		for (const item of json(items))
			expect(Object.keys(item)).toEqual([
				'member',
				'skill',
				'tier_before',
				'tier_after',
				'score_before',
				'score_after',
				'direction',
				'summary',
			]);
	});

	test.each([
		[{ fromDate: iso(TO), toDate: iso(FROM) }, 'Compare From: must be before Compare To'],
		[{ fromDate: 'last week' }, 'Compare From: must be an ISO 8601 date-time'],
		[{ toDate: '2026-13-01' }, 'Compare To: must be an ISO 8601 date-time'],
		[{ skillScope: 'one', skill: rl('={{ "sk-123" }}', 'id') }, 'Skill ID: must be a UUID'],
		[{ skillScope: 'one', skill: rl('={{ "" }}', 'id') }, 'Skill ID'],
		[
			{ filters: { members: memberRows(['={{ "bob" }}', 'email']) } },
			'Members (row 1): must be an e-mail address',
		],
	])('bad input %j fails before any request', async (parameters, message) => {
		const { error } = await run({ operation: 'getTierChanges', ...parameters });
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});
});

describe('Skill → Get Tier Changes as an AI tool', () => {
	let own: RunningSimulator;
	beforeAll(async () => {
		own = await startSimulator({ clock: new ManualClock() });
	});
	afterAll(async () => await own.close());

	test('the model picks the dates; the answer is the digest-ready changes', async () => {
		for (const [who, score, days] of [
			['bob@acme.com', 30, [20, 19, 18]],
			['bob@acme.com', 100, [3, 2, 1, 0]],
		] as Array<[string, number, number[]]>)
			for (const d of days)
				own.control.addObservation({
					userEmail: who,
					skillId: NEG,
					score,
					at: SEED_NOW - d * DAY,
				});
		const { answers } = await runToolCalls({
			parameters: {
				resource: 'skill',
				operation: 'getTierChanges',
				skillScope: 'one',
				skill: rl(NEG, 'id'),
				fromDate: "={{ $fromAI('from', 'Earlier date, ISO 8601', 'string') }}",
				toDate: "={{ $fromAI('to', 'Later date, ISO 8601', 'string') }}",
			},
			calls: [
				{ from: iso(FROM), to: iso(TO) },
				{ from: 'yesterday', to: iso(TO) },
			],
			credentials: { baseUrl: own.baseUrl, apiKey: own.apiKey },
		});
		const [change] = answers[0].answer as IDataObject[];
		expect(change).toMatchObject({ tier_before: 'needs_work', direction: 'up' });
		expect(Object.keys(change)).toContain('summary');
		expect(String(answers[1].error)).toContain('Compare From: must be an ISO 8601 date-time');
	});
});
