/**
 * Issue 55: a skill's first sweep reads each member once, and as of the skill's start only the members
 * it does not know who practised since (100 a request, across pages). A member with no observation
 * since the start stands as then (spec 4.3: the score is a weighted mean of the observations, so the
 * same observations give the same score as of any instant). Before, every page's unknown members were
 * read again as of the start: a first sweep cost twice its pages, and at 2,000 members × 80 skills the
 * first cycle took about 40 nights, past Sweep Every (Days) 30 (the bench's day 32 counted 1,196
 * changes from calls alone sent late).
 *
 * The oracle is the simulator's proficiency as of the activation and as of the read (spec 4.3's as-of
 * reading): every member whose tier differs is one Tier Changed, from the tier then (none: "new"), and
 * no other. Once with a poll that holds the whole read, once with polls the deadline cuts (the members
 * held back then are read by name at the next poll).
 */
import type { IDataObject } from 'n8n-workflow';

import { isSystemUser } from '../../simulator/routes/common';
import { proficiency } from '../../simulator/state/analytics';
import { mulberry32 } from '../../simulator/state/random';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { useSweepWorkspace } from './sweepWorkspace';

// A pause (the poll's pacing to 50 requests a minute) moves the simulated clock instead of passing.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => ws.clock.advance(ms),
}));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MEMBERS = 1000;
const SKILLS = 6;
/** Members with calls (no session) on each skill between the activation and the read. */
const CALLED = 150;

const ws = useSweepWorkspace(MEMBERS, SKILLS, 557, true);

/** The tiers as of `at` of the trigger's scope: the members, system users left out (its default). */
const tiersAt = (skillId: string, at: number) => {
	const { store } = ws.sim.control;
	const inScope = (id: string) => {
		const user = store.userById(id);
		return user?.member === true && !isSystemUser(user);
	};
	const observations = store.data.observations.filter((o) => o.skillId === skillId);
	return new Map(
		proficiency(observations, at)
			.filter((p) => inScope(p.userId))
			.map((p) => [p.userId, p.tier]),
	);
};

test.each([
	['a poll holds the whole read', undefined],
	["polls the deadline cuts (27 s each: the key's 50 requests a minute)", 27_000],
])(
	'a first sweep: every change once, one reading as of the start per 100 called: %s',
	async (_, budget) => {
		const trigger = new PollHarness({
			parameters: {
				triggerOn: 'skillTiers',
				skillTierEvents: ['tierChanged'],
				skillTierOptions: { sweepDays: 1 },
			},
			credentials: { baseUrl: ws.sim.baseUrl, apiKey: ws.sim.apiKey },
			workflow: { id: 'first-sweep', name: 'Tier alerts' },
			pollBudgetMs: budget,
		});
		expect((await trigger.poll()).error).toBeUndefined();
		const activatedAt = Math.floor(ws.clock.now() / 1000) * 1000;
		// Calls alone after the activation: CALLED members of each skill, three low or high scores each.
		const { store } = ws.sim.control;
		const random = mulberry32(58);
		const members = store.data.users.filter((u) => u.member).map((u) => u.id);
		const skills = store.data.skills.map((s) => s.id);
		for (const skillId of skills)
			for (const userId of [...members].sort(() => random() - 0.5).slice(0, CALLED))
				for (let k = 0; k < 3; k++)
					store.data.observations.push({
						userId,
						skillId,
						score: random() < 0.5 ? 10 : 99,
						at: activatedAt + HOUR + Math.floor(random() * 10 * HOUR),
						kind: 'call',
					});
		ws.clock.advance(24 * HOUR);
		const readAt = Math.floor(ws.clock.now() / 1000) * 1000;
		ws.sim.control.clearRequests();
		const items: IDataObject[] = [];
		let polls = 0;
		while (polls++ < 40) {
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			items.push(...outcome.items.map((item) => item.json));
			if ((trigger.stored as IDataObject).continues !== true) break;
			ws.clock.advance(MINUTE);
		}
		expect((trigger.stored as IDataObject).continues).not.toBe(true);
		if (budget !== undefined) expect(polls).toBeGreaterThan(1);

		// Every skill swept at this read, and every change once against the oracle.
		const swept = (trigger.stored as IDataObject).s as Record<string, number[]>;
		const expected: string[] = [];
		for (const skillId of skills) {
			expect(swept[skillId][1] * 1000).toBe(readAt);
			const then = tiersAt(skillId, activatedAt);
			for (const [userId, tier] of tiersAt(skillId, readAt))
				if (tier !== (then.get(userId) ?? 'insufficient_data'))
					expected.push(`${skillId}|${userId}|${then.get(userId) ?? 'insufficient_data'}→${tier}`);
		}
		const sent = items.map(
			(item) =>
				`${(item.skill as IDataObject).id}|${(item.member as IDataObject).id}|${item.tier_before}→${item.tier_after}`,
		);
		expect(expected.length).toBeGreaterThan(SKILLS * 10);
		expect([...sent].sort()).toEqual([...expected].sort());

		// The cost: each skill's pages, and per skill one reading as of the start per 100 called members
		// (two more per 100 where a cut left them to be read by name, now and then). Before: a reading as
		// of the start on every page (20 requests a skill here, not 2).
		const requests = ws.sim.control.requests().filter((r) => r.path.endsWith('/proficiency'));
		const pages = requests.filter((r) => r.query.user_ids === undefined).length;
		const asOfStart = requests.filter(
			(r) =>
				r.query.user_ids !== undefined && r.query.end_date === new Date(activatedAt).toISOString(),
		).length;
		process.stdout.write(
			`first sweep ${JSON.stringify({ budget, polls, pages, asOfStart, requests: requests.length })}\n`,
		);
		expect(asOfStart).toBeLessThanOrEqual(SKILLS * Math.ceil(CALLED / 100) + (budget ? polls : 0));
		expect(requests.length - pages).toBeLessThanOrEqual(asOfStart + (budget ? 2 * polls : 0));
	},
);
