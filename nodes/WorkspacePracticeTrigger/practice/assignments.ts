import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pacedRun, POLL_PACE, untilDeadline } from '../../shared/transport';
import {
	ASSIGNMENTS_PATH,
	idOf,
	readAll,
	readNewest,
	readPagesInTime,
	scenarioIdOf,
	stampOf,
	userIdOf,
} from './read';

/**
 * Assignments have a status and `created_at`, no updated time, and any status may follow any other.
 * The trigger keeps what it compares against, never reading the finished assignments as a whole:
 * - `open`: every open assignment (not started, in progress, past due), renewed by the assignment read;
 * - `floor`: every assignment created before it was open at an assignment read, or finished by then;
 * - `fin`: the finished ones created at or after `floor` that are history or already emitted.
 * A finished row is an outcome when in `open`, or created at or after `floor` and not in `fin`. The
 * assignment read also lists the finished ones created since `floor` (newest first), then moves
 * `floor` to the service's time before it less `MARGIN`. Between those reads, scored sessions have
 * their people's known-open assignments on those scenarios looked up (`findFinished`). No read grows
 * with the finished assignments (docs/practice-events.md).
 */
export type OpenStatus = 'n' | 'i' | 'p';
/** Known open assignment: status, user id, scenario id, created_at (ms; 0 when the row had none). */
export type OpenEntry = [OpenStatus, string, string, number?];

export interface AssignmentState {
	/** Shape marker: another shape starts over. */
	v: 2;
	open: Record<string, OpenEntry>;
	/** Finished assignments known (history or emitted), created at or after `floor`: id → created (ms). */
	fin: Record<string, number>;
	/** See above; null while nothing matching has been listed (every finished one is then new). */
	floor: number | null;
	/** When the next assignment read is due (this host's ms). */
	nextOpenRead: number;
	/** Past Due alone: known past-due ids the last read did not list (dropped when unlisted twice). */
	miss?: string[];
	/** An assignment read the poll's deadline stopped: where the next poll goes on (issue 47). */
	reading?: OpenReading;
}

/**
 * The open list of an assignment read so far: its next page (0: read through), the entries listed,
 * the newest created_at seen, and whether it is the starting point's read (no events).
 */
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
/** How far the service's clock may step back without losing an outcome (see above). */
export const MARGIN_MS = 3_600_000;
/**
 * A guard on the static data only (about 80 bytes an open assignment), far above any workspace's open
 * set: a cut one is never sent (at 5,000, 46 of 811 changes at 2,000 members were lost: issue 48).
 */
const MAX_OPEN = 50_000;

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

const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored assignment state, or undefined (anything else) for a new starting point. */
export function readAssignmentState(stored: unknown): AssignmentState | undefined {
	return isObject(stored) && stored.v === 2 && isObject(stored.open) && isObject(stored.fin)
		? (stored as unknown as AssignmentState)
		: undefined;
}

/**
 * Finished rows into events (state updated in place): an outcome when known open, or created at or
 * after `floor` and not known finished. Every finished row at or after `floor` becomes known.
 */
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

/**
 * The assignment reads keep to 50 requests a minute (POLL_PACE): an outcomes workflow and a past-due
 * digest reading 5,500 open in the same minute met the service's 60 unpaced (issue 48: six 429s).
 */
const paced = (ctx: IPollFunctions) => pacedRun(ctx, POLL_PACE);

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
 * Known-open assignments looked up among the finished ones of their people and scenarios, newest
 * first, until all are found or the list is older than the oldest of them.
 */
async function lookUp(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	entries: Array<[string, OpenEntry]>,
): Promise<FoundAssignment[]> {
	const users = [...new Set(entries.map(([, e]) => e[1]))];
	const qs = narrowed(query, users, [...new Set(entries.map(([, e]) => e[2]))]);
	if (!qs) return [];
	// An entry of unknown age (its row had no created_at) is looked for on every page.
	const oldest = entries.some(([, e]) => !e[3]) ? null : Math.min(...entries.map(([, e]) => e[3]!));
	const missing = new Set(entries.map(([id]) => id));
	const rows = await forUsers(users, async (userIds) =>
		missing.size === 0
			? []
			: await readNewest(
					ctx,
					ASSIGNMENTS_PATH,
					{ ...qs, status: FINISHED, user_ids: userIds },
					(row) => {
						missing.delete(idOf(row));
						return missing.size === 0 ? Infinity : oldest;
					},
				),
	);
	return outcomes(state, rows, true);
}

/**
 * The fast path after scored sessions: the known-open assignments of their people on their scenarios
 * looked up in one read (a request per 50 people); sessions on no known-open assignment cost nothing.
 * One given and finished between two assignment reads is found by the next (docs/practice-events.md).
 */
export async function findFinished(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	userIds: string[],
	scenarioIds: string[],
): Promise<FoundAssignment[]> {
	const pairs = new Set(userIds.map((user, i) => `${user}|${scenarioIds[i]}`));
	const candidates = Object.entries(state.open).filter(([, e]) => pairs.has(`${e[1]}|${e[2]}`));
	if (candidates.length) paced(ctx);
	return candidates.length ? await lookUp(ctx, query, state, candidates) : [];
}

/**
 * The assignment read: every open assignment (past-due events, the open set renewed), the finished ones
 * created since `floor`, and a look-up of known-open ones no longer listed. `first` takes the starting
 * point only. `serviceTime` is the newest created_at any read listed before this poll (null: none).
 */
export async function readAssignments(
	ctx: IPollFunctions,
	query: IDataObject,
	stored: AssignmentState | undefined,
	serviceTime: number | null,
	pastDueOnly = false,
): Promise<{ state: AssignmentState; found: FoundAssignment[]; newest: number | null }> {
	paced(ctx);
	if (pastDueOnly) {
		// The starting point of Past Due alone is the past-due list too: what is past due now is history.
		const read = await readPastDue(ctx, query, stored ?? emptyState(), serviceTime);
		return stored ? read : { ...read, found: [] };
	}
	const reading = stored?.reading;
	const first = stored === undefined || reading?.start === true;
	const state = stored ?? emptyState();
	delete state.reading;
	// The open list, a page at a time: a read the poll's deadline stops goes on from its next page at
	// the next poll (`reading`), with the entries listed so far; each page's past-due events are
	// emitted as it comes (the state they are judged against is the one before the read).
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
	// The finished ones and the look-up change the state: on a deadline there, the read goes on at the
	// next poll from the open list read through, with the state as it was before.
	const before = JSON.parse(JSON.stringify(state)) as AssignmentState;
	const listed = readSoFar(0);
	const rest = await untilDeadline(
		finishRead(ctx, query, state, first, open, time, note, serviceTime),
	);
	if (!rest) return { state: { ...before, reading: listed }, found, newest: time.newest };
	return { state: rest.state, found: [...found, ...rest.found], newest: time.newest };
}

/**
 * The assignment read after its open list (`open`): the finished ones since `floor`, then a look-up of
 * known-open ones no longer listed; or, at the starting point, the starting floor.
 */
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
		// The starting point: the newest row anywhere tells the service's time; every assignment
		// finished now is history, and those created within MARGIN of that time are kept as such.
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
		outcomes(state, recent, false);
		return { state, found };
	}
	const before = state.open;
	// Known open: listed now, or before. Finished since the floor (created and finished between two
	// reads included), then known-open ones not listed any more: they finished (or a read missed them
	// while the list moved). Rows found finished leave the known-open set.
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
			)),
		);
	// Still known open: listed now (with the status listed), or gone but not found finished (kept until
	// a read shows what it became).
	const kept = Object.keys(state.open);
	for (const id of kept.slice(0, Math.max(0, kept.length - MAX_OPEN))) delete state.open[id];
	for (const id of Object.keys(state.open)) if (id in open) state.open[id] = open[id];
	// Everything created before this poll began was listed by this read, open or finished.
	if (serviceTime !== null) {
		const next = serviceTime - MARGIN_MS;
		if (state.floor === null || next > state.floor) state.floor = next;
	}
	for (const [id, created] of Object.entries(state.fin))
		if (state.floor !== null && created < state.floor) delete state.fin[id];
	return { state, found };
}

/**
 * Assignment Past Due alone: the past-due list only (a request per 100 past-due). A listed one not
 * known past due is an event; the known set is every past-due id listed, plus those unlisted once.
 */
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
	if (serviceTime !== null) {
		const floor = serviceTime - MARGIN_MS;
		if (next.floor === null || floor > next.floor) next.floor = floor;
	}
	return { state: next, found, newest };
}
