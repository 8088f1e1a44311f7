/**
 * Issue 47 for Skill Tiers: a read larger than one poll's budget, in virtual time. The workspace the
 * issue measured: 1,000 members × 25 skills after 3,000 scored sessions, one read of about 130
 * requests paced to 50 a minute (POLL_PACE), each answered in half a second. n8n 2.41's durable
 * scheduler is emulated (pollTimeoutMs 45 s: budget 36 s, a longer poll abandoned); polls run a
 * minute apart. The read is pinned to one instant and goes on over several polls; every tier change
 * is judged per member and skill against the service's own readings (the simulator's proficiency as of
 * the trigger's starting point and as of the read's instant).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PollHarness, PollOutcome } from '../../n8n-harness/pollHarness';
import { durableBudgetMs } from '../../n8n-harness/pollHarness';
import { proficiency } from '../../simulator/state/analytics';
import { mulberry32 } from '../../simulator/state/random';
import type { ObservationRec } from '../../simulator/state/types';
import { startRig, type TriggerRig } from './setup';
import { advanceVirtualTime } from './slowService';
import { DAY, HOUR, MINUTE, TierWorld } from './tierWorld';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const TIMEOUT = 45_000;
const BUDGET = durableBudgetMs(TIMEOUT);
const LATENCY = Number(process.env.SKILL_TIER_BUDGET_LATENCY_MS ?? 500);
const MEMBERS = Number(process.env.SKILL_TIER_BUDGET_MEMBERS ?? 1000);
const SKILLS = 25;
const SESSIONS = Number(process.env.SKILL_TIER_BUDGET_SESSIONS ?? 3000);

let rig: TriggerRig;
beforeAll(async () => {
	rig = await startRig();
});
afterAll(async () => rig.close());

/**
 * Each test on a timeline of its own, later than the last one's end: the pacer's minute (kept per key
 * in the process) never holds a place from an earlier test.
 */
let timeline = DAY;
beforeEach(() => {
	rig.reset(timeline);
	// Date.now is the service's clock: the read's instant and the sessions' created_at are one time.
	rig.slow.start(LATENCY);
	jest.spyOn(Date, 'now').mockImplementation(() => rig.clock.now());
});
afterEach(() => {
	timeline = rig.clock.now() - Date.parse('2026-03-16T12:00:00.000Z') + DAY;
	rig.slow.stop();
});

interface Workspace {
	world: TierWorld;
	trigger: PollHarness;
	/** The trigger's starting point (its first read's instant). */
	baseline: number;
}

const PARAMETERS = {
	triggerOn: 'skillTiers',
	skillTierEvents: ['tierChanged'],
	skillTierSkills: [],
};

/**
 * The workspace, the trigger's starting point taken, then the sessions: every member has three
 * observations in about 40% of the skills from before; `sessions` scored sessions follow, 5 s apart.
 */
async function workspace(
	options: {
		maxReadsPerDay?: number;
		harness?: Parameters<TriggerRig['harness']>[1];
		members?: number;
		skills?: number;
		sessions?: number;
		/** Calls dated between the starting point and the read: changes only a sweep finds. */
		calls?: number;
		sweepDays?: number;
	} = {},
): Promise<Workspace> {
	const { control } = rig.sim;
	const { members = MEMBERS, skills = SKILLS, sessions = SESSIONS, calls = 0 } = options;
	const rand = mulberry32(47_000 + members);
	const world = new TierWorld(
		control,
		rand,
		{ members, skills, groups: 0, systemUsers: 0 },
		rig.clock.now(),
	);
	const history: ObservationRec[] = control.store.data.observations;
	const now = rig.clock.now();
	for (const m of world.members)
		for (const s of world.skills)
			if (rand() < 0.4)
				for (let k = 0; k < 3; k++)
					history.push({
						userId: m.id,
						skillId: s.id,
						score: 20 + Math.floor(rand() * 80),
						at: now - DAY - Math.floor(rand() * 60 * DAY),
						kind: 'session',
					});
	const trigger = rig.harness(
		{
			...PARAMETERS,
			skillTierOptions: {
				maxReadsPerDay: options.maxReadsPerDay ?? 0,
				...(options.sweepDays === undefined ? {} : { sweepDays: options.sweepDays }),
			},
		},
		options.harness ?? { pollTimeoutMs: TIMEOUT },
	);
	if (options.harness?.persistence === 'emit-only') emitOnly.add(trigger);
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	const baseline = stateOf(trigger).asOf as number;
	expect(baseline).toBeGreaterThan(0);
	advanceVirtualTime(HOUR);
	for (let n = 0; n < sessions; n++) {
		const member = world.members[Math.floor(rand() * world.members.length)];
		const scenario = world.scenarios[Math.floor(rand() * world.scenarios.length)];
		control.addSession({
			userEmail: member.email,
			scenario: scenario.id,
			score: 20 + Math.floor(rand() * 80),
		});
		advanceVirtualTime(5_000);
	}
	for (let n = 0; n < calls; n++) {
		const member = world.members[Math.floor(rand() * world.members.length)];
		const skill = world.skills[Math.floor(rand() * world.skills.length)];
		control.addObservation({
			userEmail: member.email,
			skillId: skill.id,
			score: 20 + Math.floor(rand() * 80),
			at: rig.clock.now() - Math.floor(rand() * HOUR),
			kind: 'call',
		});
		advanceVirtualTime(60_000);
	}
	advanceVirtualTime(MINUTE);
	return { world, trigger, baseline };
}

const emitOnly = new WeakSet<PollHarness>();

/**
 * The trigger's state between polls: what n8n stored (the durable scheduler commits every poll), or
 * under n8n 1.x's emit-only persistence the live static data (stored only when a poll emits).
 */
const stateOf = (trigger: PollHarness): IDataObject =>
	emitOnly.has(trigger)
		? (JSON.parse(
				JSON.stringify(trigger.workflow.getStaticData('node', trigger.node)),
			) as IDataObject)
		: trigger.stored;

/** The service's tier of a member in a skill as of an instant (the simulator's own rule). */
function tierOf(
	skillId: string,
	userId: string,
	asOf: number,
	byPair: Map<string, ObservationRec[]>,
) {
	return (
		proficiency(byPair.get(`${skillId}|${userId}`) ?? [], asOf)[0]?.tier ?? 'insufficient_data'
	);
}

/**
 * Judges the events of one read: every member and skill whose tier as of the read's instant differs
 * from its tier at the starting point is emitted exactly once, from the one to the other; nothing else.
 */
function judge(
	{ world, baseline }: Workspace,
	events: IDataObject[],
	readAt: number,
): { expected: number; missed: number; duplicates: number; wrong: number } {
	const byPair = new Map<string, ObservationRec[]>();
	for (const o of rig.sim.control.store.data.observations) {
		const key = `${o.skillId}|${o.userId}`;
		byPair.set(key, [...(byPair.get(key) ?? []), o]);
	}
	const emitted = new Map<string, IDataObject[]>();
	for (const json of events) {
		const key = `${String((json.skill as IDataObject).id)}|${String((json.member as IDataObject).id)}`;
		emitted.set(key, [...(emitted.get(key) ?? []), json]);
	}
	let expected = 0;
	let missed = 0;
	let wrong = 0;
	for (const s of world.skills)
		for (const m of world.members) {
			const key = `${s.id}|${m.id}`;
			const [before, after] = [baseline, readAt].map((at) => tierOf(s.id, m.id, at, byPair));
			const got = emitted.get(key) ?? [];
			emitted.delete(key);
			if (before === after) {
				wrong += got.length;
				continue;
			}
			expected++;
			if (got.length === 0) missed++;
			else if (got[0].tier_before !== before || got[0].tier_after !== after) wrong++;
		}
	// Events of pairs outside the workspace's members and skills are wrong too.
	wrong += [...emitted.values()].flat().length;
	const duplicates =
		events.length - new Set(events.map((e) => JSON.stringify([e.skill, e.member]))).size;
	return { expected, missed, duplicates, wrong };
}

interface Drained {
	events: IDataObject[];
	polls: number;
	requests: number;
	largestState: number;
	largestProgress: number;
	finalState: number;
	/** The instants the events' readings are as of (`to`). */
	readAt: Set<number>;
}

/**
 * Polls a minute apart until the read under way is done (no `continues` kept), checking each poll: no
 * error, not abandoned, back within the budget, nothing sent after an abandon. `between` runs after
 * each poll (a restart).
 */
async function drain(
	trigger: PollHarness,
	maxPolls = 12,
	between?: (poll: number) => void,
): Promise<Drained> {
	const run: Drained = {
		events: [],
		polls: 0,
		requests: 0,
		largestState: 0,
		largestProgress: 0,
		finalState: 0,
		readAt: new Set(),
	};
	do {
		const [start, sent] = [Date.now(), rig.slow.sent];
		const outcome: PollOutcome = await trigger.poll();
		expect(outcome.error).toBeUndefined();
		expect(outcome.abandoned).toBeUndefined();
		expect(Date.now() - start).toBeLessThanOrEqual(BUDGET);
		run.polls++;
		run.requests += rig.slow.sent - sent;
		const stored = stateOf(trigger);
		run.largestState = Math.max(run.largestState, JSON.stringify(stored).length);
		run.largestProgress = Math.max(run.largestProgress, JSON.stringify(stored.r ?? {}).length);
		for (const { json } of outcome.items) {
			run.events.push(json);
			run.readAt.add(Date.parse(String(json.to)));
		}
		between?.(run.polls);
		advanceVirtualTime(MINUTE);
	} while (stateOf(trigger).continues === true && run.polls < maxPolls);
	expect(stateOf(trigger).continues).toBeUndefined();
	expect(trigger.sentAfterAbandon).toBe(0);
	run.finalState = JSON.stringify(stateOf(trigger)).length;
	return run;
}

/** The progress of one read stays within its bound: a bitmap per skill and the members no tier names. */
const PROGRESS_BOUND = SKILLS * (Math.ceil(MEMBERS / 6) + 45) + MEMBERS * 39 + 200;

const figures = (name: string, run: Drained, verdict: object) =>
	process.stdout.write(
		`Skill Tiers ${MEMBERS} × ${SKILLS} after ${SESSIONS} sessions, ${name}: ${JSON.stringify({
			...verdict,
			polls: run.polls,
			requests: run.requests,
			largestState: run.largestState,
			largestProgress: run.largestProgress,
			finalState: run.finalState,
		})}\n`,
	);

describe(`Skill Tiers, ${MEMBERS} members × ${SKILLS} skills, 36 s budget, 50 requests a minute`, () => {
	test('one read over several polls: every tier change once, none missed, no poll abandoned', async () => {
		const ws = await workspace();
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		const run = await drain(ws.trigger, 80);
		expect(run.polls).toBeGreaterThan(1);
		// One read: every event is as of the instant the read was pinned to.
		expect([...run.readAt]).toEqual([readAt]);
		expect(stateOf(ws.trigger).asOf).toBe(readAt);
		const verdict = judge(ws, run.events, readAt);
		figures('durable scheduler', run, verdict);
		expect(verdict).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
		expect(verdict.expected).toBeGreaterThan(100);
		expect(run.largestProgress).toBeLessThanOrEqual(PROGRESS_BOUND);
		expect(run.largestState).toBeLessThanOrEqual(run.finalState + PROGRESS_BOUND);
		// Nothing more, nothing again.
		for (let i = 0; i < 2; i++) {
			advanceVirtualTime(MINUTE);
			const next = await ws.trigger.poll();
			expect(next.error).toBeUndefined();
			expect(next.items).toEqual([]);
		}
	});

	test('two polls started together make one read', async () => {
		const ws = await workspace();
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		const together = await ws.trigger.pollTogether();
		expect(together.map((o) => o.error)).toEqual([undefined, undefined]);
		// One of them read; the other sent nothing, emitted nothing.
		expect(together.filter((o) => o.items.length > 0).length).toBeLessThanOrEqual(1);
		const first = together.flatMap((o) => o.items.map((i) => i.json));
		advanceVirtualTime(MINUTE);
		const run = await drain(ws.trigger);
		const verdict = judge(ws, [...first, ...run.events], readAt);
		expect(verdict).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
	});

	test('a poll abandoned in the middle of a continued read sends nothing after it and loses nothing', async () => {
		const ws = await workspace();
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		const first = await ws.trigger.poll();
		expect(first.error).toBeUndefined();
		expect(ws.trigger.stored.continues).toBe(true);
		advanceVirtualTime(MINUTE);
		const before = ws.trigger.stored;
		// The service slows down in the middle of the next poll: one answer takes 50 s, past n8n's timeout.
		rig.proxy.onRequest((count) => {
			if (count === 3) rig.slow.latencyMs = 50_000;
		});
		const abandoned = await ws.trigger.poll();
		expect(abandoned).toMatchObject({ abandoned: true, items: [] });
		expect(ws.trigger.sentAfterAbandon).toBe(0);
		expect(ws.trigger.stored).toEqual(before);
		rig.proxy.onRequest(undefined);
		rig.slow.latencyMs = LATENCY;
		advanceVirtualTime(MINUTE);
		const run = await drain(ws.trigger);
		const events = [...first.items.map((i) => i.json), ...run.events];
		expect(judge(ws, events, readAt)).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
	});

	test('n8n 1.x (emit-only): restarts in the middle of a continued read lose and repeat nothing', async () => {
		const ws = await workspace({
			harness: { persistence: 'emit-only', pollBudgetMs: BUDGET },
		});
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		// n8n restarts after every poll of the read: what a poll that emitted nothing kept is lost.
		let restartsMidRead = 0;
		const run = await drain(ws.trigger, 12, () => {
			if (stateOf(ws.trigger).continues === true) restartsMidRead++;
			ws.trigger.restart();
		});
		expect(restartsMidRead).toBeGreaterThan(0);
		const verdict = judge(ws, run.events, readAt);
		figures('emit-only, a restart after every poll', run, verdict);
		expect(verdict).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
	});

	test('Max Reads a Day 1: a read continued over several polls spends one read', async () => {
		const ws = await workspace({ maxReadsPerDay: 1 });
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		const run = await drain(ws.trigger);
		expect(run.polls).toBeGreaterThan(1);
		expect(judge(ws, run.events, readAt)).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
		// The day's read is spent once: the next polls that day send nothing.
		const sent = rig.slow.sent;
		for (let i = 0; i < 3; i++) {
			advanceVirtualTime(10 * MINUTE);
			expect((await ws.trigger.poll()).error).toBeUndefined();
		}
		expect(rig.slow.sent).toBe(sent);
	});

	test('a sweep larger than a poll is read a page at a time over several polls: calls-only changes once', async () => {
		rig.slow.latencyMs = 10_000;
		const ws = await workspace({ members: 300, skills: 3, sessions: 0, calls: 600, sweepDays: 1 });
		// A day later every skill is due for its sweep.
		advanceVirtualTime(DAY);
		const readAt = Math.floor(Date.now() / 1000) * 1000;
		const run = await drain(ws.trigger, 40);
		const verdict = judge(ws, run.events, readAt);
		process.stdout.write(
			`Skill Tiers 300 × 3, every skill swept at 10 s a request: ${JSON.stringify({ ...verdict, polls: run.polls, requests: run.requests, largestProgress: run.largestProgress })}\n`,
		);
		expect(verdict).toMatchObject({ missed: 0, duplicates: 0, wrong: 0 });
		expect(verdict.expected).toBeGreaterThan(20);
		expect(run.polls).toBeGreaterThan(3);
		for (const id of ws.world.skills.map((s) => s.id))
			expect((ws.trigger.stored.s as Record<string, number[]>)[id][1] * 1000).toBe(readAt);
	});
});
