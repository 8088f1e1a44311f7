import type { IDataObject } from 'n8n-workflow';

import type { FamilyState } from '../family';
import { storedState } from '../family';
import { isObject } from './read';
import type { SessionWindow } from './sessions';
import type { PracticeSettings } from './settings';

/** Practice state in the node's static data; another version (or the Knowledge Hub state) starts over. */
export const PRACTICE_STATE_VERSION = 'practice-1';

export interface PracticeState extends FamilyState {
	v: typeof PRACTICE_STATE_VERSION;
	/** Key of the form's filters the state was built for: other filters start over. */
	key: string;
	/** The Session Scored read. */
	scored?: SessionWindow;
	/** The read that finds completions, when its query differs from the Session Scored one. */
	derive?: SessionWindow;
	/** The assignment state (assignments.ts reads it). */
	assignments?: unknown;
	/** Newest created_at any read listed (epoch ms): the service's time as far as known. */
	time?: number;
}

/** The key of the form's filters a state is built for: the queries read, Rank and Lookback Hours. */
const keyOf = (settings: PracticeSettings): string =>
	JSON.stringify([
		[...settings.events].sort(),
		settings.scoredQuery,
		settings.ranks,
		settings.deriveQuery ?? null,
		settings.assignmentQuery,
		settings.lookbackHours,
	]);

/** The stored state if it is a practice state built for these settings; a fresh one otherwise. */
export function readState(staticData: IDataObject, settings: PracticeSettings): PracticeState {
	const key = keyOf(settings);
	const copy = storedState<PracticeState>(staticData, PRACTICE_STATE_VERSION, key);
	if (!copy) return { v: PRACTICE_STATE_VERSION, key };
	if (copy.scored !== undefined && !isObject(copy.scored)) delete copy.scored;
	if (copy.derive !== undefined && !isObject(copy.derive)) delete copy.derive;
	if (copy.assignments !== undefined && !isObject(copy.assignments)) delete copy.assignments;
	return copy;
}
