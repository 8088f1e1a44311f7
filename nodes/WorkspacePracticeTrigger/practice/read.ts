import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { apiRequest, mapWithConcurrency, readPages } from '../../shared/transport';
import type { ListPage } from '../../shared/transport';
import type { FoundRecord } from '../family';
import type { PracticeEvent, PracticeSettings } from './settings';

export const SESSIONS_PATH = '/sessions';
const DETAIL_CONCURRENCY = 4;
export const ASSIGNMENTS_PATH = '/scenarios/assignments';

/** Every row of a list, each id once (a row added meanwhile pushes others down: read twice, kept once). */
export async function readAll(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	firstPage?: ListPage<IDataObject>,
): Promise<IDataObject[]> {
	// A row pushed onto the next page was read first where the list stood then: either reading serves.
	return (await readPages<IDataObject>(ctx, path, qs, { first: firstPage, keep: 'first' })).rows;
}

/**
 * A list's pages from `fromPage` on, each handed to `onPage`, until the last page or the poll's
 * deadline: undefined once read through, else the page to go on from at the next poll.
 */
export async function readPagesInTime(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	fromPage: number,
	onPage: (data: IDataObject[]) => void,
): Promise<number | undefined> {
	const until = ({ data }: ListPage<IDataObject>) => {
		onPage(data);
		return false;
	};
	return (await readPages(ctx, path, qs, { from: fromPage, resumable: true, until })).next;
}

/**
 * The rows of a list given newest created first, from page `from` on, until a page ends below the floor
 * `floorAfter` gives (null: every page) or the poll's deadline (`next`: the page to go on from at the
 * next poll). Rows out of that order make it read to the end: dearer, nothing lost (the order is judged
 * within one poll's pages: a walk resumed at the next poll starts judging again).
 */
export async function readNewest(
	ctx: IPollFunctions,
	path: string,
	qs: IDataObject,
	floorAfter: (row: IDataObject) => number | null,
	from = 1,
): Promise<{ rows: IDataObject[]; next?: number }> {
	let ordered = true;
	let last = Infinity;
	const until = ({ data }: ListPage<IDataObject>) => {
		let floor: number | null = null;
		for (const row of data) {
			const created = stampOf(row.created_at);
			if (created === undefined || created > last) ordered = false;
			last = created ?? last;
			floor = floorAfter(row);
		}
		return ordered && floor !== null && last < floor;
	};
	// As readAll: a finished row does not change, so its first reading serves.
	const walk = await readPages<IDataObject>(ctx, path, qs, {
		from,
		keep: 'first',
		resumable: true,
		until,
	});
	return { rows: walk.rows, next: walk.cut ? walk.next : undefined };
}

/** A row's timestamp in epoch milliseconds, or undefined when it has none. */
export function stampOf(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : ms;
}

export const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

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

/**
 * Each session in full (feedback), one request each, until the poll's deadline: the events before the
 * first it left no time for (the caller hands the rest on to the next poll).
 */
export async function withFeedback(ctx: IPollFunctions, found: Found[]): Promise<Found[]> {
	const detail = async (f: Found): Promise<Found> => {
		if (f.kind !== 'session') return f;
		const { body } = await apiRequest<IDataObject>(ctx, {
			method: 'GET',
			path: `${SESSIONS_PATH}/${encodeURIComponent(idOf(f.row))}`,
			what: `session ${idOf(f.row)}`,
		});
		return { ...f, row: body };
	};
	return await mapWithConcurrency(found, DETAIL_CONCURRENCY, detail, { untilDeadline: true });
}
