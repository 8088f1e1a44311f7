import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readSkills, readTiers, readTiersOf, withoutMembers } from '../../shared/skills/readTiers';
import { POLL_PACE } from '../../shared/transport';
import type { ProficiencyReading, SkillRef, TierBefore } from '../../shared/skills/tierChange';
import { changeRecord } from '../../shared/skills/tierChange';
import type { FamilyPoll } from '../family';
import { readPractised, SESSION_OVERLAP_MS } from './read';
import { warnIfSweepCannotFit } from './fit';
import { sampleTierChanges } from './sample';
import type { SkillTiersSettings } from './settings';
import { readSkillTiersSettings } from './settings';
import type { Pair, SkillMemory, SkillTiersState, TiersMemory } from './state';
import { decode, encode, readState, TIERS } from './state';
import { sweepNow } from './sweep';

const iso = (ms: number) => new Date(ms).toISOString();
const userId = (row: ProficiencyReading) => String(row.user.id ?? '');
const rankOf = (tier: string) => Math.max(0, TIERS.indexOf(tier));

const pairOf = (row: ProficiencyReading, at: number): Pair => ({
	tier: rankOf(row.tier),
	count: row.observation_count ?? 0,
	score: row.score,
	at,
});

const beforeOf = (pair: Pair): TierBefore => ({
	tier: TIERS[pair.tier] ?? 'insufficient_data',
	score: pair.score,
	observation_count: pair.count,
});

/** A change found: the record is built once the skill's name is known. */
interface Found {
	skillId: string;
	before: TierBefore;
	row: ProficiencyReading;
	from: number;
}

/**
 * One skill at one read: its readings as of `now` (every member at a sweep, else the members who
 * practised), each compared with what was last reported for the member (or the baseline recorded).
 * A member without a pair is read as of the skill's reference instant: no row then means no
 * observation yet (a tier now is a first tier, "new"); a row then on a skill already swept means the
 * member entered the scope since (filters edited, joined a group, came back): a baseline, no event.
 */
async function compareSkill(
	ctx: IPollFunctions,
	settings: SkillTiersSettings,
	memory: TiersMemory,
	skillId: string,
	skill: SkillMemory,
	sweep: boolean,
	practised: Set<string> | undefined,
	now: number,
): Promise<Found[]> {
	const named = withoutMembers(settings.query);
	const rows = sweep
		? await readTiers(ctx, skillId, settings.query, iso(now))
		: await readTiersOf(ctx, skillId, named, [...(practised ?? [])], iso(now));
	const read = new Set(rows.map(userId));
	// Who was asked for and is not in the reading left the scope: forgotten, no event.
	const asked = sweep ? [...skill.pairs.keys()] : [...(practised ?? [])];
	for (const id of asked) if (!read.has(id) && skill.pairs.delete(id)) skill.left.add(id);

	// Before its first sweep a skill's baseline is its reading when it entered the scope; after it,
	// a member unknown to it had no row at the sweep (or at a later edit of the filters).
	// (Less the sessions' overlap: a session listed late, dated just before the sweep, is practice.)
	const reference =
		skill.swept === undefined
			? skill.entered
			: Math.max(skill.swept, memory.keyAt ?? 0) - SESSION_OVERLAP_MS;
	// A member unknown to a swept skill with a row as of the sweep was out of the scope then (came
	// back, joined a group, the filters changed): a baseline. No row then: compared with no tier.
	const unknown = rows.map(userId).filter((id) => !skill.pairs.has(id));
	const then = new Map(
		unknown.length === 0
			? []
			: (await readTiersOf(ctx, skillId, named, unknown, iso(reference))).map((row) => [
					userId(row),
					row,
				]),
	);
	const newcomers = await outOfScopeBefore(ctx, skillId, skill, memory, rows, then, now);
	const found: Found[] = [];
	for (const row of rows) {
		const id = userId(row);
		let pair = skill.pairs.get(id);
		// Out of the scope before the filters' last edit: new to it (or back), a baseline.
		if (newcomers.has(id)) {
			skill.pairs.set(id, pairOf(row, now));
			skill.left.delete(id);
			continue;
		}
		if (pair === undefined) {
			const old = then.get(id);
			// A row then that the sweep did not see: the member entered the scope since, so a baseline
			// (a call logged late and dated before the sweep looks the same: it joins the baseline).
			// A row then without a tier is compared (its first scored tier is new, contract point 4).
			if (old !== undefined && skill.swept !== undefined && rankOf(old.tier) > 0) {
				skill.pairs.set(id, pairOf(row, now));
				skill.left.delete(id);
				continue;
			}
			skill.left.delete(id);
			pair =
				old === undefined
					? { tier: 0, count: 0, score: null, at: skill.entered }
					: pairOf(old, reference);
		}
		if (rankOf(row.tier) === pair.tier) {
			skill.pairs.set(id, pair);
			continue;
		}
		found.push({ skillId, before: beforeOf(pair), row, from: pair.at });
		skill.pairs.set(id, pairOf(row, now));
	}
	if (sweep) skill.swept = now;
	return found;
}

/**
 * When the filters were edited since the skill was last read in full, the members read whose tier the
 * trigger would compare with one from before the edit (a row then, or a pair kept from before it) and
 * whom the former filters left out: they entered the scope by the edit (or came back), so a baseline
 * (contract point 4). One reading of them with the former filters; member lists are matched here.
 */
async function outOfScopeBefore(
	ctx: IPollFunctions,
	skillId: string,
	skill: SkillMemory,
	memory: TiersMemory,
	read: ProficiencyReading[],
	then: Map<string, ProficiencyReading>,
	now: number,
): Promise<Set<string>> {
	const before = memory.keyBefore;
	const keyAt = memory.keyAt;
	if (before === undefined || keyAt === undefined || keyAt < (skill.swept ?? skill.entered))
		return new Set();
	const ids = read.map(userId).filter((id) => {
		const pair = skill.pairs.get(id);
		return pair === undefined ? then.has(id) : pair.at <= keyAt;
	});
	if (ids.length === 0) return new Set();
	const query = JSON.parse(before) as IDataObject;
	const listed = (name: string) =>
		typeof query[name] === 'string' ? (query[name] as string).split(',') : undefined;
	const userIds = listed('user_ids');
	const emails = listed('user_emails')?.map((e) => e.toLowerCase());
	const rows = await readTiersOf(ctx, skillId, withoutMembers(query), ids, iso(now));
	const inScope = new Set(
		rows
			.filter(
				(row) =>
					(userIds === undefined && emails === undefined) ||
					userIds?.includes(userId(row)) ||
					emails?.includes(String(row.user.email ?? '').toLowerCase()),
			)
			.map(userId),
	);
	return new Set(ids.filter((id) => !inScope.has(id)));
}

/** Names for the records: from the skills list when it was read, else one read of it. */
async function skillNames(
	ctx: IPollFunctions,
	listed: SkillRef[] | undefined,
	found: Found[],
): Promise<Map<string, string>> {
	if (found.length === 0) return new Map();
	const skills = listed ?? (await readSkills(ctx));
	return new Map(skills.map((s) => [s.id, s.name]));
}

export const skillTiersPoll: FamilyPoll<SkillTiersSettings, SkillTiersState> = {
	readSettings: readSkillTiersSettings,

	sample: sampleTierChanges,

	noSample: () => ({
		what: 'Tier Changed',
		hint: 'No tier of the chosen skills and members moved in the last 7 days. Widen the Skills or Filters, or fetch a test event again once a tier has moved.',
	}),

	readState: (staticData, settings) => readState(staticData, settings.key),

	// Its proficiency reads come in a burst (a request per skill practised, the sweep's pages).
	pace: POLL_PACE,

	/**
	 * One read, pinned to one instant (whole seconds): the sessions since the last read tell who
	 * practised which skill; those members are read; a few skills are swept in full (calls); each
	 * member compared with what was last reported. The first read records where the trigger starts (and
	 * warns in the log when the sweep cannot fit the day).
	 */
	async read(ctx, settings, stored, readAt) {
		const now = Math.floor(readAt / 1000) * 1000;
		const memory = decode(stored, settings.key);
		// The skills list: every skill when none is chosen; at the first read, names for chosen ones too.
		const listed =
			settings.skillIds.length === 0 || stored.asOf === undefined
				? await readSkills(ctx)
				: undefined;
		const scope = settings.skillIds.length ? settings.skillIds : (listed ?? []).map((s) => s.id);
		for (const id of [...memory.skills.keys()]) if (!scope.includes(id)) memory.skills.delete(id);
		// A skill new to the scope (or every skill at the first read) starts from now.
		for (const id of scope)
			if (!memory.skills.has(id))
				memory.skills.set(id, { entered: now, pairs: new Map(), left: new Set() });
		if (memory.asOf === undefined) {
			await warnIfSweepCannotFit(ctx, settings.query, scope.length, settings.sweepDays);
			memory.asOf = now;
			return { state: encode(memory, settings.key), items: [] };
		}

		const practised = await readPractised(ctx, settings, memory, now);
		const sweep = sweepNow(memory, scope, now, settings.sweepDays);
		const found: Found[] = [];
		for (const id of scope) {
			const members = practised.bySkill.get(id);
			if (!sweep.has(id) && !members?.size) continue;
			const skill = memory.skills.get(id) as SkillMemory;
			found.push(
				...(await compareSkill(ctx, settings, memory, id, skill, sweep.has(id), members, now)),
			);
		}
		memory.asOf = now;
		const names = await skillNames(ctx, listed, found);
		const items: INodeExecutionData[] = [];
		for (const change of found) {
			const skill = { id: change.skillId, name: names.get(change.skillId) ?? change.skillId };
			const record = changeRecord(skill, change.before, change.row, {
				from: iso(change.from),
				to: iso(now),
			}) as IDataObject;
			items.push({ json: { event: 'tierChanged', ...record } });
		}
		return { state: encode(memory, settings.key), items };
	},
};
