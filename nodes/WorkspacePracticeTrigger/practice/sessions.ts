import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiList, apiListPage, MAX_PAGE_SIZE } from '../../shared/transport';
import type { ListPage } from './read';
import { idOf, readAll, SESSIONS_PATH, stampOf } from './read';

/**
 * One read of scored sessions. Sessions carry only created_at, and a session may be listed before it is
 * scored or show up late, so every read lists the whole window: sessions created at most `lookback`
 * before the newest one ever listed (the service's own clock, never this host's). A session is new the
 * first time it is listed (every listed row has a score); `seen` keeps the ids already listed, with
 * their created_at, and drops them once they fall out of the window: they are never read again.
 */
export interface SessionWindow {
	/** Newest created_at listed so far (epoch ms); the window ends here, lookback before it starts. */
	anchor: number | null;
	/** Session id → created_at (epoch ms). */
	seen: Record<string, number>;
}

export interface SessionRead {
	window: SessionWindow;
	/** Sessions listed for the first time, oldest first. */
	fresh: IDataObject[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Where the window starts. */
export const windowStart = (anchor: number, lookbackMs: number): number => anchor - lookbackMs;

/**
 * The first read only takes the starting point: the newest listed session, and every session in the
 * window before it as already seen.
 */
export async function startSessions(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
): Promise<SessionWindow> {
	const newest = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, query, 1, 1);
	const anchor = stampOf(newest.data[0]?.created_at);
	if (anchor === undefined) return { anchor: null, seen: {} };
	const { window } = await readSessions(ctx, query, lookbackMs, { anchor, seen: {} });
	return window;
}

/**
 * The window's rows that may be new. Its first page (newest first) tells how many rows the window
 * holds; sessions never leave the list, so that count less the sessions already seen in the window is
 * how many were never listed. Pages are read, newest first, until that many unseen rows are found: an
 * idle read costs one request, a busy one the pages down to its oldest new row (a late score), never
 * the whole window for the sake of its old rows. A count below the rows seen (a Groups filter lost a
 * member's rows) reads the whole window (see docs/practice-events.md).
 */
async function readWindow(
	ctx: IPollFunctions,
	qs: IDataObject,
	stored: SessionWindow,
	lookbackMs: number,
): Promise<IDataObject[]> {
	if (stored.anchor === null) return await readAll(ctx, SESSIONS_PATH, qs);
	const start = windowStart(stored.anchor, lookbackMs);
	const known = Object.values(stored.seen).filter((created) => created >= start).length;
	const first = await apiListPage<IDataObject>(ctx, SESSIONS_PATH, qs, 1, MAX_PAGE_SIZE);
	const total = first.pagination.total_count;
	if (first.data.length < MAX_PAGE_SIZE) return first.data;
	if (typeof total !== 'number' || total < known)
		return await readAll(ctx, SESSIONS_PATH, qs, first);
	const rows = new Map<string, IDataObject>();
	let unseen = 0;
	const pages = first.pagination.total_pages ?? 1;
	let page = 0;
	// Until as many rows are unseen as the count says are new (pages as page 1 counted them). Rows
	// added meanwhile push rows down a page (read twice, kept once), never past it.
	const until = ({ data }: ListPage) => {
		for (const row of data) {
			const id = idOf(row);
			if (rows.has(id)) continue;
			rows.set(id, row);
			if (!(id in stored.seen)) unseen++;
		}
		return unseen >= total - known || ++page >= pages;
	};
	await apiList(ctx, SESSIONS_PATH, qs, { returnAll: true, first, until });
	return [...rows.values()];
}

export async function readSessions(
	ctx: IPollFunctions,
	query: IDataObject,
	lookbackMs: number,
	stored: SessionWindow,
): Promise<SessionRead> {
	const qs =
		stored.anchor === null
			? query
			: { ...query, start_date: iso(windowStart(stored.anchor, lookbackMs)) };
	const rows = await readWindow(ctx, qs, stored, lookbackMs);
	let anchor = stored.anchor;
	const seen = { ...stored.seen };
	const fresh: IDataObject[] = [];
	for (const row of rows) {
		const created = stampOf(row.created_at);
		if (created === undefined || row.score === null || row.score === undefined) continue;
		anchor = anchor === null ? created : Math.max(anchor, created);
		if (idOf(row) in seen) continue;
		seen[idOf(row)] = created;
		fresh.push(row);
	}
	// Oldest first; rows of one second keep the service's order, reversed (it lists newest first).
	fresh.reverse();
	fresh.sort((a, b) => (stampOf(a.created_at) ?? 0) - (stampOf(b.created_at) ?? 0));
	if (anchor !== null) {
		const start = windowStart(anchor, lookbackMs);
		for (const [id, created] of Object.entries(seen)) if (created < start) delete seen[id];
	}
	return { window: { anchor, seen }, fresh };
}
