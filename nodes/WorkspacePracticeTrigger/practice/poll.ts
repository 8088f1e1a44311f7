import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { FamilyPoll } from '../family';
import { toItems } from '../family';
import { isDue } from '../quota';
import type { FoundAssignment } from './assignments';
import { findFinished, readAssignments, readAssignmentState } from './assignments';
import type { Found } from './read';
import { scenarioIdOf, scoreMatches, userIdOf, withFeedback } from './read';
import type { SessionWindow } from './sessions';
import { readSessions, startSessions } from './sessions';
import type { PracticeSettings } from './settings';
import { readPracticeSettings, wantsAssignments } from './settings';
import type { PracticeState } from './state';
import { readState } from './state';
import { manualSample, noSample } from './sample';

const HOUR = 3_600_000;

const sameQuery = (a: IDataObject | undefined, b: IDataObject | undefined) =>
	JSON.stringify(a) === JSON.stringify(b);

/** The newest of some times (epoch ms), null when none is known. */
function newestOf(...times: Array<number | null | undefined>): number | null {
	const known = times.filter((t): t is number => typeof t === 'number');
	return known.length ? Math.max(...known) : null;
}

/** A window read, or the starting point when there is none yet (as Knowledge Hub's streams do). */
async function sessionRead(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
	stored: SessionWindow | undefined,
): Promise<{ window: SessionWindow; fresh: IDataObject[] }> {
	return stored
		? await readSessions(ctx, query, lookbackMs, stored)
		: { window: await startSessions(ctx, query, lookbackMs), fresh: [] };
}

/** One read of Practice Results from the stored state. */
async function read(
	this: IPollFunctions,
	settings: PracticeSettings,
	stored: PracticeState,
): Promise<{ state: PracticeState; items: INodeExecutionData[] }> {
	const next: PracticeState = { v: stored.v, key: stored.key };
	const lookbackMs = settings.lookbackHours * HOUR;
	const found: Found[] = [];
	// The service's time as far as known before this poll: the newest created_at any read listed.
	const timeBefore = newestOf(stored.time, stored.scored?.anchor, stored.derive?.anchor);

	// Sessions: one read when Session Scored and the completions look at the same sessions.
	const shared = !settings.deriveQuery || sameQuery(settings.deriveQuery, settings.scoredQuery);
	let scoredFresh: IDataObject[] = [];
	let deriveFresh: IDataObject[] = [];
	const derivedFromScored = settings.deriveQuery !== undefined && shared;
	if (settings.events.has('sessionScored') || derivedFromScored) {
		const read = await sessionRead(this, settings.scoredQuery, lookbackMs, stored.scored);
		next.scored = read.window;
		scoredFresh = read.fresh;
		if (derivedFromScored) deriveFresh = read.fresh;
	}
	if (settings.deriveQuery && !derivedFromScored) {
		const read = await sessionRead(this, settings.deriveQuery, lookbackMs, stored.derive);
		next.derive = read.window;
		deriveFresh = read.fresh;
	}
	if (settings.events.has('sessionScored')) {
		for (const row of scoredFresh)
			if (scoreMatches(settings, row)) found.push({ event: 'sessionScored', kind: 'session', row });
	}
	let time = newestOf(timeBefore, next.scored?.anchor, next.derive?.anchor);

	if (wantsAssignments(settings)) {
		let state = readAssignmentState(stored.assignments);
		const now = Date.now();
		const assignmentFound: FoundAssignment[] = [];
		if (state && deriveFresh.length > 0) {
			assignmentFound.push(
				...(await findFinished(
					this,
					settings.assignmentQuery,
					state,
					deriveFresh.map(userIdOf),
					deriveFresh.map(scenarioIdOf),
				)),
			);
		}
		// After the fast path: one that finished while it ran is then looked up as gone from the list.
		// A read a little early counts as on time (quota.ts: the reads start a little early too), so
		// "every 6 hours" does not become "every 6 and a half".
		if (
			!state ||
			isDue(now, state.nextOpenRead, settings.openReadHours * HOUR) ||
			now < state.nextOpenRead - settings.openReadHours * HOUR
		) {
			// A starting point takes the time this poll's session reads saw too.
			const read = await readAssignments(
				this,
				settings.assignmentQuery,
				state,
				state ? timeBefore : time,
				!settings.events.has('assignmentCompleted') && !settings.events.has('assignmentDidNotPass'),
			);
			state = read.state;
			assignmentFound.push(...read.found);
			time = newestOf(time, read.newest);
			state.nextOpenRead = now + settings.openReadHours * HOUR;
		}
		next.assignments = state;
		for (const { event, row } of assignmentFound)
			if (settings.events.has(event)) found.push({ event, kind: 'assignment', row });
	}
	if (time !== null) next.time = time;

	// Sessions (oldest first) before the assignment changes they caused.
	const ordered = [
		...found.filter((f) => f.kind === 'session'),
		...found.filter((f) => f.kind === 'assignment'),
	];
	const items = toItems(settings.includeFeedback ? await withFeedback(this, ordered) : ordered);
	return { state: next, items };
}

/** Practice Results, as the trigger runs every family (family.ts). */
export const practicePoll: FamilyPoll<PracticeSettings, PracticeState> = {
	readSettings: readPracticeSettings,
	sample: manualSample,
	noSample,
	readState,
	read: async (ctx, settings, stored) => await read.call(ctx, settings, stored),
};
