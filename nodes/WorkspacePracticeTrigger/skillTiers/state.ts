import type { IDataObject } from 'n8n-workflow';

import type { ProficiencyReading } from '../../shared/skills/tierChange';
import type { FamilyState } from '../family';
import { storedState } from '../family';

/** Skill Tiers state in the node's static data; another version (or family) starts over. */
export const SKILL_TIERS_STATE_VERSION = 'skill-tiers-1';

/**
 * The most member-skill tiers kept. Each takes about 40 bytes; a trigger over more (say 50 skills of
 * 1,000 members) is refused with a hint to narrow it, rather than growing the workflow without end.
 */
export const MAX_TIERS = 50_000;

const TIERS = ['insufficient_data', 'needs_work', 'developing', 'proficient', 'excellent'];

/** Per skill ID, per user ID: the tier (its index in TIERS) and the score at the last read. */
export type TierMap = Record<string, Record<string, [number, number | null]>>;

export interface SkillTiersState extends FamilyState {
	v: typeof SKILL_TIERS_STATE_VERSION;
	readAt?: number;
	/** Key of the form's filters the state was built for: other filters start over. */
	key: string;
	tiers?: TierMap;
}

/** The stored state if it is this family's and built for these filters; a fresh one otherwise. */
export function readState(staticData: IDataObject, key: string): SkillTiersState {
	const copy = storedState<SkillTiersState>(staticData, SKILL_TIERS_STATE_VERSION, key);
	if (!copy) return { v: SKILL_TIERS_STATE_VERSION, key };
	if (typeof copy.tiers !== 'object' || copy.tiers === null || Array.isArray(copy.tiers))
		delete copy.tiers;
	return copy;
}

/** One skill's reading as stored. */
export function toStored(rows: ProficiencyReading[]): Record<string, [number, number | null]> {
	const out: Record<string, [number, number | null]> = {};
	for (const row of rows) {
		const rank = TIERS.indexOf(row.tier);
		out[String(row.user.id)] = [rank < 0 ? 0 : rank, row.score];
	}
	return out;
}

/** A stored skill back as readings (the user by ID only), to compare with a new reading. */
export function fromStored(stored: Record<string, [number, number | null]>): ProficiencyReading[] {
	return Object.entries(stored).map(([id, [rank, score]]) => ({
		user: { id },
		tier: TIERS[rank] ?? 'insufficient_data',
		score,
	}));
}

/** How many member-skill tiers a map holds. */
export const tierCount = (tiers: TierMap): number =>
	Object.values(tiers).reduce((sum, skill) => sum + Object.keys(skill).length, 0);
