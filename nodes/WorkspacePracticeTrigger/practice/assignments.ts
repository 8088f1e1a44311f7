import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { untilDeadline } from '../../shared/transport';
import {
	ASSIGNMENTS_PATH,
	idOf,
	isObject,
	readAll,
	readNewest,
	readPagesInTime,
	scenarioIdOf,
	stampOf,
	userIdOf,
} from './read';

// Assignments have no updated time: outcomes come from `open`, `floor` and `fin` (docs/practice-events.md).
export type OpenStatus = 'n' | 'i' | 'p';
/** Known open assignment: status, user id, scenario id, created_at (ms; 0 when the row had none). */
export type OpenEntry = [OpenStatus, string, string, number?];

export interface AssignmentState {
	v: 2;
	open: Record<string, OpenEntry>;
	/** Finished ones known (history or emitted) created at or after `floor`: id → created (ms). */
	fin: Record<string, number>;
	/** Created before it: open at a read or finished by then; null: every finished one is new. */
	floor: number | null;
	/** When the next assignment read is due (this host's ms). */
	nextOpenRead: number;
	/** Past Due alone: known past-due ids the last read did not list (dropped when unlisted twice). */
	miss?: string[];
	/** An assignment read the poll's deadline stopped: where the next poll goes on. */
	reading?: OpenReading;
}

/** An assignment read's open list so far: next page (0: read through); `start`: no events. */
export interface OpenReading {
	page: number;
	open: Record<string, OpenEntry>;
	newest: number | null;
	start?: true;
}

export type AssignmentEvent = 'assignmentCompleted' | 'assignmentDidNotPass' | 'assignmentPastDue';

export interface FoundAssignment {
	event: AssignmentEvent;
	row: IDataObject;
}

const OPEN_CODE: Record<string, OpenStatus> = { not_started: 'n', in_progress: 'i', past_due: 'p' };
const FINISHED = 'completed,did_not_pass';
const OPEN_STATUSES = 'not_started,in_progress,past_due';
/** How far the service's clock may step back without losing an outcome. */
const MARGIN_MS = 3_600_000;
/** Guards the static data only (~80 bytes each): far above any open set, as a cut one is never sent. */
const MAX_OPEN = 50_000;

function raiseFloor(state: AssignmentState, serviceTime: number | null): void {
	const floor = serviceTime === null ? null : serviceTime - MARGIN_MS;
	if (floor !== null && (state.floor === null || floor > state.floor)) state.floor = floor;
}

const eventOfFinished = (row: IDataObject): AssignmentEvent | undefined =>
	row.status === 'completed'
		? 'assignmentCompleted'
		: row.status === 'did_not_pass'
			? 'assignmentDidNotPass'
			: undefined;

const emptyState = (): AssignmentState => ({
	v: 2,
	open: {},
	fin: {},
	floor: null,
	nextOpenRead: 0,
});

const DAY_MS = 86_400_000;
/** A day's end closer than this to a starting point waits for the next one (no second read at once). */
const FIRST_READ_MIN_MS = 3 * 3_600_000;

/** The end of the day `now` is in, in this time zone (UTC when the zone is unknown); ±1 h on a DST day. */
function dayEnd(now: number, timeZone: string): number {
	let parts: Intl.DateTimeFormatPart[];
	try {
		parts = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		}).formatToParts(now);
	} catch {
		return now - (now % DAY_MS) + DAY_MS;
	}
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
	const sinceMidnight =
		((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 + (now % 1000);
	return now - sinceMidnight + DAY_MS;
}

/**
 * When the first open read after a starting point is due: at the end of that day in the workflow's time
 * zone (a past-due digest activated in the morning sends the day's past-due events that evening, issue
 * 55), or the next day's when that is under 3 hours away; never later than the interval.
 */
export function firstOpenReadAt(now: number, intervalMs: number, timeZone: string): number {
	let end = dayEnd(now, timeZone);
	if (end - now < FIRST_READ_MIN_MS) end = dayEnd(end + FIRST_READ_MIN_MS, timeZone);
	return Math.min(now + intervalMs, end);
}

/** The stored assignment state, or undefined (anything else) for a new starting point. */
export function readAssignmentState(stored: unknown): AssignmentState | undefined {
	return isObject(stored) && stored.v === 2 && isObject(stored.open) && isObject(stored.fin)
		? (stored as unknown as AssignmentState)
		: undefined;
}

/** Finished rows into events (state updated in place); those at or after `floor` become known. */
function outcomes(state: AssignmentState, rows: IDataObject[], emit: boolean): FoundAssignment[] {
	const found: FoundAssignment[] = [];
	for (const row of rows) {
		const event = eventOfFinished(row);
		if (event === undefined) continue;
		const id = idOf(row);
		const created = stampOf(row.created_at) ?? 0;
		const recent = state.floor === null || created >= state.floor;
		const isNew = id in state.open || (recent && !(id in state.fin));
		delete state.open[id];
		if (recent) state.fin[id] = created;
		if (isNew && emit) found.push({ event, row });
	}
	return found;
}

/** The form's assignment filters narrowed to these people and scenarios (undefined: none can match). */
function narrowed(
	query: IDataObject,
	users: string[],
	scenarios: string[],
): IDataObject | undefined {
	const wanted = query.scenario_ids
		? String(query.scenario_ids)
				.split(',')
				.filter((id) => scenarios.includes(id))
		: scenarios;
	if (users.length === 0 || wanted.length === 0) return undefined;
	// The people are the sessions' own (by user ID); the form's Members were already applied to them.
	const rest: IDataObject = { ...query, scenario_ids: wanted.join(',') };
	delete rest.user_ids;
	delete rest.user_emails;
	return rest;
}

/** Most ids one list request names, so its address stays short. */
const IDS_PER_REQUEST = 50;

/** A list read for many users, in requests of at most IDS_PER_REQUEST user ids each. */
async function forUsers(
	users: string[],
	read: (userIds: string) => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	const rows: IDataObject[] = [];
	for (let i = 0; i < users.length; i += IDS_PER_REQUEST)
		rows.push(...(await read(users.slice(i, i + IDS_PER_REQUEST).join(','))));
	return rows;
}

/**
 * Finished assignments of these people on these scenarios, newest first, read down to the cut-off
 * (`floor`) and to the oldest known-open one looked for (`entries`), or until every one of those is found
 * when that is lower: a row is an outcome when it was known open, or given since the cut-off and not yet
 * seen (`outcomes`).
 */
async function lookUp(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	entries: Array<[string, OpenEntry]>,
	people: { users: string[]; scenarios: string[]; sinceFloor: boolean },
): Promise<FoundAssignment[]> {
	const users = [...new Set([...people.users, ...entries.map(([, e]) => e[1])])];
	const qs = narrowed(query, users, [
		...new Set([...people.scenarios, ...entries.map(([, e]) => e[2])]),
	]);
	if (!qs) return [];
	// An entry of unknown age (its row had no created_at) is looked for on every page.
	const oldest = entries.some(([, e]) => !e[3]) ? null : Math.min(...entries.map(([, e]) => e[3]!));
	const missing = new Set(entries.map(([id]) => id));
	// Given since the cut-off: every page down to it (null: no cut-off yet, every page is recent).
	const floor = people.sinceFloor ? state.floor : Infinity;
	const lowest = (a: number | null, b: number | null) =>
		a === null || b === null ? null : Math.min(a, b);
	const rows = await forUsers(users, async (userIds) =>
		missing.size === 0 && floor === Infinity
			? []
			: await readNewest(
					ctx,
					ASSIGNMENTS_PATH,
					{ ...qs, status: FINISHED, user_ids: userIds },
					(row) => {
						missing.delete(idOf(row));
						return lowest(missing.size === 0 ? Infinity : oldest, floor);
					},
				),
	);
	return outcomes(state, rows, true);
}

/**
 * The fast path after scored sessions: the finished assignments of their people on their scenarios,
 * those known open and those given since the cut-off (an assignment given since the last assignment read
 * is not known, and its outcome shows in the same list: issue 54).
 */
export async function findFinished(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	userIds: string[],
	scenarioIds: string[],
): Promise<FoundAssignment[]> {
	const pairs = new Set(userIds.map((user, i) => `${user}|${scenarioIds[i]}`));
	// A starting point read over several polls has no cut-off yet: only what it has listed open is new.
	const starting = state.reading?.start === true;
	const known = starting ? state.reading!.open : state.open;
	const candidates = Object.entries(known).filter(([, e]) => pairs.has(`${e[1]}|${e[2]}`));
	if (userIds.length === 0 || (starting && candidates.length === 0)) return [];
	if (starting)
		return await lookUp(ctx, query, { ...state, open: known, floor: Infinity }, candidates, {
			users: [],
			scenarios: [],
			sinceFloor: false,
		});
	return await lookUp(ctx, query, state, candidates, {
		users: userIds,
		scenarios: scenarioIds,
		sinceFloor: true,
	});
}

/** The assignment read; `serviceTime`: the newest created_at listed before this poll (null: none). */
export async function readAssignments(
	ctx: IPollFunctions,
	query: IDataObject,
	stored: AssignmentState | undefined,
	serviceTime: number | null,
	pastDueOnly = false,
): Promise<{ state: AssignmentState; found: FoundAssignment[]; newest: number | null }> {
	if (pastDueOnly) {
		// The starting point of Past Due alone is the past-due list too: what is past due now is history.
		const read = await readPastDue(ctx, query, stored ?? emptyState(), serviceTime);
		return stored ? read : { ...read, found: [] };
	}
	const reading = stored?.reading;
	const first = stored === undefined || reading?.start === true;
	const state = stored ?? emptyState();
	delete state.reading;
	// Past-due events are judged per page against the state before the read.
	const time = { newest: reading?.newest ?? null };
	const note = (created: number | undefined) => {
		if (created !== undefined)
			time.newest = time.newest === null ? created : Math.max(time.newest, created);
	};
	const found: FoundAssignment[] = [];
	const open: Record<string, OpenEntry> = { ...reading?.open };
	const onPage = (rows: IDataObject[]) => {
		for (const row of rows) {
			const code = OPEN_CODE[String(row.status)];
			const id = idOf(row);
			// A row read twice (the list moved between two pages) keeps its first reading.
			if (code === undefined || id in open) continue;
			const before = state.open[id];
			const created = stampOf(row.created_at);
			note(created);
			const recent =
				created !== undefined &&
				(state.floor === null || created >= state.floor) &&
				!(id in state.fin);
			if (!first && code === 'p' && (before ? before[0] !== 'p' : recent))
				found.push({ event: 'assignmentPastDue', row });
			open[id] = [code, userIdOf(row), scenarioIdOf(row), created ?? 0];
		}
	};
	const openQuery = { ...query, status: OPEN_STATUSES };
	const next =
		reading?.page === 0
			? undefined
			: await readPagesInTime(ctx, ASSIGNMENTS_PATH, openQuery, reading?.page ?? 1, onPage);
	const readSoFar = (page: number): OpenReading => {
		const left: OpenReading = { page, open: { ...open }, newest: time.newest };
		if (first) left.start = true;
		return left;
	};
	if (next !== undefined)
		return { state: { ...state, reading: readSoFar(next) }, found, newest: time.newest };
	// On a deadline after the open list, the next poll goes on from it with the state as it was.
	const before = JSON.parse(JSON.stringify(state)) as AssignmentState;
	const listed = readSoFar(0);
	const rest = await untilDeadline(
		finishRead(ctx, query, state, first, open, time, note, serviceTime),
	);
	if (!rest) return { state: { ...before, reading: listed }, found, newest: time.newest };
	return { state: rest.state, found: [...found, ...rest.found], newest: time.newest };
}

/** After the open list: finished ones since `floor`, then a look-up of known-open ones gone. */
async function finishRead(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	first: boolean,
	open: Record<string, OpenEntry>,
	time: { newest: number | null },
	note: (created: number | undefined) => void,
	serviceTime: number | null,
): Promise<{ state: AssignmentState; found: FoundAssignment[] }> {
	const found: FoundAssignment[] = [];
	const finishedQuery = { ...query, status: FINISHED };
	if (first) {
		// The starting point: what is finished now is history; the newest row tells the service's time.
		const startFloor = () => {
			const t = time.newest === null ? serviceTime : Math.max(time.newest, serviceTime ?? 0);
			return t === null ? null : t - MARGIN_MS;
		};
		const recent = await readNewest(ctx, ASSIGNMENTS_PATH, finishedQuery, (row) => {
			note(stampOf(row.created_at));
			return startFloor();
		});
		state.floor = startFloor();
		state.open = open;
		// Listed open by this starting point, finished now: finished after it began (a starting point read
		// over several polls, issue 54). The rest finished before: history.
		outcomes(
			state,
			recent.filter((row) => !(idOf(row) in open)),
			false,
		);
		found.push(
			...outcomes(
				state,
				recent.filter((row) => idOf(row) in open),
				true,
			),
		);
		return { state, found };
	}
	const before = state.open;
	// Known-open ones not listed any more finished, or a read missed them while the list moved.
	state.open = { ...before, ...open };
	const floor = state.floor;
	const recentRows = await readNewest(ctx, ASSIGNMENTS_PATH, finishedQuery, (row) => {
		note(stampOf(row.created_at));
		return floor;
	});
	found.push(...outcomes(state, recentRows, true));
	const gone = Object.keys(before).filter((id) => !(id in open) && id in state.open);
	if (gone.length > 0)
		found.push(
			...(await lookUp(
				ctx,
				query,
				state,
				gone.map((id) => [id, before[id]]),
				{ users: [], scenarios: [], sinceFloor: false },
			)),
		);
	// Gone but not found finished stays known open until a read shows what it became.
	const kept = Object.keys(state.open);
	for (const id of kept.slice(0, Math.max(0, kept.length - MAX_OPEN))) delete state.open[id];
	for (const id of Object.keys(state.open)) if (id in open) state.open[id] = open[id];
	// Everything created before this poll began was listed by this read, open or finished.
	raiseFloor(state, serviceTime);
	for (const [id, created] of Object.entries(state.fin))
		if (state.floor !== null && created < state.floor) delete state.fin[id];
	return { state, found };
}

/** Past Due alone reads the past-due list only; one unlisted once is kept against a missed row. */
async function readPastDue(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	serviceTime: number | null,
): Promise<{ state: AssignmentState; found: FoundAssignment[]; newest: number | null }> {
	const rows = await readAll(ctx, ASSIGNMENTS_PATH, { ...query, status: 'past_due' });
	let newest: number | null = null;
	const found: FoundAssignment[] = [];
	const open: Record<string, OpenEntry> = {};
	for (const row of rows) {
		if (row.status !== 'past_due') continue;
		const id = idOf(row);
		const created = stampOf(row.created_at);
		if (created !== undefined) newest = newest === null ? created : Math.max(newest, created);
		const before = state.open[id];
		if (!before || before[0] !== 'p') found.push({ event: 'assignmentPastDue', row });
		open[id] = ['p', userIdOf(row), scenarioIdOf(row), created ?? 0];
	}
	const missedBefore = new Set(state.miss ?? []);
	const miss: string[] = [];
	for (const [id, entry] of Object.entries(state.open)) {
		if (id in open || entry[0] !== 'p' || missedBefore.has(id)) continue;
		open[id] = entry;
		miss.push(id);
	}
	const next: AssignmentState = { ...state, open, fin: {}, miss };
	raiseFloor(next, serviceTime);
	return { state: next, found, newest };
}
