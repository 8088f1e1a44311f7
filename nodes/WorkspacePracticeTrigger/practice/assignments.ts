import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	ASSIGNMENTS_PATH,
	idOf,
	isObject,
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

/**
 * An assignment read under way, step by step, each a page at a time across polls: the open list
 * (`page`), then the finished list since the cut-off (`finished`), then the look-ups of known-open ones
 * gone (`look`). Outcomes found so far were emitted and are in the state (taken out of `open` and of the
 * state's `open`, kept in `fin`), so a page read again sends nothing twice.
 */
export interface OpenReading {
	/** The open list's next page (0: read through; its entries are then in the state's `open` too). */
	page: number;
	/** What the open list listed open so far, less those found finished since (`outcomes`). */
	open: Record<string, OpenEntry>;
	newest: number | null;
	/**
	 * A starting point: only those it listed open and finds finished, and those given after `since`, are
	 * events.
	 */
	start?: true;
	/**
	 * A starting point its first poll could not finish: the newest created_at that poll knew (the service's
	 * time then, as far as known). One given after it was given after the starting point.
	 */
	since?: number;
	/** The finished list's next page (0: read through; absent: not begun). */
	finished?: number;
	/** The look-up under way: its people (at most IDS_PER_REQUEST), scenarios and next page. */
	look?: LookUp;
}

/** Who a look-up reads the finished assignments of, on which scenarios, and its next page. */
export interface LookUp {
	users: string[];
	scenarios: string[];
	page: number;
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

const newestOf = (a: number | null, b: number | null) =>
	a === null ? b : b === null ? a : Math.max(a, b);

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

/**
 * Finished rows into events (state updated in place); those at or after the floor become known. An
 * outcome is one `known` open (the state's unless given) or given since `floor` (the state's unless
 * given) and not yet seen. A row found finished leaves every open set, the read's under way included.
 */
function outcomes(
	state: AssignmentState,
	rows: IDataObject[],
	emit: boolean,
	known: Record<string, OpenEntry> = state.open,
	floor: number | null = state.floor,
): FoundAssignment[] {
	const found: FoundAssignment[] = [];
	for (const row of rows) {
		const event = eventOfFinished(row);
		if (event === undefined) continue;
		const id = idOf(row);
		const created = stampOf(row.created_at) ?? 0;
		const recent = floor === null || created >= floor;
		const isNew = id in known || (recent && !(id in state.fin));
		delete state.open[id];
		delete known[id];
		if (state.reading) delete state.reading.open[id];
		if (recent) state.fin[id] = created;
		if (isNew && emit) found.push({ event, row });
	}
	return found;
}

/** The form's assignment filters narrowed to these people and scenarios (undefined: none can match). */
function narrowed(query: IDataObject, look: LookUp): IDataObject | undefined {
	const wanted = query.scenario_ids
		? String(query.scenario_ids)
				.split(',')
				.filter((id) => look.scenarios.includes(id))
		: look.scenarios;
	if (look.users.length === 0 || wanted.length === 0) return undefined;
	// The people are the sessions' own (by user ID); the form's Members were already applied to them.
	const rest: IDataObject = { ...query, scenario_ids: wanted.join(',') };
	delete rest.user_ids;
	delete rest.user_emails;
	return rest;
}

/** Most ids one list request names, so its address stays short. */
const IDS_PER_REQUEST = 50;

const unique = (values: string[]) => [...new Set(values)];

/** Look-ups of these people on these scenarios, at most IDS_PER_REQUEST people each. */
function lookUps(users: string[], scenarios: string[]): LookUp[] {
	const all: LookUp[] = [];
	for (let i = 0; i < users.length; i += IDS_PER_REQUEST)
		all.push({ users: users.slice(i, i + IDS_PER_REQUEST), scenarios, page: 1 });
	return all;
}

/**
 * Finished assignments of a look-up's people on its scenarios, newest first from its page, read down to
 * `downTo` and to the oldest known-open one looked for (`entries`, those of its people), or until every
 * one of those is found when that is lower; `judge` as `outcomes` takes it. `next`: the page the poll's
 * deadline stopped it at.
 */
async function lookUp(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	entries: Array<[string, OpenEntry]>,
	look: LookUp,
	downTo: number | null,
	judge?: { known: Record<string, OpenEntry>; floor: number | null },
): Promise<{ found: FoundAssignment[]; next?: number }> {
	const qs = narrowed(query, look);
	const mine = entries.filter(([, e]) => look.users.includes(e[1]));
	const missing = new Set(mine.map(([id]) => id));
	if (!qs || (missing.size === 0 && downTo === Infinity)) return { found: [] };
	// An entry of unknown age (its row had no created_at) is looked for on every page.
	const oldest = mine.some(([, e]) => !e[3]) ? null : Math.min(...mine.map(([, e]) => e[3]!));
	const lowest = (a: number | null, b: number | null) =>
		a === null || b === null ? null : Math.min(a, b);
	const read = await readNewest(
		ctx,
		ASSIGNMENTS_PATH,
		{ ...qs, status: FINISHED, user_ids: look.users.join(',') },
		(row) => {
			missing.delete(idOf(row));
			return lowest(missing.size === 0 ? Infinity : oldest, downTo);
		},
		look.page,
	);
	return { found: outcomes(state, read.rows, true, judge?.known, judge?.floor), next: read.next };
}

/**
 * The fast path after scored sessions: the finished assignments of their people on their scenarios,
 * those known open and those given since the cut-off (an assignment given since the last assignment read
 * is not known, and its outcome shows in the same list: issue 54). `cut`: the poll's deadline stopped it
 * (what it found until then is kept; a full assignment read finds the rest).
 */
export async function findFinished(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	userIds: string[],
	scenarioIds: string[],
): Promise<{ found: FoundAssignment[]; cut: boolean }> {
	const pairs = new Set(userIds.map((user, i) => `${user}|${scenarioIds[i]}`));
	// A starting point read over several polls has no cut-off yet: only what it has listed open is new.
	const starting = state.reading?.start === true;
	const known = starting ? state.reading!.open : state.open;
	const candidates = Object.entries(known).filter(([, e]) => pairs.has(`${e[1]}|${e[2]}`));
	const found: FoundAssignment[] = [];
	if (userIds.length === 0 || (starting && candidates.length === 0)) return { found, cut: false };
	const users = unique([...(starting ? [] : userIds), ...candidates.map(([, e]) => e[1])]);
	const scenarios = unique([...(starting ? [] : scenarioIds), ...candidates.map(([, e]) => e[2])]);
	for (const look of lookUps(users, scenarios)) {
		const read = starting
			? await lookUp(ctx, query, state, candidates, look, Infinity, { known, floor: Infinity })
			: await lookUp(ctx, query, state, candidates, look, state.floor);
		found.push(...read.found);
		if (read.next !== undefined) return { found, cut: true };
	}
	return { found, cut: false };
}

/** The next look-up of known-open ones gone (undefined: none left): the first people's, by user ID. */
function nextGoneLookUp(gone: Array<[string, OpenEntry]>): LookUp | undefined {
	const [look] = lookUps(unique(gone.map(([, e]) => e[1])).sort(), []);
	if (!look) return undefined;
	const scenarios = gone.filter(([, e]) => look.users.includes(e[1])).map(([, e]) => e[2]);
	return { ...look, scenarios: unique(scenarios) };
}

/**
 * The assignment read, a page at a time across polls (`OpenReading`): with `reading` in the state
 * returned, the next poll goes on from it. `serviceTime`: the newest created_at listed before this poll
 * (null: none).
 */
export async function readAssignments(
	ctx: IPollFunctions,
	query: IDataObject,
	stored: AssignmentState | undefined,
	serviceTime: number | null,
	pastDueOnly = false,
): Promise<{ state: AssignmentState; found: FoundAssignment[]; newest: number | null }> {
	if (pastDueOnly) {
		// The starting point of Past Due alone is the past-due list too: what is past due now is history.
		return await readPastDue(ctx, query, stored, serviceTime);
	}
	const first = stored === undefined || stored.reading?.start === true;
	const state = stored ?? emptyState();
	const reading: OpenReading = state.reading ?? { page: 1, open: {}, newest: null };
	if (first) reading.start = true;
	state.reading = reading;
	const note = (created: number | undefined) => {
		if (created !== undefined)
			reading.newest = reading.newest === null ? created : Math.max(reading.newest, created);
	};
	const givenSince = (row: IDataObject) =>
		reading.since !== undefined && (stampOf(row.created_at) ?? -Infinity) > reading.since;
	const found: FoundAssignment[] = [];
	const goesOn = () => {
		// A starting point going on at the next polls: what its first poll knew of the service's time.
		const known = newestOf(reading.newest, serviceTime);
		if (stored === undefined && state.reading && known !== null) reading.since = known;
		return { state, found, newest: reading.newest };
	};
	if (reading.page !== 0) {
		// Past-due events are judged per page against the state before the read.
		const onPage = (rows: IDataObject[]) => {
			for (const row of rows) {
				const code = OPEN_CODE[String(row.status)];
				const id = idOf(row);
				// A row read twice (the list moved between two pages) keeps its first reading.
				if (code === undefined || id in reading.open) continue;
				const before = state.open[id];
				const created = stampOf(row.created_at);
				note(created);
				const recent =
					created !== undefined &&
					(state.floor === null || created >= state.floor) &&
					!(id in state.fin);
				const past = first ? givenSince(row) : before ? before[0] !== 'p' : recent;
				if (code === 'p' && past) found.push({ event: 'assignmentPastDue', row });
				reading.open[id] = [code, userIdOf(row), scenarioIdOf(row), created ?? 0];
			}
		};
		const openQuery = { ...query, status: OPEN_STATUSES };
		const next = await readPagesInTime(ctx, ASSIGNMENTS_PATH, openQuery, reading.page, onPage);
		reading.page = next ?? 0;
		if (next !== undefined) return goesOn();
	}
	// Listed open: known open (known-open ones not listed any more finished, or a read missed them while
	// the list moved). At every poll that goes on too: one found finished since left both sets.
	state.open = { ...state.open, ...reading.open };
	if (reading.finished !== 0) {
		// A starting point: the newest row tells the service's time, its cut-off an hour before.
		const startFloor = () => {
			const t = reading.newest === null ? serviceTime : Math.max(reading.newest, serviceTime ?? 0);
			return t === null ? null : t - MARGIN_MS;
		};
		const floor = state.floor;
		const walk = await readNewest(
			ctx,
			ASSIGNMENTS_PATH,
			{ ...query, status: FINISHED },
			(row) => {
				note(stampOf(row.created_at));
				return first ? startFloor() : floor;
			},
			reading.finished ?? 1,
		);
		if (first) {
			state.floor = startFloor();
			// Listed open by this starting point, finished now, or given after its first poll: finished after
			// it began (a starting point read over several polls, issue 54). The rest finished before: history.
			for (const row of walk.rows)
				found.push(...outcomes(state, [row], idOf(row) in reading.open || givenSince(row)));
		} else found.push(...outcomes(state, walk.rows, true));
		reading.finished = walk.next ?? 0;
		if (walk.next !== undefined) return goesOn();
	}
	// Known-open ones gone from the open list: looked up among their people's finished ones, in turn.
	while (!first) {
		const gone = Object.entries(state.open).filter(([id]) => !(id in reading.open));
		const look = reading.look ?? nextGoneLookUp(gone);
		if (!look) break;
		const read = await lookUp(ctx, query, state, gone, look, Infinity);
		found.push(...read.found);
		if (read.next !== undefined) {
			reading.look = { ...look, page: read.next };
			return goesOn();
		}
		delete reading.look;
		// Gone but not found finished stays known open until a read shows what it became.
		for (const [id, entry] of gone)
			if (id in state.open && look.users.includes(entry[1])) reading.open[id] = entry;
	}
	delete state.reading;
	if (first) return goesOn();
	const kept = Object.keys(state.open);
	for (const id of kept.slice(0, Math.max(0, kept.length - MAX_OPEN))) delete state.open[id];
	// Everything created before this poll began was listed by this read, open or finished.
	raiseFloor(state, serviceTime);
	for (const [id, created] of Object.entries(state.fin))
		if (state.floor !== null && created < state.floor) delete state.fin[id];
	return goesOn();
}

/**
 * Past Due alone reads the past-due list only, a page at a time across polls (`reading`: its `page` and
 * what it listed); one unlisted once is kept against a missed row. A starting point sends nothing.
 */
async function readPastDue(
	ctx: IPollFunctions,
	query: IDataObject,
	stored: AssignmentState | undefined,
	serviceTime: number | null,
): Promise<{ state: AssignmentState; found: FoundAssignment[]; newest: number | null }> {
	const state = stored ?? emptyState();
	const reading: OpenReading = state.reading ?? { page: 1, open: {}, newest: null };
	if (stored === undefined) reading.start = true;
	state.reading = reading;
	const found: FoundAssignment[] = [];
	const onPage = (rows: IDataObject[]) => {
		for (const row of rows) {
			const id = idOf(row);
			// A row read twice (the list moved between two pages) keeps its first reading.
			if (row.status !== 'past_due' || id in reading.open) continue;
			const created = stampOf(row.created_at);
			if (created !== undefined)
				reading.newest = reading.newest === null ? created : Math.max(reading.newest, created);
			const before = state.open[id];
			if (!reading.start && (!before || before[0] !== 'p'))
				found.push({ event: 'assignmentPastDue', row });
			reading.open[id] = ['p', userIdOf(row), scenarioIdOf(row), created ?? 0];
		}
	};
	const pastDue = { ...query, status: 'past_due' };
	const next = await readPagesInTime(ctx, ASSIGNMENTS_PATH, pastDue, reading.page, onPage);
	if (next !== undefined) {
		reading.page = next;
		return { state, found, newest: reading.newest };
	}
	delete state.reading;
	const open = reading.open;
	const missedBefore = new Set(state.miss ?? []);
	const miss: string[] = [];
	for (const [id, entry] of Object.entries(state.open)) {
		if (id in open || entry[0] !== 'p' || missedBefore.has(id)) continue;
		open[id] = entry;
		miss.push(id);
	}
	const done: AssignmentState = { ...state, open, fin: {}, miss };
	raiseFloor(done, serviceTime);
	return { state: done, found, newest: reading.newest };
}
