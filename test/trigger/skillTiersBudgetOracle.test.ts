/**
 * Skill Tiers under n8n's poll budget (issue 47): reproducible sequences against a slow service, with
 * the stories of budgetStories.ts (reads cut by the 36 s budget and continued, polls started together
 * or during a read, polls abandoned by the durable scheduler, restarts with empty memory between polls
 * and during a read, n8n 1.x's emit-only static data, sessions logged between two pages of a read,
 * declared failures) and Options → Max Reads a Day 1 with a read continued over polls.
 *
 * The oracle is written from the spec (4.3) and docs/triggers.md alone: the expected tiers are
 * computed from the observations this test logged (tierWorld.ts), never read from the trigger. Per
 * pair (member, skill), all in scope for the whole sequence (every skill, no filters, no edits):
 * - each event chains: tier_before is the pair's last tier_after (the first: its reading as of the
 *   event's `from`, the baseline), and differs from tier_after; tier_after is the reading as of `to`;
 * - duplicate: an event whose change (before>after) the pair already had, not chaining; unexpected:
 *   any other event that does not chain; wrong: tier_after not the reading as of `to`;
 * - missed: after a sweep period of quiet days (each day's read continued until done), a pair whose
 *   last reported tier (or baseline) is not its reading now.
 * - Polls as in budgetStories.ts (no request after an abandon; a poll during the read acts not; failures
 *   declared; Max Reads a Day 1: the read continued the same day, no request after it until the refill).
 *
 * Two describe blocks: the legacy poller (a read fits in five minutes; polls together or during a read,
 * restarts) and reads cut by the 36 s budget (durable scheduler, emit-only with the budget). Both must
 * pass; each prints its figures.
 *
 * TIER_BUDGET_SEQUENCES (default 4 per block; 12 with WSP_DEEP=1) and TIER_BUDGET_ONLY=<index> (one, traced) replay.
 */
import type { IDataObject } from 'n8n-workflow';

import { TierWorld, drawScore, type Tier } from './tierWorld';
import {
	DAY,
	HOUR,
	MINUTE,
	PollDriver,
	activate,
	anyPoll,
	budgetRig,
	draws,
	startVirtualTime,
	storyBlock,
	verdict,
	type PollMix,
	type RequestHook,
	type Scheduler,
	type StoryResult,
} from './budgetStories';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual<object>('n8n-workflow'),
	sleep: jest.requireActual<typeof import('./slowService')>('./slowService').virtualSleep,
}));

const SEQUENCES = Number(
	process.env.TIER_BUDGET_SEQUENCES ?? (process.env.WSP_DEEP === '1' ? 12 : 4),
);
const ONLY =
	process.env.TIER_BUDGET_ONLY === undefined ? undefined : Number(process.env.TIER_BUDGET_ONLY);
const BATCH = 2;
const SEED = 20261130;
const SWEEP_DAYS = 2;

const rigOf = budgetRig();

interface Judged {
	missed: number;
	duplicates: number;
	unexpected: number;
	wrong: number;
	missedSameDay: number;
	emitted: number;
	/** Pairs whose tier moved from the baseline by the end (what the trigger had to report). */
	moved: number;
}
const zeroJudged = (): Judged => ({
	missed: 0,
	duplicates: 0,
	unexpected: 0,
	wrong: 0,
	missedSameDay: 0,
	emitted: 0,
	moved: 0,
});

type Result = StoryResult<Judged>;

const floorSecond = (t: number) => Math.floor(t / 1000) * 1000;

async function runSequence(index: number, scheduler: Scheduler): Promise<Result> {
	const seed = SEED + index * 7919 + (scheduler.startsWith('legacy') ? 0 : 104_729);
	const d = draws(seed, ONLY !== undefined);
	const { random, pick, chance, trace } = d;
	const rig = rigOf();

	rig.reset();
	const world = new TierWorld(
		rig.sim.control,
		random,
		{
			members: 30 + Math.floor(random() * 40),
			skills: 4 + Math.floor(random() * 5),
			groups: 1,
			systemUsers: 0,
		},
		rig.clock.now(),
	);
	// History: most pairs scored, some with 1-2 observations, some none.
	const pre = rig.clock.now();
	for (const m of world.members)
		for (const s of world.skills)
			for (let i = 0, n = pick([0, 1, 2, 3, 4, 5]); i < n; i++)
				world.logCall(m, s.id, drawScore(random), pre - random() * 20 * DAY, pre);
	const quotaStory = index % 4 === 3;
	const latency = pick([3_000, 5_000, 8_000]);
	const context = `sequence ${index} (seed ${seed}, ${scheduler}, latency ${latency / 1000} s, ${world.members.length} members × ${world.skills.length} skills${quotaStory ? ', Max Reads a Day 1' : ''})`;
	const driver = new PollDriver(
		rig,
		{
			triggerOn: 'skillTiers',
			skillTierEvents: ['tierChanged'],
			skillTierSkills: [],
			skillTierFilters: {},
			skillTierOptions: {
				maxReadsPerDay: quotaStory ? 1 : 0,
				sweepDays: SWEEP_DAYS,
				includeSystemUsers: false,
			},
		},
		scheduler,
		`tier-budget-${scheduler}-${index}`,
	);
	driver.wait(HOUR);
	startVirtualTime(rig, latency);
	const activatedAt = floorSecond(rig.clock.now());
	const failedActivation = await activate(driver, context, zeroJudged(), quotaStory);
	if (failedActivation) return failedActivation;
	const key = (memberId: string, skillId: string) => `${memberId}|${skillId}`;
	const baseline = new Map<string, Tier>();
	for (const m of world.members)
		for (const s of world.skills)
			baseline.set(key(m.id, s.id), world.reading(m.id, s.id, activatedAt).tier);

	/** A day of practice: sessions on every skill by many members, and (unless told not to) a few calls. */
	const practise = (sessions: number, calls = true) => {
		for (let i = 0; i < sessions; i++) {
			world.logSession(
				pick(world.members),
				pick(world.scenarios),
				drawScore(random),
				rig.clock.now(),
			);
			if (chance(0.1)) driver.wait(1000);
		}
		// Calls show in no list: a change by calls alone may wait for the sweep.
		for (let i = 0, n = calls ? Math.floor(random() * 6) : 0; i < n; i++)
			world.logCall(
				pick(world.members),
				pick(world.skills).id,
				drawScore(random),
				rig.clock.now(),
				rig.clock.now(),
			);
		driver.wait(1000);
	};
	const writesAt =
		(n: number): RequestHook =>
		(k) => {
			if (k !== n) return;
			driver.counts.midReadWrites++;
			for (let i = 0, m = 1 + Math.floor(random() * 4); i < m; i++)
				world.logSession(
					pick(world.members),
					pick(world.scenarios),
					drawScore(random),
					rig.clock.now(),
				);
		};
	const mix: PollMix = {
		intervalMs: 10 * MINUTE,
		writesAt,
		firstWrite: 2,
		stalledBelow: 0.74,
		faultBelow: 0.8,
		killBelow: 0.88,
		killSpread: 4,
		restartBelow: 0.94,
		beforeRestart: () => {
			if (unreported(rig.clock.now()) > 0) driver.counts.restartsWithBacklog++;
		},
	};

	/** skill|member → the last tier reported. */
	const last = new Map<string, Tier>();
	const emittedChanges = new Map<string, Set<string>>();
	const judged = zeroJudged();
	const failures: string[] = [];
	let judgedUpTo = 0;
	/** Judges the events delivered since the last call, in order. */
	const judge = () => {
		for (const { json } of driver.delivered.slice(judgedUpTo)) {
			judged.emitted++;
			const memberId = String((json.member as IDataObject | undefined)?.id);
			const skillId = String((json.skill as IDataObject | undefined)?.id);
			const k = key(memberId, skillId);
			const before = json.tier_before as Tier;
			const after = json.tier_after as Tier;
			const change = `${before}>${after}`;
			const from = Date.parse(String(json.from));
			const to = Date.parse(String(json.to));
			const held =
				last.get(k) ??
				(Number.isNaN(from) ? baseline.get(k) : world.reading(memberId, skillId, from).tier);
			const had = emittedChanges.get(k) ?? new Set<string>();
			if (!baseline.has(k)) {
				judged.unexpected++;
				failures.push(`${k} ${change}: not a pair of the scope`);
				continue;
			}
			if (before !== held || before === after) {
				if (had.has(change)) judged.duplicates++;
				else judged.unexpected++;
				if (failures.length < 6)
					failures.push(
						`${k} ${change} (held ${String(held)}; baseline ${String(baseline.get(k))} as of ${new Date(activatedAt).toISOString()}, from ${String(json.from)}: ${JSON.stringify(world.reading(memberId, skillId, from))}, to ${String(json.to)}, count_before ${String(json.observation_count_before)})`,
					);
			} else if (!Number.isNaN(to) && world.reading(memberId, skillId, to).tier !== after) {
				judged.wrong++;
				if (failures.length < 6)
					failures.push(
						`${k} ${change}: the reading as of ${json.to} is ${world.reading(memberId, skillId, to).tier}`,
					);
			}
			emittedChanges.set(k, had.add(change));
			last.set(k, after);
		}
		judgedUpTo = driver.delivered.length;
	};
	/** Pairs whose reading now differs from what the trigger last reported. */
	const unreported = (at: number) => {
		let n = 0;
		for (const [k, tier] of baseline) {
			const [memberId, skillId] = k.split('|');
			if ((last.get(k) ?? tier) !== world.reading(memberId, skillId, at).tier) n++;
		}
		return n;
	};

	if (quotaStory) {
		// One read a day, polls every 10 minutes: the day's read continues at the polls after it.
		for (let day = 0; day < 3; day++) {
			driver.wait(DAY - 2 * HOUR);
			practise(100 + Math.floor(random() * 200), false);
			const readAt = floorSecond(rig.clock.now());
			// The day's read: polls that send nothing, then the read's polls (its sweep may go on after the
			// last change is sent), then polls that send nothing. A request after that is a second read.
			let phase: 'before' | 'reading' | 'done' = 'before';
			for (let p = 0; p < 10; p++) {
				driver.wait(10 * MINUTE);
				// Under the durable scheduler the day's first poll may be abandoned: the read is not lost for the day.
				const r =
					p === 0 && scheduler === 'durable' && chance(0.5)
						? await driver.pollStalled(2, 46_000 + Math.floor(random() * 30_000))
						: chance(0.15)
							? (await driver.pollTogether())[0]
							: await driver.poll();
				judge();
				if (r.requests > 0 && phase === 'done') driver.counts.quotaBreaches++;
				else if (r.requests > 0) phase = 'reading';
				else if (phase === 'reading') phase = 'done';
			}
			judged.missedSameDay += unreported(readAt);
			trace(`day ${day}: unreported ${unreported(readAt)}, ${JSON.stringify(driver.counts)}`);
		}
	} else {
		for (let day = 0; day < 4; day++) {
			driver.wait(DAY - 2 * HOUR);
			practise(60 + Math.floor(random() * 200));
			for (let p = 0, n = 4 + Math.floor(random() * 5); p < n; p++) {
				await anyPoll(driver, d, mix);
				judge();
			}
			trace(
				`day ${day}: delivered ${driver.delivered.length}, unreported ${unreported(rig.clock.now())}, ${JSON.stringify(driver.counts)}`,
			);
		}
	}
	// Quiet days, a sweep period and more, each day's read continued until done (polls every 10 minutes).
	for (let day = 0; day <= SWEEP_DAYS; day++) {
		driver.wait(DAY - 2 * HOUR);
		for (let p = 0; p < 8; p++) {
			driver.wait(10 * MINUTE);
			await driver.poll();
			judge();
		}
	}
	const end = rig.clock.now();
	judged.missed = unreported(end);
	for (const [k, tier] of baseline) {
		const [memberId, skillId] = k.split('|');
		if (tier !== world.reading(memberId, skillId, end).tier) judged.moved++;
	}
	return verdict(
		driver,
		context,
		judged,
		['missed', 'duplicates', 'unexpected', 'wrong', 'missedSameDay'],
		quotaStory,
		() => failures.slice(0, 3).join('; '),
	);
}

function block(name: string, schedulers: readonly Scheduler[]): void {
	storyBlock(name, {
		label: `skillTiersBudgetOracle [${name}]`,
		sequences: SEQUENCES,
		batch: BATCH,
		only: ONLY,
		claim:
			'0 missed, 0 duplicate, 0 unexpected, 0 wrong; no request after an abandon; one read at a time',
		zero: zeroJudged,
		run: async (index) => await runSequence(index, schedulers[index % schedulers.length]),
	});
}

block(
	'Skill Tiers on the legacy poller: reads within one budget, polls together or during a read, restarts (issue 47)',
	['legacy-staged', 'legacy-emit-only'],
);
block('Skill Tiers reads cut by the 36 s budget, continued at the next polls (issue 47)', [
	'durable',
	'cut-emit-only',
]);
