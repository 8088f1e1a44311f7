import type { IDataObject } from 'n8n-workflow';

// Tier changes between two proficiency readings (spec 4.3), for Get Tier Changes and Skill Tiers.

/** The tiers from lowest to highest; the first means no tier yet (no score, or no row). */
export const TIERS: readonly string[] = [
	'insufficient_data',
	'needs_work',
	'developing',
	'proficient',
	'excellent',
];

/** A tier's place in `TIERS`; a value the service may add later counts as no tier. */
export const rankOf = (tier: string): number => Math.max(0, TIERS.indexOf(tier));

export interface ProficiencyReading {
	user: IDataObject;
	score: number | null;
	tier: string;
	observation_count?: number;
	last_practiced_at?: string;
}

export interface SkillRef {
	id: string;
	name: string;
}

/** A member's key in a reading: the ID, else the e-mail. */
export const memberKey = (row: ProficiencyReading): string =>
	String(row.user.id ?? row.user.email ?? '');

/**
 * When the member last practised the skill (epoch ms): a row without a readable date counts as just
 * now, so it is never taken for unchanged.
 */
export const lastPractised = (row: ProficiencyReading): number => {
	const at = Date.parse(String(row.last_practiced_at));
	return Number.isNaN(at) ? Infinity : at;
};

function fullName(user: IDataObject): string {
	const name = [user.first_name, user.last_name].filter((part) => typeof part === 'string' && part);
	return name.length ? name.join(' ') : String(user.email ?? user.id ?? '');
}

const TIER_WORDS: Record<string, string> = {
	needs_work: 'needs work',
	insufficient_data: 'no tier yet',
};
const words = (tier: unknown) => TIER_WORDS[String(tier)] ?? String(tier);
const scoreText = (score: unknown): string => (score === null ? '–' : String(score));

/** Where a member stood in the earlier of the two readings compared. */
export interface TierBefore {
	tier: string;
	score: number | null;
	observation_count: number;
}

/** No row: no observation yet (spec 4.3 rule 4), so no tier. */
const NO_TIER: TierBefore = { tier: 'insufficient_data', score: null, observation_count: 0 };

/**
 * The record of one move, or undefined when the tier is the same. `new` is true exactly when the
 * earlier tier is insufficient_data: a first scored tier.
 */
export function changeRecord(
	skill: SkillRef,
	before: TierBefore,
	row: ProficiencyReading,
	dates: { from: string; to: string },
): IDataObject | undefined {
	const from = rankOf(before.tier);
	const to = rankOf(row.tier);
	if (from === to) return undefined;
	const direction = from === 0 ? 'new' : to > from ? 'up' : 'down';
	return {
		member: row.user,
		skill: { id: skill.id, name: skill.name },
		tier_before: before.tier,
		tier_after: row.tier,
		score_before: before.score,
		score_after: row.score,
		direction,
		new: direction === 'new',
		observation_count_before: before.observation_count,
		observation_count_after: row.observation_count ?? null,
		last_practiced_at: row.last_practiced_at ?? null,
		from: dates.from,
		to: dates.to,
		// One line for a digest, e.g. "Jane Smith: Discovery developing → proficient (72.4 → 78.1)".
		summary: `${fullName(row.user)}: ${skill.name} ${words(before.tier)} → ${words(row.tier)} (${scoreText(before.score)} → ${scoreText(row.score)})`,
	};
}

/**
 * The members whose tier differs between the two readings, in the later reading's order. Someone
 * absent from the earlier reading had no tier then, so a tier now is "new".
 */
export function tierChanges(
	skill: SkillRef,
	before: ProficiencyReading[],
	after: ProficiencyReading[],
	dates: { from: string; to: string },
): IDataObject[] {
	const earlier = new Map(before.map((row) => [memberKey(row), row]));
	return after.flatMap((row) => {
		const old = earlier.get(memberKey(row));
		const then = old
			? { tier: old.tier, score: old.score, observation_count: old.observation_count ?? 0 }
			: NO_TIER;
		const change = changeRecord(skill, then, row, dates);
		return change ? [change] : [];
	});
}
