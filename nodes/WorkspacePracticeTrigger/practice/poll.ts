import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiListPage, apiRequest, mapWithConcurrency } from '../../shared/transport';
import type { FamilyPoll } from '../family';
import type { FoundAssignment } from './assignments';
import { findFinished, readAssignments, readAssignmentState } from './assignments';
import { ASSIGNMENTS_PATH, idOf, scenarioIdOf, SESSIONS_PATH, userIdOf } from './read';
import type { SessionWindow } from './sessions';
import { readSessions, startSessions } from './sessions';
import type { PracticeEvent, PracticeSettings } from './settings';
import { PRACTICE_EVENTS, readPracticeSettings, wantsAssignments } from './settings';
import type { PracticeState } from './state';
import { readState } from './state';

const HOUR = 3_600_000;
const DETAIL_CONCURRENCY = 4;

interface Found {
	event: PracticeEvent;
	kind: 'session' | 'assignment';
	row: IDataObject;
}

const sameQuery = (a: IDataObject | undefined, b: IDataObject | undefined) =>
	JSON.stringify(a) === JSON.stringify(b);

/** The newest of some times (epoch ms), null when none is known. */
function newestOf(...times: Array<number | null | undefined>): number | null {
	const known = times.filter((t): t is number => typeof t === 'number');
	return known.length ? Math.max(...known) : null;
}

/** The client-side part of Session Scored's filters: the rank and the score bounds. */
function scoreMatches(settings: PracticeSettings, row: IDataObject): boolean {
	if (settings.ranks.length > 0 && !settings.ranks.includes(String(row.rank))) return false;
	const score = Number(row.score);
	if (settings.scoreBelow !== undefined && !(score < settings.scoreBelow)) return false;
	if (settings.scoreAtLeast !== undefined && !(score >= settings.scoreAtLeast)) return false;
	return true;
}

/** Each session in full (feedback), one request per session, when the option asks for it. */
async function withFeedback(ctx: IPollFunctions, found: Found[]): Promise<Found[]> {
	return await mapWithConcurrency(found, DETAIL_CONCURRENCY, async (f) => {
		if (f.kind !== 'session') return f;
		const { body } = await apiRequest<IDataObject>(ctx, {
			method: 'GET',
			path: `${SESSIONS_PATH}/${encodeURIComponent(idOf(f.row))}`,
			what: `session ${idOf(f.row)}`,
		});
		return { ...f, row: body };
	});
}

const toItems = (found: Found[]): INodeExecutionData[] =>
	found.map((f) => ({ json: { event: f.event, [f.kind]: f.row } }));

/** A window read, or the starting point when there is none yet. */
async function sessionRead(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
	stored: SessionWindow | undefined,
): Promise<{ window: SessionWindow; fresh: IDataObject[] }> {
	if (!stored) return { window: await startSessions(ctx, query, lookbackMs), fresh: [] };
	return await readSessions(ctx, query, lookbackMs, stored);
}

/** A manual run shows the most recent match, so fields can be mapped; it reads nothing into the state. */
async function manualSample(
	ctx: IPollFunctions,
	settings: PracticeSettings,
): Promise<INodeExecutionData[][]> {
	if (settings.events.has('sessionScored')) {
		const { data } = await apiListPage<IDataObject>(
			ctx,
			SESSIONS_PATH,
			settings.scoredQuery,
			1,
			100,
		);
		const row = data.find((r) => scoreMatches(settings, r));
		if (row) {
			const [f] = settings.includeFeedback
				? await withFeedback(ctx, [{ event: 'sessionScored', kind: 'session', row }])
				: [{ event: 'sessionScored' as const, kind: 'session' as const, row }];
			return [toItems([f])];
		}
	}
	const statuses: Array<[PracticeEvent, string]> = [
		['assignmentCompleted', 'completed'],
		['assignmentDidNotPass', 'did_not_pass'],
		['assignmentPastDue', 'past_due'],
	];
	for (const [event, status] of statuses) {
		if (!settings.events.has(event)) continue;
		const { data } = await apiListPage<IDataObject>(
			ctx,
			ASSIGNMENTS_PATH,
			{ ...settings.assignmentQuery, status },
			1,
			1,
		);
		if (data[0]) return [toItems([{ event, kind: 'assignment', row: data[0] }])];
	}
	const chosen = [...settings.events].map((event) => PRACTICE_EVENTS[event]).join(', ');
	throw new NodeOperationError(ctx.getNode(), 'No practice result matches this trigger yet', {
		description: `The test run shows the most recent match for ${chosen} with the current Filters, and there is none. Practice a matching scenario (or widen the Filters), then fetch a test event again.`,
	});
}

/** One read of Practice Results from the stored state. */
async function read(
	this: IPollFunctions,
	settings: PracticeSettings,
	stored: PracticeState,
	readAt: number,
): Promise<{ state: PracticeState; items: INodeExecutionData[] }> {
	const next: PracticeState = { v: stored.v, key: stored.key, readAt };
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
		if (
			!state ||
			now >= state.nextOpenRead ||
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
	readState,
	read: async (ctx, settings, stored, readAt) => await read.call(ctx, settings, stored, readAt),
};
