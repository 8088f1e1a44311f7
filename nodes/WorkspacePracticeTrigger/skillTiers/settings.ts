import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { QueryField } from '../../shared/fields/filter.fields';
import { excludeSystemUsers, groupIds, members, toQuery } from '../../shared/fields/filter.fields';
import { validator } from '../../shared/validate';
import { readEvents } from '../family';
import { readMaxReads } from '../quota';

/** The family's one event, by its value and name. */
export const SKILL_TIER_EVENTS = { tierChanged: 'Tier Changed' } as const;
export type SkillTierEvent = keyof typeof SKILL_TIER_EVENTS;

/** Max Reads a Day by default: one read a day (Poll Times, e.g. Every Day at 6, says when). */
export const DEFAULT_MAX_READS = 1;

/** Filters as the proficiency endpoint takes them (spec 4.3). */
export const skillTierFilterFields: QueryField[] = [members, groupIds, excludeSystemUsers];

export interface SkillTiersSettings {
	events: Set<SkillTierEvent>;
	/** Empty: every skill of the workspace. */
	skillIds: string[];
	query: IDataObject;
	/** Options → Max Reads a Day (quota.ts). */
	maxReadsPerDay: number;
	/** What the state was built for: other skills or filters start over. */
	key: string;
}

/** The form, checked before any request. */
export function readSkillTiersSettings(ctx: IPollFunctions): SkillTiersSettings {
	const check = validator(ctx, 0);
	const events = readEvents(ctx, 'skillTierEvents', SKILL_TIER_EVENTS, 'tier event');
	const skillIds = check.uuidList(
		'Skill Names or IDs',
		ctx.getNodeParameter('skillTierSkills', []),
	);
	const filters = ctx.getNodeParameter('skillTierFilters', {}) as IDataObject;
	const query = toQuery(ctx, 0, filters, skillTierFilterFields);
	const options = ctx.getNodeParameter('skillTierOptions', {}) as IDataObject;
	const maxReadsPerDay = readMaxReads(check, options, DEFAULT_MAX_READS);
	const key = JSON.stringify([[...skillIds].sort(), query]);
	return { events, skillIds, query, maxReadsPerDay, key };
}
