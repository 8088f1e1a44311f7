import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE, readPages } from '../../shared/transport';
import { idOf, readAll, SESSIONS_PATH, stampOf } from './read';

/** Sessions may be scored or listed late: the window reaches `lookback` behind the newest listed. */
export interface SessionWindow {
	/** Newest created_at listed so far (epoch ms); the window ends here, lookback before it starts. */
	anchor: number | null;
	/** Session id → created_at (epoch ms). */
	seen: Record<string, number>;
	/** A backlog read the poll's deadline stopped: the next poll goes on with it. */
	backlog?: Backlog;
	/**
	 * Session id → created_at: scored sessions a wider read (no Groups filter) listed that this read,
	 * covering their time, did not (a member outside the group). One that shows here later is not a
	 * score: its member joined the group, and it was scored before (issue 54, GROUP_JOIN).
	 */
	hidden?: Record<string, number>;
}

/** More new sessions than two pages hold: read oldest page first in a list pinned at `end`. */
export interface Backlog {
	/** The pinned list: created_at from `start` (absent: from the first) to `end`, both inclusive. */
	start?: number;
	end: number;
	/** Counts down to 1. */
	page: number;
	/** The starting point's read: the sessions are taken as seen, none is new. */
	quiet?: true;
}

export interface SessionRead {
	window: SessionWindow;
	/** Sessions listed for the first time, oldest first. */
	fresh: IDataObject[];
	/** For a read that went through backlog pages: each fresh session's page, and the list it read. */
	pageOf?: Map<string, number>;
	backlog?: Backlog;
	/**
	 * A window read (no backlog): every listed row created after this (epoch ms; -Infinity: the whole
	 * window) was on the pages it read.
	 */
	coveredFrom?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

const windowStart = (anchor: number, lookbackMs: number): number => anchor - lookbackMs;

/** The starting point: the newest listed session, and every one in the window before it as seen. */
export async function startSessions(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
): Promise<SessionRead> {
	// One request when the window fits on the first page (a slow service's poll has room for little).
	const first = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, query, 1, MAX_PAGE_SIZE);
	const anchor = stampOf(first.data[0]?.created_at);
	if (anchor === undefined)
		return { window: { anchor: null, seen: {} }, fresh: [], coveredFrom: -Infinity };
	const oldest = stampOf(first.data[first.data.length - 1]?.created_at);
	if (first.data.length < MAX_PAGE_SIZE || (oldest !== undefined && oldest < anchor - lookbackMs)) {
		const rows = first.data.filter(
			(row) => (stampOf(row.created_at) ?? -Infinity) >= anchor - lookbackMs,
		);
		return await readSessions(ctx, query, lookbackMs, { anchor, seen: {} }, true, rows);
	}
	return await readSessions(ctx, query, lookbackMs, { anchor, seen: {} }, true);
}

/**
 * What a read of the window lists: its rows (newest first) and whether they are the whole window, or
 * the backlog to read page by page.
 */
type WindowRows =
	| { rows: IDataObject[]; whole: boolean; backlog?: undefined; unseen?: undefined }
	| { rows?: undefined; whole?: undefined; backlog: Backlog; unseen: number };

/**
 * Sessions never leave the list, so its count less those seen tells how many unseen rows to read: an
 * idle read costs one request. A count below the seen (a Groups filter lost a member) reads it all.
 */
async function readWindow(
	ctx: IPollFunctions,
	qs: IDataObject,
	stored: SessionWindow,
	lookbackMs: number,
): Promise<WindowRows> {
	const start = stored.anchor === null ? undefined : windowStart(stored.anchor, lookbackMs);
	const known =
		start === undefined
			? 0
			: Object.values(stored.seen).filter((created) => created >= start).length;
	const first = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, qs, 1, MAX_PAGE_SIZE);
	const total = first.pagination.total_count;
	if (first.data.length < MAX_PAGE_SIZE) return { rows: first.data, whole: true };
	if (typeof total !== 'number' || total < known)
		return { rows: await readAll(ctx, SESSIONS_PATH, qs, first), whole: true };
	const rows = new Map<string, IDataObject>();
	let unseen = 0;
	const add = (data: IDataObject[]) => {
		for (const row of data) {
			const id = idOf(row);
			if (rows.has(id)) continue;
			rows.set(id, row);
			if (!(id in stored.seen)) unseen++;
		}
	};
	add(first.data);
	const pages = first.pagination.total_pages ?? 1;
	const end = stampOf(first.data[0].created_at);
	const deepest = Math.min(pages, Math.ceil((total - known) / MAX_PAGE_SIZE));
	if (unseen < total - known && deepest > 2 && end !== undefined) {
		const backlog: Backlog = { end, page: deepest };
		if (start !== undefined) backlog.start = start;
		return { backlog, unseen: total - known };
	}
	if (unseen >= total - known || pages <= 1) return { rows: [...rows.values()], whole: pages <= 1 };
	// Rows added meanwhile push rows down a page (read twice, kept once by `add`), never past it.
	const walk = await readPages<IDataObject>(ctx, SESSIONS_PATH, qs, {
		from: 2,
		to: pages,
		resumable: true,
		until: (page) => {
			add(page.data);
			return unseen >= total - known;
		},
	});
	// Cut by the deadline (a slow service, a session scored late deep in the window): the window as it
	// stands, read as a backlog from its deepest page across polls; the rows read here come again there.
	if (walk.cut && end !== undefined) {
		const backlog: Backlog = { end, page: pages };
		if (start !== undefined) backlog.start = start;
		return { backlog, unseen: total - known };
	}
	return { rows: [...rows.values()], whole: walk.next === undefined };
}

function backlogQuery(query: IDataObject, backlog: Backlog): IDataObject {
	const qs: IDataObject = { ...query, end_date: iso(backlog.end) };
	if (backlog.start !== undefined) qs.start_date = iso(backlog.start);
	return qs;
}

/**
 * The backlog's pages back to 1 until the deadline: rows newest first, each row's page, what is left.
 * `unseen`: a backlog found at this read, the window's unseen count and the ids seen before it.
 */
async function readBacklog(
	ctx: IPollFunctions,
	query: IDataObject,
	backlog: Backlog,
	unseen?: { count: number; seen: Record<string, number> },
): Promise<{ rows: IDataObject[]; pageOf: Map<string, number>; left?: Backlog }> {
	const qs = backlogQuery(query, backlog);
	// Deepest page first: a row pushed down a page is read again, its first reading (and page) kept.
	const walk = await readPages<IDataObject>(ctx, SESSIONS_PATH, qs, {
		from: backlog.page,
		down: true,
		resumable: true,
		keep: 'first',
	});
	const pageOf = new Map(walk.rows.map((row, i) => [idOf(row), walk.pageOf[i]]));
	const rows = [...walk.rows];
	// A late score sits below the seen sessions created after it, so the count's pages may not reach it:
	// on down the list until the count's unseen are found (issue 55: on a busy day each hourly read was a
	// backlog, and late scores waited hours for a quiet read). Cut by the deadline: the next read's count.
	let found = unseen ? rows.filter((row) => !(idOf(row) in unseen.seen)).length : 0;
	if (unseen && walk.next === undefined && found < unseen.count && backlog.page < walk.pages) {
		const deeper = await readPages<IDataObject>(ctx, SESSIONS_PATH, qs, {
			from: backlog.page + 1,
			resumable: true,
			until: (page) => {
				for (const row of page.data)
					if (!pageOf.has(idOf(row)) && !(idOf(row) in unseen.seen)) found++;
				return found >= unseen.count;
			},
		});
		deeper.rows.forEach((row, i) => {
			if (pageOf.has(idOf(row))) return;
			pageOf.set(idOf(row), deeper.pageOf[i]);
			rows.push(row);
		});
	}
	return {
		rows,
		pageOf,
		left: walk.next === undefined ? undefined : { ...backlog, page: walk.next },
	};
}

/** One read of the window: sessions listed for the first time, oldest first; `quiet`: none is new. */
export async function readSessions(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
	stored: SessionWindow,
	quiet = false,
	/** The window's rows, already read (the starting point's first page). */
	given?: IDataObject[],
): Promise<SessionRead> {
	let backlog = stored.backlog;
	let unseen: number | undefined;
	let listed: IDataObject[] = given ?? [];
	let pageOf: Map<string, number> | undefined;
	let left: Backlog | undefined;
	// The starting point's given rows are the whole window.
	let whole = given !== undefined;
	if (!backlog && !given) {
		const qs =
			stored.anchor === null
				? query
				: { ...query, start_date: iso(windowStart(stored.anchor, lookbackMs)) };
		const window = await readWindow(ctx, qs, stored, lookbackMs);
		if (window.backlog && quiet) window.backlog.quiet = true;
		backlog = window.backlog;
		unseen = window.unseen;
		listed = window.rows ?? [];
		whole = window.whole === true;
	}
	if (backlog)
		({
			rows: listed,
			pageOf,
			left,
		} = await readBacklog(
			ctx,
			query,
			backlog,
			unseen === undefined ? undefined : { count: unseen, seen: stored.seen },
		));
	let anchor = stored.anchor;
	const seen = { ...stored.seen };
	const hidden = { ...stored.hidden };
	let fresh: IDataObject[] = [];
	const silent = quiet || backlog?.quiet === true;
	let oldest = Infinity;
	for (const row of listed) {
		const created = stampOf(row.created_at);
		if (created === undefined || row.score === null || row.score === undefined) continue;
		anchor = anchor === null ? created : Math.max(anchor, created);
		oldest = Math.min(oldest, created);
		if (idOf(row) in seen) continue;
		seen[idOf(row)] = created;
		// Listed scored by the wider read before: its member joined the group, nothing was scored.
		if (idOf(row) in hidden) delete hidden[idOf(row)];
		else if (!silent) fresh.push(row);
	}
	// A backlog keeps its pinned start: `handOnBefore` may read its pages again.
	const start = backlog
		? backlog.start
		: anchor === null
			? undefined
			: windowStart(anchor, lookbackMs);
	// Oldest first; rows of one second keep the service's order, reversed (it lists newest first).
	// A read with no start yet lists every session: those before the window are not sent (the docs).
	if (stored.anchor === null && !backlog && start !== undefined)
		fresh = fresh.filter((row) => (stampOf(row.created_at) ?? 0) >= start);
	fresh.reverse();
	fresh.sort((a, b) => (stampOf(a.created_at) ?? 0) - (stampOf(b.created_at) ?? 0));
	if (start !== undefined) {
		for (const [id, created] of Object.entries(seen)) if (created < start) delete seen[id];
		for (const [id, created] of Object.entries(hidden)) if (created < start) delete hidden[id];
	}
	const window: SessionWindow = { anchor, seen };
	if (Object.keys(hidden).length > 0) window.hidden = hidden;
	if (left) window.backlog = left;
	const read: SessionRead = { window, fresh, pageOf, backlog };
	if (!backlog) read.coveredFrom = whole ? -Infinity : oldest;
	return read;
}

/**
 * A Groups read beside the wider read of the same poll, read before it (no Groups filter): the service
 * filters by today's groups, so a member who joins brings her sessions in unseen, scored long before.
 * Its window ends where the wider one's does (a session before that one's start is not sent), and what
 * the wider read listed that this one did not is kept as hidden: not a score when it shows. Only rows
 * on the pages this read covered count: one below them may be a score it has not reached yet.
 */
export function besideWider(
	read: SessionRead,
	wider: SessionWindow,
	lookbackMs: number,
): SessionRead {
	const floor = wider.anchor === null ? -Infinity : windowStart(wider.anchor, lookbackMs);
	const fresh = read.fresh.filter((row) => (stampOf(row.created_at) ?? -Infinity) >= floor);
	const { window, coveredFrom } = read;
	if (coveredFrom === undefined) return { ...read, fresh };
	// Nothing listed yet: every row of the wider read is outside the filter.
	const start = window.anchor === null ? -Infinity : windowStart(window.anchor, lookbackMs);
	const hidden = { ...window.hidden };
	for (const [id, created] of Object.entries(wider.seen))
		if (!(id in window.seen) && created >= start && created > coveredFrom) hidden[id] = created;
	if (Object.keys(hidden).length === 0) return { ...read, fresh };
	return { ...read, fresh, window: { ...window, hidden } };
}

/** The read handed on before `left` (out of time): those are unseen again, emitted first next poll. */
export function handOnBefore(read: SessionRead, left: IDataObject[]): SessionWindow {
	const seen = { ...read.window.seen };
	for (const row of left) delete seen[idOf(row)];
	const window: SessionWindow = { anchor: read.window.anchor, seen };
	if (read.window.hidden) window.hidden = read.window.hidden;
	const pages = left.map((row) => read.pageOf?.get(idOf(row)) ?? 0).filter((page) => page > 0);
	if (read.backlog && pages.length > 0)
		window.backlog = { ...read.backlog, page: Math.max(...pages) };
	else if (read.window.backlog) window.backlog = read.window.backlog;
	return window;
}
