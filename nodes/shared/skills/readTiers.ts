import type { IDataObject } from 'n8n-workflow';

import type { TransportContext } from '../transport';
import { apiList, MAX_PAGE_SIZE } from '../transport';
import type { ProficiencyReading, SkillRef } from './tierChange';
import { tierChanges } from './tierChange';

/**
 * Reads what tier changes need: the skills in scope and two proficiency readings per skill. Cost: one
 * read per 100 skills when every skill is in scope, then per skill two readings of one read per 100
 * members (the service's largest page).
 */

/** Every skill, in the service's order (one read per 100 skills). */
export async function readSkills(ctx: TransportContext, itemIndex?: number): Promise<SkillRef[]> {
	const rows = await apiList<IDataObject>(ctx, '/skills', {}, { returnAll: true, itemIndex });
	return rows.map((row) => ({ id: String(row.id), name: String(row.name ?? row.id) }));
}

/**
 * One skill's proficiency as of `asOf` (the service's now when left out), every row (filters in `qs`
 * as the service takes them).
 */
export async function readTiers(
	ctx: TransportContext,
	skillId: string,
	qs: IDataObject,
	asOf?: string,
	itemIndex?: number,
): Promise<ProficiencyReading[]> {
	return await apiList<ProficiencyReading>(
		ctx,
		`/skills/${skillId}/proficiency`,
		asOf === undefined ? qs : { ...qs, end_date: asOf },
		{ returnAll: true, itemIndex, concurrency: 2 },
	);
}

/** The tier changes of one skill between `from` and `to`: two readings, compared. */
export async function skillTierChanges(
	ctx: TransportContext,
	skill: SkillRef,
	qs: IDataObject,
	dates: { from: string; to: string },
	itemIndex?: number,
): Promise<IDataObject[]> {
	const before = await readTiers(ctx, skill.id, qs, dates.from, itemIndex);
	const after = await readTiers(ctx, skill.id, qs, dates.to, itemIndex);
	return tierChanges(skill, before, after, dates);
}

/** Reads a tier-change run costs: per skill, two readings of ceil(members / 100) reads each. */
export function readsPerSkill(members: number): number {
	return 2 * Math.max(1, Math.ceil(members / MAX_PAGE_SIZE));
}
