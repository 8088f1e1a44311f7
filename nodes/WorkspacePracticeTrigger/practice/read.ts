import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiList, apiListPage, apiRequest, mapWithConcurrency } from '../../shared/transport';
import type { FoundRecord } from '../family';
import type { PracticeEvent, PracticeSettings } from './settings';

export const SESSIONS_PATH = '/sessions';
const DETAIL_CONCURRENCY = 4;
export const ASSIGNMENTS_PATH = '/scenarios/assignments';

/** A list page as `apiListPage` answers it. */
export type ListPage = Awaited<ReturnType<typeof apiListPage<IDataObject>>>;

/** Each id once, as first read (rows pushed down a page while reading are read twice). */
function once(rows: IDataObject[]): IDataObject[] {
	const byId = new Map<string, IDataObject>();
	for (const row of rows) if (!byId.has(String(row.id))) byId.set(String(row.id), row);
	return [...byId.values()];
}

/**
 * Every row of a list, page by page, each id once. Rows added while it reads push later rows down a
 * page (read twice, kept once), never past it; a row that leaves the list meanwhile may be missed,
 * which the callers allow for (see sessions.ts and assignments.ts).
 */
export async function readAll(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	first?: ListPage,
): Promise<IDataObject[]> {
	return once(await apiList(ctx, path, qs, { returnAll: true, first, until: () => false }));
}

/**
 * The rows of a list the service gives newest created first, page by page, until a page ends below
 * the floor `floorAfter` gives (it sees every row, and may move the floor; null: read every page).
 * It stops early only while every row came in that order: rows out of order make it read to the end,
 * so a service listing in another order costs more requests but loses nothing.
 */
export async function readNewest(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	floorAfter: (row: IDataObject) => number | null,
): Promise<IDataObject[]> {
	let ordered = true;
	let last = Infinity;
	const until = ({ data }: ListPage) => {
		let floor: number | null = null;
		for (const row of data) {
			const created = stampOf(row.created_at);
			if (created === undefined || created > last) ordered = false;
			last = created ?? last;
			floor = floorAfter(row);
		}
		return ordered && floor !== null && last < floor;
	};
	return once(await apiList(ctx, path, qs, { returnAll: true, until }));
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

/** An event found by a read: a session or an assignment. */
export interface Found extends FoundRecord<PracticeEvent> {
	kind: 'session' | 'assignment';
}

/** The client-side part of Session Scored's filters: the rank and the score bounds. */
export function scoreMatches(settings: PracticeSettings, row: IDataObject): boolean {
	if (settings.ranks.length > 0 && !settings.ranks.includes(String(row.rank))) return false;
	const score = Number(row.score);
	if (settings.scoreBelow !== undefined && !(score < settings.scoreBelow)) return false;
	if (settings.scoreAtLeast !== undefined && !(score >= settings.scoreAtLeast)) return false;
	return true;
}

/** Each session in full (feedback), one request per session, when the option asks for it. */
export async function withFeedback(ctx: IPollFunctions, found: Found[]): Promise<Found[]> {
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
