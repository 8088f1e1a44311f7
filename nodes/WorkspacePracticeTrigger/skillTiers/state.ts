import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import type { SkillMemory } from './compare';
import type { PackedSkills } from './pack';
import { packSkills, unpackSkills } from './pack';

/** Skill Tiers state in the node's static data; another version (or family) starts over. */
export const SKILL_TIERS_STATE_VERSION = 'skill-tiers-2';

/** The state as the read works with it. */
export interface TiersMemory {
	/** The as-of instant of the last read (epoch ms); undefined before the first. */
	asOf?: number;
	/** When the filters last changed (epoch ms). */
	keyAt?: number;
	/** The filters before that change (a stored key): who was in scope before it. */
	keyBefore?: string;
	/** Skills to sweep owed by the time that passed (fractional). */
	sweepCredit: number;
	skills: Map<string, SkillMemory>;
}

/** The stored form (JSON): the filter bookkeeping beside the packed skills (pack.ts). */
export interface SkillTiersState extends FamilyState, PackedSkills {
	v: typeof SKILL_TIERS_STATE_VERSION;
	/** The filters (members, groups, system users) the pairs were read with. */
	key: string;
	asOf?: number;
	keyAt?: number;
	/** The key before the change at keyAt. */
	kb?: string;
	credit?: number;
}

/** The stored state if it is this family's; a fresh one otherwise. */
export function readState(staticData: IDataObject, key: string): SkillTiersState {
	// No key check: pairs that stay in scope keep their history when the filters are edited.
	return (
		storedState<SkillTiersState>(staticData, SKILL_TIERS_STATE_VERSION) ?? {
			v: SKILL_TIERS_STATE_VERSION,
			key,
		}
	);
}

/** The stored state as the read works with it; a state built for other filters keeps its pairs. */
export function decode(stored: SkillTiersState, key: string): TiersMemory {
	// Filters edited since the stored read: they changed after its as-of instant, so a member with no
	// row then had no observation before entering (contract point 4: a first tier is an event).
	const same = stored.key === key || stored.asOf === undefined;
	return {
		asOf: stored.asOf,
		keyAt: same ? stored.keyAt : stored.asOf,
		keyBefore: same ? stored.kb : stored.key,
		sweepCredit: stored.credit ?? 0,
		skills: unpackSkills(stored),
	};
}

/** The memory in its stored form. */
export function encode(memory: TiersMemory, key: string): SkillTiersState {
	const state: SkillTiersState = {
		v: SKILL_TIERS_STATE_VERSION,
		key,
		asOf: memory.asOf,
		credit: Math.round(memory.sweepCredit * 1e6) / 1e6,
		...packSkills(memory.skills),
	};
	if (memory.keyAt !== undefined) state.keyAt = memory.keyAt;
	if (memory.keyBefore !== undefined) state.kb = memory.keyBefore;
	return state;
}
