import type { IDataObject } from 'n8n-workflow';

/**
 * Tier changes between two proficiency readings of one skill (spec 4.3), shared by Skill → Get Tier
 * Changes and the Skill Tiers trigger. Pure: it compares rows, it reads nothing.
 */

/** Every field of a tier change record, in output order. */
export const TIER_CHANGE_FIELDS = [
	'member',
	'skill',
	'tier_before',
	'tier_after',
	'score_before',
	'score_after',
	'direction',
	'new',
	'observation_count_before',
	'observation_count_after',
	'last_practiced_at',
	'from',
	'to',
	'summary',
] as const;

export type Tier = 'excellent' | 'proficient' | 'developing' | 'needs_work' | 'insufficient_data';
export type Direction = 'up' | 'down' | 'new';

/** The tiers from lowest to highest; the first means no tier yet (no score, or no row). */
export const TIERS: readonly Tier[] = [
	'insufficient_data',
	'needs_work',
	'developing',
	'proficient',
	'excellent',
];

/** A tier's place in `TIERS`; a value the service may add later counts as no tier. */
export const rankOf = (tier: string): number => Math.max(0, TIERS.indexOf(tier as Tier));

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

/** The direction of a move from `before` to `after`, or undefined when the tier is the same. */
export function direction(before: string, after: string): Direction | undefined {
	const from = rankOf(before);
	const to = rankOf(after);
	if (from === to) return undefined;
	if (from === 0) return 'new';
	return to > from ? 'up' : 'down';
}

function userKey(user: IDataObject): string {
	return String(user.id ?? user.email ?? '');
}

function fullName(user: IDataObject): string {
	const name = [user.first_name, user.last_name].filter((part) => typeof part === 'string' && part);
	return name.length ? name.join(' ') : String(user.email ?? user.id ?? '');
}

const TIER_WORDS: Record<string, string> = {
	excellent: 'excellent',
	proficient: 'proficient',
	developing: 'developing',
	needs_work: 'needs work',
	insufficient_data: 'no tier yet',
};

const scoreText = (score: number | null): string => (score === null ? '–' : String(score));

/** One line for a digest, e.g. "Jane Smith: Discovery developing → proficient (72.4 → 78.1)". */
export function changeLine(change: IDataObject): string {
	const member = change.member as IDataObject;
	const skill = change.skill as IDataObject;
	const words = (tier: unknown) => TIER_WORDS[String(tier)] ?? String(tier);
	return `${fullName(member)}: ${String(skill.name)} ${words(change.tier_before)} → ${words(
		change.tier_after,
	)} (${scoreText(change.score_before as number | null)} → ${scoreText(
		change.score_after as number | null,
	)})`;
}

/** Where a member stood in the earlier of the two readings compared. */
export interface TierBefore {
	tier: string;
	score: number | null;
	observation_count: number;
}

/** No row: no observation yet (spec 4.3 rule 4), so no tier. */
export const NO_TIER: TierBefore = { tier: 'insufficient_data', score: null, observation_count: 0 };

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
	const moved = direction(before.tier, row.tier);
	if (moved === undefined) return undefined;
	const change: IDataObject = {
		member: row.user,
		skill: { id: skill.id, name: skill.name },
		tier_before: before.tier,
		tier_after: row.tier,
		score_before: before.score,
		score_after: row.score,
		direction: moved,
		new: moved === 'new',
		observation_count_before: before.observation_count,
		observation_count_after: row.observation_count ?? null,
		last_practiced_at: row.last_practiced_at ?? null,
		from: dates.from,
		to: dates.to,
	};
	change.summary = changeLine(change);
	return change;
}

/**
 * The members whose tier differs between the two readings, in the later reading's order. Someone
 * absent from the earlier reading had no observation then: no tier yet, so a tier now is "new".
 */
export function tierChanges(
	skill: SkillRef,
	before: ProficiencyReading[],
	after: ProficiencyReading[],
	dates: { from: string; to: string },
): IDataObject[] {
	const earlier = new Map(before.map((row) => [userKey(row.user), row]));
	const changes: IDataObject[] = [];
	for (const row of after) {
		const old = earlier.get(userKey(row.user));
		const change = changeRecord(
			skill,
			old === undefined
				? NO_TIER
				: { tier: old.tier, score: old.score, observation_count: old.observation_count ?? 0 },
			row,
			dates,
		);
		if (change) changes.push(change);
	}
	return changes;
}
