import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import {
	ASSIGNMENTS_PATH,
	idOf,
	readAll,
	readForUsers,
	scenarioIdOf,
	stampOf,
	userIdOf,
} from './read';

/**
 * Assignments have no updated timestamp and no order, so the trigger never reads them all:
 * - the open ones (not started, in progress, past due) are read on a slower schedule; that read is
 *   what Assignment Past Due needs, and it tells which assignments are known open;
 * - completions are looked for right after sessions are scored: one read of the finished assignments
 *   (completed, did not pass) of the people and scenarios of those sessions;
 * - an assignment known open that the next open read no longer lists is looked up among the finished
 *   ones too (it finished without a session this trigger saw).
 * A finished assignment is an event when it was known open, or was created in or after the second of
 * the open read (it may not have been there to be known); `done` keeps those already emitted until the
 * next open read makes them unable to match again. An assignment created and finished before the
 * trigger's first read is history (one created and finished within that read's second is reported).
 */
export type OpenStatus = 'n' | 'i' | 'p';
/** Known open assignment: status, user id, scenario id. */
export type OpenEntry = [OpenStatus, string, string];

export interface AssignmentState {
	/**
	 * Newest created_at listed by the open read before the last one (ms): every assignment created
	 * before it was listed open then or was finished before; kept one read behind, because one created
	 * just before the last read may have finished while that read ran.
	 */
	at: number | null;
	/** Newest created_at the last open read listed (becomes `at` at the next open read). */
	newest?: number | null;
	open: Record<string, OpenEntry>;
	/** Finished assignments already emitted, id → created_at (ms). */
	done: Record<string, number>;
	/** When the next open read is due (this host's ms). */
	nextOpenRead: number;
}

export type AssignmentEvent = 'assignmentCompleted' | 'assignmentDidNotPass' | 'assignmentPastDue';

export interface FoundAssignment {
	event: AssignmentEvent;
	row: IDataObject;
}

const OPEN_CODE: Record<string, OpenStatus> = { not_started: 'n', in_progress: 'i', past_due: 'p' };
const FINISHED = 'completed,did_not_pass';
/** An open set larger than this is cut (oldest ids first); a workspace this size needs filters. */
const MAX_OPEN = 5000;

const eventOfFinished = (row: IDataObject): AssignmentEvent | undefined =>
	row.status === 'completed'
		? 'assignmentCompleted'
		: row.status === 'did_not_pass'
			? 'assignmentDidNotPass'
			: undefined;

/** Whether a finished row is a change this trigger has not emitted yet. */
function isNewlyFinished(state: AssignmentState, row: IDataObject): boolean {
	const id = idOf(row);
	if (eventOfFinished(row) === undefined || id in state.done) return false;
	if (id in state.open) return true;
	const created = stampOf(row.created_at);
	return created !== undefined && state.at !== null && created >= state.at;
}

function markDone(state: AssignmentState, row: IDataObject): void {
	const id = idOf(row);
	state.done[id] = stampOf(row.created_at) ?? 0;
	delete state.open[id];
}

/** Finished assignments of these people and scenarios, as events (state updated in place). */
export async function findFinished(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	userIds: string[],
	scenarioIds: string[],
): Promise<FoundAssignment[]> {
	if (userIds.length === 0) return [];
	const wanted = query.scenario_ids
		? String(query.scenario_ids)
				.split(',')
				.filter((id) => scenarioIds.includes(id))
		: scenarioIds;
	if (wanted.length === 0) return [];
	// The people are the sessions' own (by user ID); the form's Members were already applied to them.
	const rest = { ...query };
	delete rest.user_ids;
	delete rest.user_emails;
	const rows = await readForUsers(
		ctx,
		ASSIGNMENTS_PATH,
		{ ...rest, scenario_ids: wanted.join(','), status: FINISHED },
		userIds,
	);
	const found: FoundAssignment[] = [];
	for (const row of rows) {
		if (!isNewlyFinished(state, row)) continue;
		markDone(state, row);
		found.push({ event: eventOfFinished(row) as AssignmentEvent, row });
	}
	return found;
}

/**
 * The open read: past-due events, and the known-open set renewed. `first` takes the starting point
 * only. `serviceNow` is the newest session time listed before this poll (the service's clock).
 */
export async function readOpen(
	ctx: IPollFunctions,
	query: IDataObject,
	state: AssignmentState,
	first: boolean,
	serviceNow: number | null,
): Promise<FoundAssignment[]> {
	const rows = await readAll(ctx, ASSIGNMENTS_PATH, {
		...query,
		status: 'not_started,in_progress,past_due',
	});
	const found: FoundAssignment[] = [];
	const open: Record<string, OpenEntry> = {};
	// The service's time as far as known (a session listed by an earlier read): never after this read.
	let newest: number | null = serviceNow;
	for (const row of rows) {
		const code = OPEN_CODE[String(row.status)];
		if (code === undefined) continue;
		const id = idOf(row);
		const before = state.open[id];
		const created = stampOf(row.created_at);
		if (created !== undefined) newest = newest === null ? created : Math.max(newest, created);
		const known =
			before !== undefined || (created !== undefined && state.at !== null && created >= state.at);
		if (!first && code === 'p' && known && before?.[0] !== 'p')
			found.push({ event: 'assignmentPastDue', row });
		open[id] = [code, userIdOf(row), scenarioIdOf(row)];
	}
	// Known open but no longer listed: finished (or missed by a read the list moved under).
	const gone = Object.entries(state.open).filter(([id]) => !(id in open));
	if (!first && gone.length > 0) {
		const users = [...new Set(gone.map(([, entry]) => entry[1]))];
		const scenarios = [...new Set(gone.map(([, entry]) => entry[2]))];
		found.push(...(await findFinished(ctx, query, state, users, scenarios)));
		// Still not finished: kept as known open until a read shows what it became.
		for (const [id, entry] of gone) if (!(id in state.done)) open[id] = entry;
	}
	const ids = Object.keys(open);
	for (const id of ids.slice(0, Math.max(0, ids.length - MAX_OPEN))) delete open[id];
	state.open = open;
	const at = first ? newest : (state.newest ?? state.at);
	state.at = at;
	state.newest = newest ?? state.newest ?? null;
	// Emitted finished rows created up to `at` cannot match again (not open, not newer).
	for (const [id, created] of Object.entries(state.done)) {
		if (at !== null && created < at) delete state.done[id];
	}
	return found;
}
