import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE, SHARED_READ_MS } from '../../shared/transport';

export const SESSIONS_PATH = '/sessions';
export const ASSIGNMENTS_PATH = '/scenarios/assignments';

/** Most ids one list request names, so its address stays short. */
const IDS_PER_REQUEST = 50;

/**
 * Every row of a list, page by page, each id once. Rows added while it reads push later rows down a
 * page (read twice, kept once), never past it; a row that leaves the list meanwhile may be missed,
 * which the callers allow for (see sessions.ts and assignments.ts).
 */
export async function readAll(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
): Promise<IDataObject[]> {
	const rows = new Map<string, IDataObject>();
	for (let page = 1; ; page++) {
		// Page 1 may be shared with another trigger's identical read (a read that began a little earlier).
		const share = page === 1 ? { withinMs: SHARED_READ_MS } : undefined;
		const { data, pagination } = await apiListPage<IDataObject>(
			ctx,
			path,
			qs,
			page,
			MAX_PAGE_SIZE,
			undefined,
			share,
		);
		for (const row of data) if (!rows.has(String(row.id))) rows.set(String(row.id), row);
		if (data.length < MAX_PAGE_SIZE || page >= (pagination.total_pages ?? page)) break;
	}
	return [...rows.values()];
}

/** The rows of a list for many users, in requests of at most IDS_PER_REQUEST user ids each. */
export async function readForUsers(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	userIds: string[],
): Promise<IDataObject[]> {
	const rows = new Map<string, IDataObject>();
	for (let i = 0; i < userIds.length; i += IDS_PER_REQUEST) {
		const ids = userIds.slice(i, i + IDS_PER_REQUEST).join(',');
		for (const row of await readAll(ctx, path, { ...qs, user_ids: ids }))
			rows.set(String(row.id), row);
	}
	return [...rows.values()];
}

/** A row's timestamp in epoch milliseconds, or undefined when it has none. */
export function stampOf(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : ms;
}

export const idOf = (row: IDataObject): string => String(row.id);
export const userIdOf = (row: IDataObject): string =>
	String((row.user as IDataObject | undefined)?.id ?? '');
export const scenarioIdOf = (row: IDataObject): string =>
	String((row.scenario as IDataObject | undefined)?.id ?? '');
