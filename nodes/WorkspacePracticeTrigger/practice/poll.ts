import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { FamilyPoll, PollRead } from '../family';
import { toItems } from '../family';
import { isDueOnSchedule, nextDue } from '../quota';
import type { AssignmentState, FoundAssignment } from './assignments';
import { findFinished, firstOpenReadAt, readAssignments, readAssignmentState } from './assignments';
import type { Found } from './read';
import { idOf, scenarioIdOf, scoreMatches, userIdOf, withFeedback } from './read';
import type { SessionRead, SessionWindow } from './sessions';
import { handOnBefore, besideWider, readSessions, startSessions } from './sessions';
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

/**
 * A window read, or the starting point when there is none yet; undefined when out of time at once.
 * `goingOn`: this poll goes on with an assignment read the last one left, so a window read already (no
 * backlog) is left as it is: read again at every such poll, at 12 s a request, it took the time the
 * assignment read needed, and a starting point was never done (issue 54).
 */
async function sessionRead(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
	stored: SessionWindow | undefined,
	goingOn: boolean,
	run: PollRead,
): Promise<SessionRead | undefined> {
	if (goingOn && stored && stored.backlog === undefined) return { window: stored, fresh: [] };
	return await run.step(
		stored ? readSessions(ctx, query, lookbackMs, stored) : startSessions(ctx, query, lookbackMs),
	);
}

/**
 * The assignment part of a read, on a copy of the stored state. A fast path the poll's deadline cut
 * keeps what it found; the next poll's full read finds the rest.
 */
async function assignmentRead(
	ctx: IPollFunctions,
	settings: PracticeSettings,
	stored: unknown,
	timeBefore: number | null,
	timeNow: number | null,
	deriveFresh: IDataObject[],
): Promise<{ state: AssignmentState; found: FoundAssignment[]; time: number | null }> {
	let time = timeNow;
	let state = readAssignmentState(
		stored === undefined ? undefined : (JSON.parse(JSON.stringify(stored)) as unknown),
	);
	const now = Date.now();
	const assignmentFound: FoundAssignment[] = [];
	// A little early is on time.
	const due =
		!state ||
		state.reading !== undefined ||
		isDueOnSchedule(now, state.nextOpenRead, settings.openReadHours * HOUR);
	let cut = false;
	// Not when a full read begins: it finds the same (one finished meanwhile is looked up as gone), and
	// a fast path the deadline cut at every poll would hold it off for good.
	if (state && deriveFresh.length > 0 && (state.reading !== undefined || !due)) {
		const fast = await findFinished(
			ctx,
			settings.assignmentQuery,
			state,
			deriveFresh.map(userIdOf),
			deriveFresh.map(scenarioIdOf),
		);
		assignmentFound.push(...fast.found);
		cut = fast.cut;
		if (cut) state.nextOpenRead = 0;
	}
	if (due && !cut) {
		const starting = !state || state.reading?.start === true;
		// A starting point takes the time this poll's session reads saw too.
		const read = await readAssignments(
			ctx,
			settings.assignmentQuery,
			state,
			state ? timeBefore : time,
			!settings.events.has('assignmentCompleted') && !settings.events.has('assignmentDidNotPass'),
		);
		state = read.state;
		assignmentFound.push(...read.found);
		time = newestOf(time, read.newest);
		// Set once the read is done (one going on over several polls keeps its due instant), an interval
		// after that instant. After a starting point, the first one comes at the day's end (issue 55).
		if (!state.reading)
			state.nextOpenRead = starting
				? firstOpenReadAt(now, settings.openReadHours * HOUR, ctx.getTimezone())
				: nextDue(now, state.nextOpenRead, settings.openReadHours * HOUR);
	}
	return { state: state!, found: assignmentFound, time };
}

/**
 * One read of Practice Results; each part stops at the poll's deadline (`run.step` or its page walk)
 * and keeps where to go on in the state; the runner marks it `continues` (family.ts).
 */
async function read(
	this: IPollFunctions,
	settings: PracticeSettings,
	stored: PracticeState,
	run: PollRead,
): Promise<{ state: PracticeState; items: INodeExecutionData[] }> {
	const next: PracticeState = { v: stored.v, key: stored.key };
	const lookbackMs = settings.lookbackHours * HOUR;
	const found: Found[] = [];
	const timeBefore = newestOf(stored.time, stored.scored?.anchor, stored.derive?.anchor);
	const assignmentFound: Found[] = [];
	const assignmentPart = async (timeNow: number | null, deriveFresh: IDataObject[]) => {
		const read = await run.step(
			assignmentRead(this, settings, stored.assignments, timeBefore, timeNow, deriveFresh),
		);
		if (read) {
			next.assignments = read.state;
			for (const { event, row } of read.found)
				if (settings.events.has(event)) assignmentFound.push({ event, kind: 'assignment', row });
			return read.time;
		}
		const kept = readAssignmentState(stored.assignments);
		// New sessions' completions: the next poll's full read finds them (see above).
		if (kept && deriveFresh.length > 0) kept.nextOpenRead = 0;
		if (kept) next.assignments = kept;
		return timeNow;
	};

	// Sessions: one read when Session Scored and the completions look at the same sessions.
	const shared = !settings.deriveQuery || sameQuery(settings.deriveQuery, settings.scoredQuery);
	let scoredRead: SessionRead | undefined;
	let scoredFresh: IDataObject[] = [];
	let deriveFresh: IDataObject[] = [];
	const derivedFromScored = settings.deriveQuery !== undefined && shared;
	// An assignment read under way is only ever continued by the poll after the one the deadline cut.
	const goingOn = readAssignmentState(stored.assignments)?.reading !== undefined;
	// The wider read first: what it lists was scored before the Session Scored read began.
	let wider: SessionRead | undefined;
	if (settings.deriveQuery && !derivedFromScored) {
		wider = await sessionRead(this, settings.deriveQuery, lookbackMs, stored.derive, goingOn, run);
		if (wider) next.derive = wider.window;
		else if (stored.derive) next.derive = stored.derive;
		deriveFresh = wider?.fresh ?? [];
	}
	if (settings.events.has('sessionScored') || derivedFromScored) {
		scoredRead = await sessionRead(
			this,
			settings.scoredQuery,
			lookbackMs,
			stored.scored,
			goingOn,
			run,
		);
		// Groups: the wider read tells a member who joined from a score (sessions.ts).
		if (scoredRead && wider) scoredRead = besideWider(scoredRead, wider.window, lookbackMs);
		if (scoredRead) next.scored = scoredRead.window;
		else if (stored.scored) next.scored = stored.scored;
		scoredFresh = scoredRead?.fresh ?? [];
		if (derivedFromScored) deriveFresh = scoredFresh;
	}
	if (settings.events.has('sessionScored')) {
		const scored: Found[] = [];
		for (const row of scoredFresh)
			if (scoreMatches(settings, row))
				scored.push({ event: 'sessionScored', kind: 'session', row });
		// Feedback in order until the deadline: the sessions after the first without it wait.
		const withDetail = settings.includeFeedback ? await withFeedback(this, scored) : scored;
		if (scoredRead && withDetail.length < scored.length) {
			const left = scored.slice(withDetail.length).map((f) => f.row);
			next.scored = handOnBefore(scoredRead, left);
			// The completions of sessions handed on are looked for when they are read again.
			const waiting = new Set(left.map(idOf));
			if (derivedFromScored) deriveFresh = deriveFresh.filter((row) => !waiting.has(idOf(row)));
		}
		found.push(...withDetail);
	}
	let time = newestOf(timeBefore, next.scored?.anchor, next.derive?.anchor);

	if (wantsAssignments(settings)) time = await assignmentPart(time, deriveFresh);
	if (time !== null) next.time = time;

	// Sessions (oldest first) before the assignment changes they caused.
	return { state: next, items: toItems([...found, ...assignmentFound]) };
}

/** Practice Results, as the trigger runs every family (family.ts). */
export const practicePoll: FamilyPoll<PracticeSettings, PracticeState> = {
	readSettings: readPracticeSettings,
	sample: manualSample,
	noSample,
	readState,
	read: async (ctx, settings, stored, run) => await read.call(ctx, settings, stored, run),
};
