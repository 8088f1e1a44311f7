import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiList, apiListPage, MAX_PAGE_SIZE } from '../../shared/transport';
import type { ListPage } from '../../shared/transport/paginate';
import type { Stamp } from './timestamps';
import { shiftStamp, stampParam, toStamp } from './timestamps';

export const PAGES_PATH = '/knowledge-hub/pages';
export const SOURCES_PATH = '/knowledge-hub/sources';

/** A list read again from the start at most this often when it changes under the reader. */
const READ_ATTEMPTS = 3;

/** Time a poll may spend listing before it settles for the oldest part of a large backlog. */
export class Budget {
	private readonly started = Date.now();

	constructor(private readonly limitMs: number) {}

	/**
	 * Half of what n8n allows a poll (n8n 2.x says how much; 1.x has no limit, five minutes is used), so
	 * the detail requests and the hand-off still fit.
	 */
	static of(ctx: IPollFunctions): Budget {
		const allowed = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : 5 * 60_000;
		return new Budget(Math.max(0, allowed) / 2);
	}

	static unlimited(): Budget {
		return new Budget(Infinity);
	}

	spent(): boolean {
		return Date.now() - this.started >= this.limitMs;
	}
}

export interface PageRead {
	/** Rows oldest first (by updated_at; on equal timestamps, in the order the service changed them). */
	rows: IDataObject[];
	/** False when the budget ran out: `rows` are then the oldest part of the changes, without gaps. */
	complete: boolean;
	/**
	 * False when a row may have slipped past this read (the list changed under it, or the newest
	 * timestamp was left for later): the next poll must read again from the same lower bound.
	 */
	settled: boolean;
	/** The newest updated_at the list showed, read or not. */
	newest?: Stamp;
}

function changedWhileReading(ctx: IPollFunctions, what: string): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The Knowledge Hub ${what} list kept changing while the trigger read it`,
		{
			description: `It was read ${READ_ATTEMPTS} times and differed each time. Nothing was emitted and the trigger's position did not move; the next poll reads the same changes again.`,
		},
	);
}

/** A read of the list is repeated at most this often in one poll when the list changes under it. */
const PAGE_READ_ATTEMPTS = 2;

/** A page row's updated_at as a stamp. */
const updatedOf = (row: IDataObject): Stamp | undefined => toStamp(row.updated_at);

/** An inclusive upper bound that leaves `stamp` out (services write whole seconds or milliseconds). */
const justBefore = (stamp: Stamp): Stamp => shiftStamp(stamp, -1);

/**
 * Every page updated on or after `from` (all pages when undefined), returned oldest first.
 *
 * The service has second-precision timestamps, lists newest first, and both date filters are
 * inclusive. A change made while the list is read gets a timestamp at or after the newest one shown,
 * and moves its row to the front, shifting every row behind it. So:
 * - page 1 of the range, one request, is a consistent snapshot; a range on one list page is done;
 * - otherwise the range is cut below the newest timestamp T (`updated_before` = the instant before T):
 *   no change can enter that part while it is read, rows can only leave it (edited or archived), and
 *   reading its pages from the last to the first turns a departure into a row read twice, never into
 *   a row skipped. The rows at T come from the first request (they are all on it when it also shows an
 *   older row);
 * - a changed row count while reading the cut part means rows left (or, with a service clock that
 *   stepped back, came in): the read is repeated once, and if it still moves the result is "not
 *   settled" so the next poll starts from the same point and finds the rows that moved;
 * - when more than one list page of rows share T, they are read only once T is over for the service,
 *   that is when an earlier poll already saw T as the newest (`newestBefore`); until then they wait.
 */
export async function readPageChanges(
	ctx: IPollFunctions,
	filters: IDataObject,
	from: Stamp | undefined,
	budget: Budget,
	isNew: (row: IDataObject) => boolean,
	newestBefore?: Stamp,
): Promise<PageRead> {
	const query: IDataObject = { ...filters, sort: 'updated_at' };
	if (from !== undefined) query.updated_after = stampParam(from);
	let last: PageRead | undefined;
	for (let attempt = 1; attempt <= PAGE_READ_ATTEMPTS; attempt++) {
		last = await readOnce(ctx, query, budget, isNew, newestBefore);
		if (last.settled || !last.complete) return last;
	}
	return last!;
}

async function readOnce(
	ctx: IPollFunctions,
	query: IDataObject,
	budget: Budget,
	isNew: (row: IDataObject) => boolean,
	newestBefore: Stamp | undefined,
): Promise<PageRead> {
	const first = await apiListPage<IDataObject>(ctx, PAGES_PATH, query, 1, MAX_PAGE_SIZE);
	const newest = first.data.length > 0 ? updatedOf(first.data[0]) : undefined;
	if (first.pagination.total_pages <= 1 || newest === undefined) {
		return { rows: [...first.data].reverse(), complete: true, settled: true, newest };
	}
	const headOnFirst = first.data.some((row) => updatedOf(row) !== newest);
	// T is over for the service once an earlier poll saw it as the newest: it can be read whole.
	const newestIsOver = !headOnFirst && newestBefore === newest;
	const head = headOnFirst ? first.data.filter((row) => updatedOf(row) === newest) : [];
	const upper = newestIsOver ? newest : justBefore(newest);
	const cut: IDataObject = { ...query, updated_before: stampParam(upper) };

	let total: number;
	if (headOnFirst) total = first.pagination.total_count - head.length;
	else if (newestIsOver) total = first.pagination.total_count;
	else total = (await apiListPage<IDataObject>(ctx, PAGES_PATH, cut, 1, 1)).pagination.total_count;

	const pages = Math.ceil(total / MAX_PAGE_SIZE);
	const older: IDataObject[][] = [];
	let complete = true;
	let moved = false;
	for (let page = pages; page >= 1; page--) {
		const next = await apiListPage<IDataObject>(ctx, PAGES_PATH, cut, page, MAX_PAGE_SIZE);
		if (next.pagination.total_count !== total) moved = true;
		older.push([...next.data].reverse());
		// Out of time: stop once something new is in hand, so every poll makes progress.
		if (page > 1 && budget.spent() && older.some((rows) => rows.some(isNew))) {
			complete = false;
			break;
		}
	}
	const rows = complete ? [...older.flat(), ...[...head].reverse()] : older.flat();
	const settled = !moved && (headOnFirst || newestIsOver);
	return { rows: lastOccurrence(rows), complete, settled, newest };
}

/** The first list page of ready sources matching the filters: what every Source Ready read starts with. */
export async function readySourcesFirstPage(
	ctx: IPollFunctions,
	filters: IDataObject,
): Promise<ListPage<IDataObject>> {
	return await apiListPage<IDataObject>(
		ctx,
		SOURCES_PATH,
		{ ...filters, status: 'ready' },
		1,
		MAX_PAGE_SIZE,
	);
}

/**
 * A short digest of a first list page of ready sources: the row count and each row's id and
 * processed_at. The same digest as last time means nothing to read further (see pollSources).
 */
export function sourcesDigest(first: ListPage<IDataObject>): string {
	const text = [
		first.pagination.total_count,
		...first.data.map((row) => `${String(row.id)}@${String(row.processed_at)}`),
	].join('|');
	// FNV-1a, 32 bits: a change detector, not a security measure.
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++)
		hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return `${first.pagination.total_count}:${hash.toString(16)}`;
}

/**
 * Every ready source matching the filters. The API offers no time filter and no order for sources, so
 * the list is read whole, checking the row count stays put so no row slips between two pages. The
 * first page already read (`first`) is used as the first attempt's page 1.
 */
export async function readReadySources(
	ctx: IPollFunctions,
	filters: IDataObject,
	first?: ListPage<IDataObject>,
): Promise<IDataObject[]> {
	const query: IDataObject = { ...filters, status: 'ready' };
	for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
		let total: number | undefined;
		let moved = false;
		const until = ({ pagination }: ListPage<IDataObject>) => {
			total ??= pagination.total_count;
			moved = pagination.total_count !== total;
			return moved;
		};
		const given = attempt === 1 ? first : undefined;
		const rows = await apiList(ctx, SOURCES_PATH, query, { returnAll: true, first: given, until });
		if (!moved) return lastOccurrence(rows);
	}
	throw changedWhileReading(ctx, 'source');
}

/** One row per id, the last one read (rows are in order, so the latest state) in its place. */
function lastOccurrence(rows: IDataObject[]): IDataObject[] {
	const last = new Map<unknown, number>();
	rows.forEach((row, index) => last.set(row.id, index));
	return rows.filter((row, index) => last.get(row.id) === index);
}
