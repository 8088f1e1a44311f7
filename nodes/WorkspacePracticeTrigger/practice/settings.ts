import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { QueryField } from '../../shared/fields/filter.fields';
import { toQuery } from '../../shared/fields/filter.fields';
import { validator } from '../../shared/validate';
import { readEvents } from '../family';
import { readMaxReads } from '../quota';
import { ASSIGNMENT_FILTERS, RANKS, SESSION_FILTERS } from './fields';

export const PRACTICE_EVENTS = {
	assignmentCompleted: 'Assignment Completed',
	assignmentDidNotPass: 'Assignment Did Not Pass',
	assignmentPastDue: 'Assignment Past Due',
	sessionScored: 'Session Scored',
} as const;
export type PracticeEvent = keyof typeof PRACTICE_EVENTS;

/** Sessions created this long before the newest one listed are still read (late scores, late arrivals). */
export const DEFAULT_LOOKBACK_HOURS = 6;
/** The open read grows with the workspace (1 request per 100 open); the fast path finds what sessions finish. */
export const DEFAULT_OPEN_READ_HOURS = 24;
/** Max Reads a Day by default with Session Scored: a read every 30 minutes with Poll Times Every Minute. */
export const DEFAULT_MAX_READS = 48;
/** ... and with assignment events alone, a read an hour: no coach waits on those by the minute. */
export const DEFAULT_ASSIGNMENT_MAX_READS = 24;

export interface PracticeSettings {
	events: Set<PracticeEvent>;
	/** Query of the Session Scored read, without the date bound. */
	scoredQuery: IDataObject;
	/** Filters → Rank (empty: every rank). */
	ranks: string[];
	/** Query of the sessions read that finds completions; undefined when no completion event is chosen. */
	deriveQuery?: IDataObject;
	/** Query of every assignment read (scenarios, programs, members). */
	assignmentQuery: IDataObject;
	scoreBelow?: number;
	scoreAtLeast?: number;
	includeFeedback: boolean;
	lookbackHours: number;
	openReadHours: number;
	/** Options → Max Reads a Day (quota.ts). */
	maxReadsPerDay: number;
	/** Reads the quota holds at activation: 16 hours' worth (quota.ts). */
	quotaStartReads: number;
}

export const wantsAssignments = (s: PracticeSettings): boolean =>
	s.events.has('assignmentCompleted') ||
	s.events.has('assignmentDidNotPass') ||
	s.events.has('assignmentPastDue');

const pick = (fields: QueryField[], names: string[]) =>
	fields.filter((f) => names.includes(f.property.name));

/** The Practice Results form, checked before any request. */
export function readPracticeSettings(ctx: IPollFunctions): PracticeSettings {
	const check = validator(ctx, 0);
	const events = readEvents(ctx, 'practiceEvents', PRACTICE_EVENTS, 'practice event');
	const filters = ctx.getNodeParameter('practiceFilters', {}) as IDataObject;
	const ranks = filters.rank === undefined ? [] : check.list('Filters → Rank', filters.rank);
	const score = (name: string, field: string) =>
		filters[name] === undefined || filters[name] === ''
			? undefined
			: check.intRange(`Filters → ${field}`, filters[name], 0, 101);
	const scoreBelow = score('scoreBelow', 'Score Below');
	const scoreAtLeast = score('scoreAtLeast', 'Score At or Above');
	if (scoreBelow !== undefined && scoreAtLeast !== undefined && scoreAtLeast >= scoreBelow)
		check.fail(
			'Filters → Score At or Above',
			`must be less than Score Below (${scoreBelow}); no score could match both`,
		);
	const shared = toQuery(ctx, 0, filters, pick(SESSION_FILTERS, ['scenario_ids', 'members']));
	// The rank filter (every rank) leaves unscored sessions out; Filters → Rank applies to the rows.
	const sessionFilters = toQuery(ctx, 0, filters, SESSION_FILTERS);
	const completions = events.has('assignmentCompleted') || events.has('assignmentDidNotPass');
	// Alone, Session Scored reads its ranks only: another rank's newer session cannot push a late one out.
	const scoredQuery = {
		...sessionFilters,
		rank: (ranks.length && !completions ? ranks : RANKS).join(','),
	};
	const assignmentQuery = toQuery(ctx, 0, filters, ASSIGNMENT_FILTERS);
	const options = ctx.getNodeParameter('practiceOptions', {}) as IDataObject;
	const maxReadsPerDay = readMaxReads(
		check,
		options,
		events.has('sessionScored') ? DEFAULT_MAX_READS : DEFAULT_ASSIGNMENT_MAX_READS,
	);
	return {
		events,
		scoredQuery,
		// Sessions carry no program: the completions' session read leaves Programs to the assignment read.
		deriveQuery: completions ? { ...shared, rank: RANKS.join(',') } : undefined,
		assignmentQuery,
		ranks,
		scoreBelow,
		scoreAtLeast,
		includeFeedback: options.includeFeedback === true,
		lookbackHours: check.intRange(
			'Options → Lookback Hours',
			options.lookbackHours ?? DEFAULT_LOOKBACK_HOURS,
			1,
			168,
		),
		openReadHours: check.intRange(
			'Options → Hours Between Open Reads',
			options.openReadHours ?? DEFAULT_OPEN_READ_HOURS,
			0,
			168,
		),
		maxReadsPerDay,
		// What 17:00 to 09:00 refills, so working-hours Poll Times read at every poll from the start.
		quotaStartReads: Math.round((maxReadsPerDay * 16) / 24),
	};
}
