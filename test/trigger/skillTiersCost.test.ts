/**
 * What Skill Tiers (every skill, one read a day) and a weekly Get Tier Changes (every skill) cost at
 * three workspace sizes (issue 40), counted in requests on the simulator's virtual clock, and the
 * largest static data the trigger keeps. Figures, printed; the assertions hold the design's bounds
 * (static data under 1 MiB, activation in two requests, events found) and, at 200 × 20, the figures
 * docs/triggers.md quotes (Skill Tiers, Cost): a change in cost changes both.
 *
 * Workload per size: members × skills, two scenarios per skill (every other one also evaluates the
 * next skill), history: every member has 3 observations in half the skills; each day S scored
 * sessions (08:00-18:00) on random scenarios by random members and C calls; the trigger reads at 06:00.
 * Sizes: SKILL_TIER_COST_SIZES="200x20,500x40,2000x80" (the default runs the smallest; the larger sizes are measured in the scale bench, `npm run bench -- --scale-only`, as one simulated day in its own process, and run out of jest's worker memory here).
 */
import type { IDataObject } from 'n8n-workflow';

import { ManualClock, SEED_NOW, startSimulator, type RunningSimulator } from '../../simulator';
import { mulberry32 } from '../../simulator/state/random';
import { PollHarness } from '../../n8n-harness/pollHarness';
import { runNode } from '../../n8n-harness/runNode';

// A pause (the poll's pacing to 50 requests a minute) moves the simulated clock instead of passing.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => clock.advance(ms),
}));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAYS = Number(process.env.SKILL_TIER_COST_DAYS ?? 15);

const WORKLOAD: Record<string, { sessions: number; calls: number }> = {
	'200x20': { sessions: 150, calls: 10 },
	'500x40': { sessions: 400, calls: 30 },
	'2000x80': { sessions: 1500, calls: 100 },
};
const SIZES = (process.env.SKILL_TIER_COST_SIZES ?? '200x20').split(',');

/**
 * What docs/triggers.md quotes (Skill Tiers, Cost: "Measured (read daily, skillTiersCost.test.ts ...)"):
 * requests a day in the first sweep cycle and after (mean and dearest day), the weekly digest, the
 * largest static data in kB.
 */
const DOCUMENTED: Record<string, Partial<Awaited<ReturnType<typeof measure>>>> = {
	'200x20': {
		firstCycleMean: 55,
		firstCycleMax: 60,
		steadyMean: 52,
		steadyMax: 55,
		weeklyDigest: 59,
		staticDataKb: 26,
	},
};

let clock: ManualClock;
beforeAll(() => {
	clock = new ManualClock(SEED_NOW);
	jest.spyOn(Date, 'now').mockImplementation(() => clock.now());
});
afterAll(() => jest.restoreAllMocks());

function populate(sim: RunningSimulator, skillCount: number, random: () => number): string[] {
	const { store } = sim.control;
	const now = clock.now();
	const skillIds: string[] = [];
	for (let n = 0; n < skillCount; n++) {
		const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
		store.data.skills.push({
			id,
			name: `Skill ${n}`,
			slug: `skill-${n}`,
			description: '',
			createdAt: now - 400 * DAY,
		});
		skillIds.push(id);
	}
	const template = store.data.scenarios[0];
	for (let n = 0; n < 2 * skillCount; n++) {
		const skill = Math.floor(n / 2);
		store.data.scenarios.push({
			...template,
			id: `scn-${n}`,
			name: `Scale Scenario ${n}`,
			slug: `scale-scenario-${n}`,
			skillIds:
				n % 2 === 0 ? [skillIds[skill]] : [skillIds[skill], skillIds[(skill + 1) % skillCount]],
			archived: false,
		});
	}
	for (const user of store.data.users.filter((u) => u.member))
		for (const skillId of skillIds)
			if (random() < 0.5)
				for (let k = 0; k < 3; k++)
					store.data.observations.push({
						userId: user.id,
						skillId,
						score: 20 + Math.floor(random() * 80),
						at: now - Math.floor(random() * 60 * DAY),
						kind: 'session',
					});
	return skillIds;
}

async function measure(size: string) {
	const [members, skills] = size.split('x').map(Number);
	const work = WORKLOAD[size] ?? { sessions: members * 0.75, calls: members / 20 };
	const random = mulberry32(members * 31 + skills);
	clock.set(Date.parse('2026-03-02T06:00:00.000Z'));
	const sim = await startSimulator({ clock, dataSize: { members } });
	try {
		const skillIds = populate(sim, skills, random);
		const { store } = sim.control;
		const people = store.data.users.filter((u) => u.member && !u.email.endsWith('@exec.com'));
		const scenarios = store.data.scenarios.filter((s) => s.id.startsWith('scn-'));
		const trigger = new PollHarness({
			parameters: {
				triggerOn: 'skillTiers',
				skillTierEvents: ['tierChanged'],
				skillTierSkills: [],
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		const count = () => sim.control.requests().length;
		const perDay: number[] = [];
		let bytes = 0;
		let events = 0;
		let start = count();
		await trigger.poll(); // activation
		const activation = count() - start;
		for (let day = 1; day <= DAYS; day++) {
			// The day's practice, 08:00 to 18:00, then the next morning's read.
			clock.advance(12 * HOUR); // 18:00
			for (let n = 0; n < work.sessions; n++)
				sim.control.addSession({
					userEmail: people[Math.floor(random() * people.length)].email,
					scenario: scenarios[Math.floor(random() * scenarios.length)].id,
					score: 20 + Math.floor(random() * 80),
					lateByMs: Math.floor(random() * 10 * HOUR),
				});
			for (let n = 0; n < work.calls; n++)
				sim.control.addObservation({
					userEmail: people[Math.floor(random() * people.length)].email,
					skillId: skillIds[Math.floor(random() * skillIds.length)],
					score: 20 + Math.floor(random() * 80),
					at: clock.now() - Math.floor(random() * 10 * HOUR),
				});
			clock.advance(12 * HOUR); // 06:00
			start = count();
			const read = await trigger.poll();
			if (read.error) throw new Error(`${size} day ${day}: ${read.error.message}`);
			events += read.items.length;
			perDay.push(count() - start);
			bytes = Math.max(bytes, Buffer.byteLength(JSON.stringify(trigger.stored)));
		}
		// The weekly digest: Get Tier Changes over every skill, the last 7 days.
		start = count();
		const digest = await runNode({
			parameters: {
				resource: 'skill',
				operation: 'getTierChanges',
				fromDate: new Date(clock.now() - 7 * DAY).toISOString(),
				toDate: new Date(clock.now()).toISOString(),
			},
			credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		});
		if (digest.error) throw new Error(`${size} digest: ${digest.error.message}`);
		const weekly = count() - start;
		const firstCycle = perDay.slice(0, 7);
		const steady = perDay.slice(7);
		const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
		const pairs = (trigger.stored.s ? Object.values(trigger.stored.s as IDataObject) : []).length;
		return {
			size,
			activation,
			firstCycleMean: mean(firstCycle),
			firstCycleMax: Math.max(...firstCycle),
			steadyMean: mean(steady),
			steadyMax: Math.max(...steady),
			weeklyDigest: weekly,
			digestDayMax: Math.max(...steady) + weekly,
			staticDataBytesMax: bytes,
			staticDataKb: Math.round(bytes / 1000),
			events,
			digestRows: digest.items.length,
			skillsKept: pairs,
		};
	} finally {
		await sim.close();
	}
}

test.each(SIZES)(
	'Skill Tiers and the weekly digest at %s: requests a day and static data',
	async (size) => {
		const figures = await measure(size);
		process.stdout.write(`skill tiers cost ${JSON.stringify(figures)}\n`);
		expect(figures.staticDataBytesMax).toBeLessThanOrEqual(1024 * 1024);
		// The skills list and one count of the members (the sweep's fit, logged when it cannot fit).
		expect(figures.activation).toBeLessThanOrEqual(2);
		expect(figures.events).toBeGreaterThan(0);
		const quoted = DOCUMENTED[size];
		if (quoted) expect(figures).toMatchObject(quoted);
	},
	1_800_000,
);
