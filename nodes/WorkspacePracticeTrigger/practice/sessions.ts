import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE, untilDeadline } from '../../shared/transport';
import { idOf, readAll, SESSIONS_PATH, stampOf } from './read';

/** Sessions may be scored or listed late: the window reaches `lookback` behind the newest listed. */
export interface SessionWindow {
	/** Newest created_at listed so far (epoch ms); the window ends here, lookback before it starts. */
	anchor: number | null;
	/** Session id → created_at (epoch ms). */
	seen: Record<string, number>;
	/** A backlog read the poll's deadline stopped: the next poll goes on with it. */
	backlog?: Backlog;
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
}

const iso = (ms: number) => new Date(ms).toISOString();

const windowStart = (anchor: number, lookbackMs: number): number => anchor - lookbackMs;

/** The starting point: the newest listed session, and every one in the window before it as seen. */
export async function startSessions(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
): Promise<SessionWindow> {
	// One request when the window fits on the first page (a slow service's poll has room for little).
	const first = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, query, 1, MAX_PAGE_SIZE);
	const anchor = stampOf(first.data[0]?.created_at);
	if (anchor === undefined) return { anchor: null, seen: {} };
	const oldest = stampOf(first.data[first.data.length - 1]?.created_at);
	if (first.data.length < MAX_PAGE_SIZE || (oldest !== undefined && oldest < anchor - lookbackMs)) {
		const rows = first.data.filter(
			(row) => (stampOf(row.created_at) ?? -Infinity) >= anchor - lookbackMs,
		);
		return (await readSessions(ctx, query, lookbackMs, { anchor, seen: {} }, true, rows)).window;
	}
	const { window } = await readSessions(ctx, query, lookbackMs, { anchor, seen: {} }, true);
	return window;
}

/** What a read of the window lists: its rows (newest first), or the backlog to read page by page. */
type WindowRows =
	| { rows: IDataObject[]; backlog?: undefined }
	| { rows?: undefined; backlog: Backlog };

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
	if (first.data.length < MAX_PAGE_SIZE) return { rows: first.data };
	if (typeof total !== 'number' || total < known)
		return { rows: await readAll(ctx, SESSIONS_PATH, qs, first) };
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
		return { backlog };
	}
	// Rows added meanwhile push rows down a page (read twice, kept once), never past it.
	for (let page = 2; unseen < total - known && page <= pages; page++) {
		const { data } = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, qs, page, MAX_PAGE_SIZE);
		add(data);
		if (data.length < MAX_PAGE_SIZE) break;
	}
	return { rows: [...rows.values()] };
}

function backlogQuery(query: IDataObject, backlog: Backlog): IDataObject {
	const qs: IDataObject = { ...query, end_date: iso(backlog.end) };
	if (backlog.start !== undefined) qs.start_date = iso(backlog.start);
	return qs;
}

/** The backlog's pages back to 1 until the deadline: rows newest first, each row's page, what is left. */
async function readBacklog(
	ctx: IPollFunctions,
	query: IDataObject,
	backlog: Backlog,
): Promise<{ rows: IDataObject[]; pageOf: Map<string, number>; left?: Backlog }> {
	const qs = backlogQuery(query, backlog);
	const pages: IDataObject[][] = [];
	const pageOf = new Map<string, number>();
	let page = backlog.page;
	for (; page >= 1; page--) {
		const next = await untilDeadline(
			apiListPage<IDataObject>(ctx, SESSIONS_PATH, qs, page, MAX_PAGE_SIZE),
		);
		if (!next) break;
		pages.unshift(next.data);
		for (const row of next.data) if (!pageOf.has(idOf(row))) pageOf.set(idOf(row), page);
	}
	const rows = [...new Map(pages.flat().map((row) => [idOf(row), row])).values()];
	return { rows, pageOf, left: page >= 1 ? { ...backlog, page } : undefined };
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
	let listed: IDataObject[] = given ?? [];
	let pageOf: Map<string, number> | undefined;
	let left: Backlog | undefined;
	if (!backlog && !given) {
		const qs =
			stored.anchor === null
				? query
				: { ...query, start_date: iso(windowStart(stored.anchor, lookbackMs)) };
		const window = await readWindow(ctx, qs, stored, lookbackMs);
		if (window.backlog && quiet) window.backlog.quiet = true;
		backlog = window.backlog;
		listed = window.rows ?? [];
	}
	if (backlog) ({ rows: listed, pageOf, left } = await readBacklog(ctx, query, backlog));
	let anchor = stored.anchor;
	const seen = { ...stored.seen };
	const fresh: IDataObject[] = [];
	const silent = quiet || backlog?.quiet === true;
	for (const row of listed) {
		const created = stampOf(row.created_at);
		if (created === undefined || row.score === null || row.score === undefined) continue;
		anchor = anchor === null ? created : Math.max(anchor, created);
		if (idOf(row) in seen) continue;
		seen[idOf(row)] = created;
		if (!silent) fresh.push(row);
	}
	// Oldest first; rows of one second keep the service's order, reversed (it lists newest first).
	fresh.reverse();
	fresh.sort((a, b) => (stampOf(a.created_at) ?? 0) - (stampOf(b.created_at) ?? 0));
	// A backlog keeps its pinned start: `handOnBefore` may read its pages again.
	const start = backlog
		? backlog.start
		: anchor === null
			? undefined
			: windowStart(anchor, lookbackMs);
	if (start !== undefined) {
		for (const [id, created] of Object.entries(seen)) if (created < start) delete seen[id];
	}
	const window: SessionWindow = { anchor, seen };
	if (left) window.backlog = left;
	return { window, fresh, pageOf, backlog };
}

/** The read handed on before `left` (out of time): those are unseen again, emitted first next poll. */
export function handOnBefore(read: SessionRead, left: IDataObject[]): SessionWindow {
	const seen = { ...read.window.seen };
	for (const row of left) delete seen[idOf(row)];
	const window: SessionWindow = { anchor: read.window.anchor, seen };
	const pages = left.map((row) => read.pageOf?.get(idOf(row)) ?? 0).filter((page) => page > 0);
	if (read.backlog && pages.length > 0)
		window.backlog = { ...read.backlog, page: Math.max(...pages) };
	else if (read.window.backlog) window.backlog = read.window.backlog;
	return window;
}
