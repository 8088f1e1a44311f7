/**
 * Skill → Get Tier Changes through the real engine against the simulator. Expected changes come from
 * the simulator's own state (its observations read as of each date), compared here by tier rank.
 * Practice is planted as scored roleplay sessions (observations of their scenario's skills); calls
 * (observations no list shows) are compared only with Read Every Member.
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
import { TIER_CHANGE_FIELDS } from '../support/tierChangeFields';
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
/** Scored sessions on Renewal Negotiation (it evaluates Negotiation only), `daysAgo` back. */
const observe = (first: string, score: number, ...daysAgo: number[]) => {
	for (const days of daysAgo)
		sim.control.addSession({
			userEmail: first.includes('@') ? first : emailOf(first),
			scenario: 'renewal-negotiation',
			score,
			lateByMs: days * DAY,
		});
};
/** Calls: observations of Negotiation that no list shows. */
const call = (first: string, score: number, ...daysAgo: number[]) => {
	for (const days of daysAgo)
		sim.control.addObservation({
			userEmail: emailOf(first),
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
		expect(asLines(items)).toEqual(
			expectedChanges([NEG], FROM, TO, (email) => email !== SEED.systemUser.email),
		);
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
		// The skills list (for the name), the sessions on the skill, then the two readings of those
		// who practised, each pinned to its date.
		const requests = sim.control.requests();
		expect(requests.map((r) => [r.path, r.query.end_date])).toEqual([
			['/skills', undefined],
			['/sessions', iso(TO)],
			[`/skills/${NEG}/proficiency`, iso(TO)],
			[`/skills/${NEG}/proficiency`, iso(FROM)],
		]);
		expect(requests[1].query).toMatchObject({ skill_ids: NEG, start_date: iso(FROM) });
		expect(requests[2].query.user_ids.split(',').length).toBe(5); // Bob, Carla, Dev, Erin, Gina
	});

	test('every skill (the default): the oracle over every skill, calls left out unless Read Every Member', async () => {
		plantNegotiation();
		const from = SEED_NOW - 20 * DAY;
		const params = { operation: 'getTierChanges', fromDate: iso(from), toDate: iso(TO) };
		const all = Object.values(skills).map((s) => s.id);
		const noSystem = (email: string) => email !== SEED.systemUser.email;
		const expected = expectedChanges(all, from, TO, noSystem);
		// More than the planted skill moved: the seeded practice counts too.
		expect(new Set(expected.map((line) => line.split(' ')[1])).size).toBeGreaterThan(1);
		const every = await run({ ...params, options: { everyMember: true } });
		expect(every.error).toBeUndefined();
		expect(asLines(every.items)).toEqual(expected);

		// The default reads who practised: the seeded calls (Frank's first tier) are not seen.
		sim.control.clearRequests();
		const { items, error } = await run(params);
		expect(error).toBeUndefined();
		const frank = (line: string) => line.startsWith(emailOf('Frank'));
		expect(expected.some(frank)).toBe(true);
		expect(asLines(items)).toEqual(expected.filter((line) => !frank(line)));
		// The skills, the sessions, the scenarios' skills, then two readings per skill practised.
		const readings = sim.control.requests().filter((r) => r.path.endsWith('/proficiency'));
		expect(
			sim.control
				.requests()
				.map((r) => r.path)
				.slice(0, 3),
		).toEqual(['/skills', '/sessions', '/scenarios']);
		expect(sim.control.requests()).toHaveLength(3 + readings.length);
		expect(readings.length).toBeLessThanOrEqual(2 * all.length);
	});

	test('system users left out unless Include System Users; group and member filters on every read', async () => {
		plantNegotiation();
		const params = {
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: rl(NEG, 'id'),
			...dates,
		};
		const { items } = await run(params);
		expect(asLines(items)).toEqual(
			expectedChanges([NEG], FROM, TO, (email) => email !== SEED.systemUser.email),
		);
		for (const r of sim.control.requests().filter((r) => r.path !== '/skills'))
			expect(r.query.exclude_system_users).toBe('true');
		sim.control.reset();
		plantNegotiation();
		const withSystem = await run({ ...params, options: { includeSystemUsers: true } });
		expect(asLines(withSystem.items)).toEqual(expectedChanges([NEG], FROM, TO));
		expect(asLines(withSystem.items).join()).toContain(SEED.systemUser.email);
		sim.control.reset();
		plantNegotiation();
		const grouped = await run({
			...params,
			filters: {
				group_ids: [groups.customerSuccess.id],
				members: memberRows([emailOf('Bob'), 'email']),
			},
		});
		const [sessions] = sim.control.requests().filter((r) => r.path === '/sessions');
		expect(sessions.query).toMatchObject({
			group_ids: groups.customerSuccess.id,
			user_emails: emailOf('Bob'),
		});
		// Bob is not in Customer Success: both filters must hold, so nobody is left (and not read).
		expect(grouped.items).toEqual([]);
		expect(sim.control.requests().filter((r) => r.path.endsWith('/proficiency'))).toEqual([]);
	});

	test('default dates: now and 7 days before, whole seconds', async () => {
		const before = Math.floor(Date.now() / 1000) * 1000;
		const { error } = await run({ operation: 'getTierChanges', skillScope: 'one', skill: rl(NEG) });
		expect(error).toBeUndefined();
		const [sessions] = sim.control.requests().filter((r) => r.path === '/sessions');
		const [from, to] = [sessions.query.start_date, sessions.query.end_date].map(Date.parse);
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

	test('calls alone: left out by default (no list shows them), compared with Read Every Member', async () => {
		call('Bob', 30, 20, 19, 18);
		call('Bob', 100, 3, 2, 1, 0);
		observe('Carla', 80, 3, 2, 1); // a session: found either way
		const params = { operation: 'getTierChanges', skillScope: 'one', skill: rl(NEG), ...dates };
		const lines = (items: Array<{ json: IDataObject }>) =>
			json(items).map(
				(c) => `${(c.member as IDataObject).email as string} ${c.direction as string}`,
			);
		expect(lines((await run(params)).items)).toEqual([`${emailOf('Carla')} new`]);
		sim.control.clearRequests();
		const every = await run({ ...params, options: { everyMember: true } });
		expect(asLines(every.items)).toEqual(
			expectedChanges([NEG], FROM, TO, (email) => email !== SEED.systemUser.email),
		);
		expect(lines(every.items).sort()).toEqual([`${emailOf('Bob')} up`, `${emailOf('Carla')} new`]);
		// Every row as of To, then those who practised after From as of From; no sessions read.
		expect(sim.control.requests().map((r) => r.path)).toEqual([
			'/skills',
			`/skills/${NEG}/proficiency`,
			`/skills/${NEG}/proficiency`,
		]);
	});

	test("counts before and after are the readings' own; new is true exactly for a first tier", async () => {
		observe('Bob', 40, 20, 19, 18, 17, 16); // 5 observations before From
		observe('Bob', 100, 3, 2, 1, 0, 0); // 5 more after
		observe('Dev', 80, 3, 2, 1);
		const { items } = await run({
			operation: 'getTierChanges',
			skillScope: 'one',
			skill: rl(NEG),
			...dates,
			simplify: false,
		});
		const by = (first: string) =>
			json(items).find((c) => (c.member as IDataObject).email === emailOf(first));
		expect(by('Bob')).toMatchObject({
			observation_count_before: 5,
			observation_count_after: 10,
			new: false,
			direction: 'up',
		});
		expect(by('Dev')).toMatchObject({
			observation_count_before: 0,
			observation_count_after: 3,
			new: true,
			tier_before: 'insufficient_data',
		});
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
				own.control.addSession({
					userEmail: who,
					scenario: 'renewal-negotiation',
					score,
					lateByMs: own.control.clock.now() - (SEED_NOW - d * DAY),
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
