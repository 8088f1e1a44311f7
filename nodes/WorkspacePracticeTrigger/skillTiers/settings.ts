import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { QueryField } from '../../shared/fields/filter.fields';
import { groupIds, members, toQuery } from '../../shared/fields/filter.fields';
import { validator } from '../../shared/validate';
import { readEvents } from '../family';
import { readMaxReads } from '../quota';

/** The family's one event, by its value and name. */
export const SKILL_TIER_EVENTS = { tierChanged: 'Tier Changed' } as const;

/** Max Reads a Day by default: one read a day (Poll Times, e.g. Custom `0 * 23 * * *`, says when). */
export const DEFAULT_MAX_READS = 1;

/** Options → Sweep Every (Days): every skill's members are all read at least this often. */
export const DEFAULT_SWEEP_DAYS = 7;
export const MAX_SWEEP_DAYS = 90;

/** Filters as the proficiency endpoint and the sessions list take them (spec 4.3). */
export const skillTierFilterFields: QueryField[] = [members, groupIds];

export interface SkillTiersSettings {
	/** Empty: every skill of the workspace. */
	skillIds: string[];
	/** The scope's people: members, groups, and system users left out unless included. */
	query: IDataObject;
	sweepDays: number;
	maxReadsPerDay: number;
	/** The filters the stored tiers were read with: pairs that stay in scope keep their history. */
	key: string;
}

/** The form, checked before any request. */
export function readSkillTiersSettings(ctx: IPollFunctions): SkillTiersSettings {
	const check = validator(ctx, 0);
	// Checked only: Tier Changed is the one event.
	readEvents(ctx, 'skillTierEvents', SKILL_TIER_EVENTS, 'tier event');
	const skillIds = check.uuidList(
		'Skill Names or IDs',
		ctx.getNodeParameter('skillTierSkills', []),
	);
	const filters = ctx.getNodeParameter('skillTierFilters', {}) as IDataObject;
	const query = toQuery(ctx, 0, filters, skillTierFilterFields);
	const options = ctx.getNodeParameter('skillTierOptions', {}) as IDataObject;
	if (options.includeSystemUsers !== true) query.exclude_system_users = true;
	const sweepDays = check.intRange(
		'Options → Sweep Every (Days)',
		options.sweepDays ?? DEFAULT_SWEEP_DAYS,
		1,
		MAX_SWEEP_DAYS,
	);
	const maxReadsPerDay = readMaxReads(check, options, DEFAULT_MAX_READS);
	return { skillIds, query, sweepDays, maxReadsPerDay, key: JSON.stringify(query) };
}
