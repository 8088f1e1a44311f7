import type { ProficiencyReading, TierBefore } from '../../shared/skills/tierChange';
import { rankOf, TIERS } from '../../shared/skills/tierChange';

// The rules of Tier Changed (docs/triggers.md, Skill Tiers), one skill at a time: memory and reading
// in, changes and new memory out. Pure: no request, no clock, the memory passed in left as it was.

/** What the trigger last reported for a member and skill (or the baseline it recorded). */
export interface Pair {
	/** Index in TIERS. */
	tier: number;
	count: number;
	/** Two decimals; null without a score. */
	score: number | null;
	/** The instant of that reading (epoch ms, whole seconds). */
	at: number;
}

export interface SkillMemory {
	/** When the skill entered the scope (its baseline instant). */
	entered: number;
	/** The last time every member of it was read (the sweep); undefined: not yet. */
	swept?: number;
	/** Per user ID. A member with no pair has no row since `entered` as far as the trigger knows. */
	pairs: Map<string, Pair>;
}

/** What one read of one skill found. */
export interface SkillReading {
	/** The read's instant (epoch ms, whole seconds): every row in `rows` is as of it. */
	now: number;
	/** Every member of the scope was read (the sweep); otherwise only `asked` (those who practised). */
	sweep: boolean;
	asked: string[];
	rows: ProficiencyReading[];
	/** The skill's reference (read.ts), and the rows as of it of the members with no pair. */
	reference: number;
	then: ProficiencyReading[];
	/** Members the filters before their last edit left out (of those `editCandidates` named). */
	outOfFormerScope: Set<string>;
}

/** One move of a member's tier: the record is built from it once the skill's name is known. */
export interface Change {
	before: TierBefore;
	row: ProficiencyReading;
	/** The instant of the reading `before` comes from. */
	from: number;
}

export const userId = (row: ProficiencyReading): string => String(row.user.id ?? '');

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

/** The members read whom the memory does not know: they are also read as of the reference. */
export const unknownMembers = (skill: SkillMemory, rows: ProficiencyReading[]): string[] =>
	rows.map(userId).filter((id) => !skill.pairs.has(id));

/**
 * When the filters were edited (at `keyAt`) since the skill was last read in full: the members read
 * whose tier would be compared with one from before the edit (a row then, or a pair kept from before
 * it). The read asks which of them the former filters held; the others entered by the edit.
 */
export function editCandidates(
	skill: SkillMemory,
	keyAt: number | undefined,
	rows: ProficiencyReading[],
	then: ProficiencyReading[],
): string[] {
	if (keyAt === undefined || keyAt < (skill.swept ?? skill.entered)) return [];
	const hadRow = new Set(then.map(userId));
	return rows.map(userId).filter((id) => {
		const pair = skill.pairs.get(id);
		return pair === undefined ? hadRow.has(id) : pair.at <= keyAt;
	});
}

/**
 * The skill after one read, and its changes in the reading's order. Each member read is compared with
 * the pair kept (the last reported tier, or the baseline); a different tier is a change, which then
 * becomes the pair. A member without a pair is compared with its row as of the reference: none means no
 * observation yet (a tier now is a first tier, "new"); a scored row then on a skill already swept means
 * the member entered the scope since (or came back): a baseline, no change. So is a member the former
 * filters left out. A member asked for and not read left the scope: forgotten, no change.
 */
export function compareSkill(
	memory: SkillMemory,
	reading: SkillReading,
): { skill: SkillMemory; changes: Change[] } {
	const { now, rows } = reading;
	const pairs = new Map(memory.pairs);
	const read = new Set(rows.map(userId));
	for (const id of reading.sweep ? memory.pairs.keys() : reading.asked)
		if (!read.has(id)) pairs.delete(id);

	const then = new Map(reading.then.map((row) => [userId(row), row]));
	const changes: Change[] = [];
	for (const row of rows) {
		const id = userId(row);
		const kept = pairs.get(id);
		const old = then.get(id);
		const entered =
			reading.outOfFormerScope.has(id) ||
			(kept === undefined &&
				old !== undefined &&
				memory.swept !== undefined &&
				rankOf(old.tier) > 0);
		if (entered) {
			pairs.set(id, pairOf(row, now));
			continue;
		}
		const pair =
			kept ??
			(old === undefined
				? { tier: 0, count: 0, score: null, at: memory.entered }
				: pairOf(old, reading.reference));
		const moved = rankOf(row.tier) !== pair.tier;
		if (moved) changes.push({ before: beforeOf(pair), row, from: pair.at });
		pairs.set(id, moved ? pairOf(row, now) : pair);
	}
	const swept = reading.sweep ? now : memory.swept;
	return { skill: { entered: memory.entered, swept, pairs }, changes };
}
