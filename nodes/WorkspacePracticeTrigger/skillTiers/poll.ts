import { createHash } from 'node:crypto';

import type { IPollFunctions } from 'n8n-workflow';

import { readSkills } from '../../shared/skills/readTiers';
import type { FamilyPoll, PollRead } from '../family';
import { warnIfSweepCannotFit } from './fit';
import { iso, readPractised } from './read';
import { maySweep, READ_HOUR_MS, readOrder } from './rules';
import { sampleTierChanges } from './sample';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { ReadUnderWay, SkillTiersState, TiersMemory } from './state';
import { decode, encode, readState } from './state';
import type { TierRun } from './steps';
import { namesOf, readPractisedOf, sweepSkill } from './steps';
import { SWEEP_REQUESTS_A_READ, sweepLag, sweepNow } from './sweep';

/** The form a read was started for: its filters and chosen skills (a digest, short in the state). */
const formOf = (settings: SkillTiersSettings): string =>
	createHash('sha256')
		.update(`${settings.key}|${settings.skillIds.join(',')}`)
		.digest('base64url')
		.slice(0, 12);

export const skillTiersPoll: FamilyPoll<SkillTiersSettings, SkillTiersState> = {
	readSettings: readSkillTiersSettings,

	sample: sampleTierChanges,

	noSample: () => ({
		what: 'Tier Changed',
		hint: 'No tier of the chosen skills and members moved in the last 7 days. Widen the Skills or Filters, or fetch a test event again once a tier has moved.',
	}),

	readState: (staticData, settings) => readState(staticData, settings.key),

	/**
	 * One read, pinned to one instant (whole seconds); the first only records where the trigger starts.
	 * The members who practised first, then the sweep (rules.ts `readOrder`). A read the deadline stops
	 * is kept (state.ts `ReadUnderWay`) and the next poll goes on with it; past its hour, without the
	 * sweep's rest (`endRead`).
	 */
	async read(ctx, settings, stored, poll) {
		const memory = decode(stored, settings.key);
		const run = await begin(ctx, settings, memory, poll);
		if (run === undefined) return { state: encode(memory, settings.key), items: [] };
		const { reading } = run;
		if (poll.at >= reading.at + READ_HOUR_MS) warnLate(run, poll.at);
		await readPractised(run);
		let done = reading.sessionsPage === undefined;
		for (const step of done ? readOrder(run.order, reading) : []) {
			// Past the read's sweep window the rest of the sweep waits for the next read (`endRead`).
			if (step.sweep && !maySweep(Date.now(), reading.at)) break;
			done = await (step.sweep ? sweepSkill : readPractisedOf)(run, step.skill);
			if (!done) break;
		}
		if (done) endRead(run);
		else memory.reading = reading;
		return { state: encode(memory, settings.key), items: run.items };
	},
};

/** The read under way for this form, or a new one (undefined: the first read, the starting point). */
async function begin(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	poll: PollRead,
): Promise<TierRun | undefined> {
	const form = formOf(settings);
	const goingOn = memory.reading?.form === form ? memory.reading : undefined;
	memory.reading = undefined;
	const run = (reading: ReadUnderWay, order: string[], names?: Map<string, string>): TierRun => ({
		...{ ctx, poll, settings, memory, reading, order, names },
		items: [],
		held: [],
	});
	if (goingOn !== undefined && memory.asOf !== undefined)
		return run(goingOn, [...memory.skills.keys()]);
	const now = Math.floor(poll.at / 1000) * 1000;
	// The skills list: every skill when none is chosen; at the first read, names for chosen ones too.
	const listed =
		settings.skillIds.length === 0 || memory.asOf === undefined ? await readSkills(ctx) : undefined;
	const order = settings.skillIds.length ? settings.skillIds : (listed ?? []).map((s) => s.id);
	for (const id of memory.skills.keys()) if (!order.includes(id)) memory.skills.delete(id);
	// A skill new to the scope (or every skill at the first read) starts from now.
	for (const id of order)
		if (!memory.skills.has(id)) memory.skills.set(id, { entered: now, pairs: new Map() });
	if (memory.asOf === undefined) {
		memory.members = await warnIfSweepCannotFit(ctx, settings, order.length);
		memory.asOf = now;
		return undefined;
	}
	const { sweep, credit } = sweepNow(memory, order, now, settings.sweepDays);
	memory.sweepCredit = credit;
	const fresh = { paged: new Map(), finishing: new Set<string>(), practised: new Map() };
	return run({ at: now, form, sessionsPage: 1, sweep, ...fresh }, order, listed && namesOf(listed));
}

/**
 * The read is done: the memory moves to its instant. A sweep left over (the read's hour ended first,
 * or its share of the day's requests, sweep.ts) waits for the next read: those skills stay the oldest
 * swept, so they come first; the credit of those the hour stopped is given back.
 */
function endRead({ ctx, memory, reading, settings, order }: TierRun): void {
	memory.asOf = reading.at;
	const stopped = [...new Set([...reading.sweep, ...reading.finishing])];
	memory.sweepCredit += stopped.length;
	const lag = sweepLag(memory, order, reading.at, settings.sweepDays);
	const left = [...new Set([...stopped, ...lag.due])];
	if (left.length === 0) return;
	const since = (id: string) => {
		const skill = memory.skills.get(id);
		return reading.at - (skill?.swept ?? skill?.entered ?? reading.at);
	};
	const days = Math.round(Math.max(...left.map(since)) / 8_640_000) / 10;
	const name = ctx.getNode().name;
	ctx.logger.warn(
		`Workspace Practice Trigger "${name}" (Skill Tiers): the sweep lags. ${left.length} skill${left.length === 1 ? '' : 's'} due for a full read did not fit in the read begun at ${iso(reading.at)} (its hour, or the sweep's share of a day's requests: ${SWEEP_REQUESTS_A_READ} a read); they come first at the next read, and a change from calls alone in them waits until then (the longest ${days} days since its last full read; Sweep Every (Days) ${settings.sweepDays}, while the share sweeps every skill once in about ${lag.cycleReads} reads). The members who practised were all read. Raise Options → Sweep Every (Days) to ${lag.cycleReads} or more, watch fewer skills or members, or let Poll Times poll every minute in the hour of the read.`,
		{
			node: name,
			skillsLagging: left.length,
			daysSinceSweep: days,
			sweepCycleReads: lag.cycleReads,
		},
	);
}

/** A read goes on past its hour: Poll Times left too long between its polls. */
function warnLate({ ctx, reading }: TierRun, readAt: number): void {
	const name = ctx.getNode().name;
	const minutes = Math.round((readAt - reading.at) / 60_000);
	ctx.logger.warn(
		`Workspace Practice Trigger "${name}" (Skill Tiers): the read begun at ${iso(reading.at)} goes on only now, ${minutes} minutes later: it needed more than one poll, and Poll Times left more than the hour between them, so its tier changes waited. Set Poll Times to poll every minute in the hour of the read, e.g. a Custom entry "0 * 23 * * *" (the read at 23:00, carried on until done; polls with nothing to carry on send no request), with Options → Max Reads a Day 1.`,
		{ node: name, minutesSinceReadBegan: minutes },
	);
}
