import type { IDataObject } from 'n8n-workflow';

import type { SessionWindow } from './sessions';

/** Practice state in the node's static data; another version (or the Knowledge Hub state) starts over. */
export const PRACTICE_STATE_VERSION = 'practice-1';

export interface PracticeState {
	v: typeof PRACTICE_STATE_VERSION;
	readAt?: number;
	/** Key of the form's filters the state was built for: other filters start over. */
	key: string;
	/** The Session Scored read. */
	scored?: SessionWindow;
	/** The read that finds completions, when its query differs from the Session Scored one. */
	derive?: SessionWindow;
	/** The assignment state (assignments.ts reads it, and converts an earlier shape). */
	assignments?: unknown;
	/** Newest created_at any read listed (epoch ms): the service's time as far as known. */
	time?: number;
}

const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored state if it is a practice state built for `key`; a fresh one otherwise. */
export function readPracticeState(staticData: IDataObject, key: string): PracticeState {
	const fresh: PracticeState = { v: PRACTICE_STATE_VERSION, key };
	if (staticData.v !== PRACTICE_STATE_VERSION || staticData.key !== key) return fresh;
	const copy = JSON.parse(JSON.stringify(staticData)) as PracticeState;
	if (copy.scored !== undefined && !isObject(copy.scored)) delete copy.scored;
	if (copy.derive !== undefined && !isObject(copy.derive)) delete copy.derive;
	if (copy.assignments !== undefined && !isObject(copy.assignments)) delete copy.assignments;
	return copy;
}
