import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { QueryField } from '../../shared/fields/filter.fields';
import { excludeSystemUsers, groupIds, members, toQuery } from '../../shared/fields/filter.fields';
import { validator } from '../../shared/validate';
import { readEvents } from '../family';
import { readMinReadMinutes } from '../readInterval';
import { knownTimeZone } from './schedule';

/** The family's one event, by its value and name. */
export const SKILL_TIER_EVENTS = { tierChanged: 'Tier Changed' } as const;
export type SkillTierEvent = keyof typeof SKILL_TIER_EVENTS;

export const DEFAULT_READ_HOUR = 6;

/** Filters as the proficiency endpoint takes them (spec 4.3). */
export const skillTierFilterFields: QueryField[] = [members, groupIds, excludeSystemUsers];

export interface SkillTiersSettings {
	events: Set<SkillTierEvent>;
	/** Empty: every skill of the workspace. */
	skillIds: string[];
	query: IDataObject;
	readHour: number;
	timeZone: string;
	/** Once a day from Read At (Hour), unless Options → Minimum Minutes Between Reads is set. */
	daily: boolean;
	/** Daily: every poll may look (it costs nothing until a read is due); else the option's value. */
	minReadMinutes: number;
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
	const readHour = check.intRange(
		'Read At (Hour)',
		ctx.getNodeParameter('skillTierReadHour', DEFAULT_READ_HOUR),
		0,
		23,
	);
	const timeZone = knownTimeZone(ctx.getTimezone());
	const options = ctx.getNodeParameter('skillTierOptions', {}) as IDataObject;
	const daily = options.minReadMinutes === undefined;
	const minReadMinutes = daily ? 0 : readMinReadMinutes(check, options);
	const key = JSON.stringify([[...skillIds].sort(), query]);
	return { events, skillIds, query, readHour, timeZone, daily, minReadMinutes, key };
}
