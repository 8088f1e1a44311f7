import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { locatorValue } from '../../shared/fields/locator';
import { optionalMember } from '../../shared/fields/member.locator';
import { validator } from '../../shared/validate';
import { compact } from '../../shared/values';
import { readEvents } from '../family';
import { readMaxReads } from '../quota';
import type { TriggerEvent } from './events';
import { EVENTS, PAGE_EVENTS } from './events';

export interface Settings {
	events: Set<TriggerEvent>;
	pageFilters: IDataObject;
	sourceFilters: IDataObject;
	fetchFull: boolean;
	/** Whether any page filter is set (see the first-sight rule in events.ts). */
	filtered: boolean;
	/** Options → Max Reads a Day (quota.ts). */
	maxReadsPerDay: number;
}

/**
 * Max Reads a Day by default: a read every 2 hours when Poll Times says Every Minute. A read of every
 * event costs 2 requests (pages and sources): at 48 the watcher took 96 of a team's 1,000 a day, for
 * changes that rarely need minutes (issue 48).
 */
export const DEFAULT_MAX_READS = 12;

/** The Knowledge Hub form, checked before any request. */
export function readSettings(ctx: IPollFunctions): Settings {
	const check = validator(ctx, 0);
	const events = readEvents(ctx, 'events', EVENTS, 'event');
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const folder = locatorValue(filters.folder);
	const skill = locatorValue(filters.skill);
	const owner = optionalMember(check, 'Filters → Owner', filters.owner, 'id');
	const title = typeof filters.titleContains === 'string' ? filters.titleContains.trim() : '';
	const common = compact({
		folder_id: folder ? check.uuid('Filters → Folder', folder) : undefined,
		query: title,
	});
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return {
		events,
		pageFilters: compact({
			...common,
			owner_id: owner,
			skill_id: skill ? check.uuid('Filters → Skill', skill) : undefined,
			status: typeof filters.status === 'string' ? filters.status : undefined,
		}),
		sourceFilters: common,
		fetchFull: options.fetchFull === true,
		filtered: Boolean(folder || owner || skill || title || typeof filters.status === 'string'),
		maxReadsPerDay: readMaxReads(check, options, DEFAULT_MAX_READS),
	};
}

export const wantsPages = (s: Settings): boolean =>
	PAGE_EVENTS.some((event) => s.events.has(event));
export const wantsSources = (s: Settings): boolean => s.events.has('sourceReady');
