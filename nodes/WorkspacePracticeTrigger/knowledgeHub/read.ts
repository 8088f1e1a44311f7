import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiList, apiListPage, MAX_PAGE_SIZE, untilDeadline } from '../../shared/transport';
import type { ListPage } from '../../shared/transport/paginate';
import type { Stamp } from './timestamps';
import { shiftStamp, stampParam, toStamp } from './timestamps';

export const PAGES_PATH = '/knowledge-hub/pages';
export const SOURCES_PATH = '/knowledge-hub/sources';

/** A list read again from the start at most this often when it changes under the reader. */
const READ_ATTEMPTS = 3;

/**
 * A read of the pages list cut below its newest timestamp and read from its last list page back to
 * the first (see `readPageChanges`). A poll's deadline may stop it between two list pages: this is
 * what the next poll needs to go on from the next page, the smallest unit a read resumes from. Kept
 * in the stream's state (state.ts) until the cut is read through.
 */
export interface PageProgress {
	/** The cut's inclusive bounds on updated_at: `updated_after` (absent: from the start), `updated_before`. */
	from?: Stamp;
	upper: Stamp;
	/**
	 * Set on a cut read after an earlier one (pages after its `upper`): the start of the first one's
	 * window, below `from`. Rows are judged against it and the seen set keeps it, so a page created in
	 * the earlier cut but edited out of it before that cut reached it is still a Page Created.
	 */
	since?: Stamp;
	/** Its row count when its reading began: a different count on a later page means rows moved. */
	total: number;
	/**
	 * The next list page to read, counting down to 1; 0 once read through by a poll that went on with
	 * it: the next read then lists what came after the cut (above `upper`), whose rows at the newest
	 * timestamp the cut left out, before the stream reads its window again.
	 */
	page: number;
	/**
	 * Once read through, the next read starts again from `from`: the list moved under the read, or
	 * the newest timestamp was left for later (`PageRead.settled`).
	 */
	unsettled?: true;
}

export interface PageRead {
	/** Rows oldest first (by updated_at; on equal timestamps, in the order the service changed them). */
	rows: IDataObject[];
	/** Per row, the cut's list page it came from; 0 for the rows at the newest timestamp (`head`). */
	pageOf: number[];
	/**
	 * False when the poll's deadline stopped the read: `rows` are then the oldest part of the changes,
	 * without gaps, and `cut` says where the next poll goes on.
	 */
	complete: boolean;
	/**
	 * False when a row may have slipped past this read (the list changed under it, or the newest
	 * timestamp was left for later): the next poll must read again from the same lower bound.
	 */
	settled: boolean;
	/** The newest updated_at the list showed, read or not. */
	newest?: Stamp;
	/**
	 * More than a list page of rows share the newest timestamp, left for the next read (see
	 * `readPageChanges`): this read is not done, and the next goes on with it.
	 */
	waiting?: true;
	/** The cut this read went through, `page` the next one to read; absent when the range fit on page 1. */
	cut?: PageProgress;
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
 *
 * The poll's deadline may stop the read between two list pages of the cut (the transport throws
 * `OutOfTime` rather than send a request that could not be answered in time): the rows read so far
 * come back with the cut's progress, and the next poll goes on (`resume`) from the next page. That
 * holds across polls for the reason above: no change enters the cut, and a departure only makes a row
 * read twice (the seen set drops it). The rows at T are then left for the read after the cut. A
 * deadline before the cut's first page lets `OutOfTime` through: nothing was gained.
 */
export async function readPageChanges(
	ctx: IPollFunctions,
	filters: IDataObject,
	lowerBound: Stamp | undefined,
	newestBefore?: Stamp,
	resume?: PageProgress,
): Promise<PageRead> {
	let from = lowerBound;
	const query: IDataObject = { ...filters, sort: 'updated_at' };
	if (resume && resume.page > 0) return await readCut(ctx, query, resume, [], newestBefore);
	// After a cut read through over several polls: what came after it.
	if (resume) from = shiftStamp(resume.upper, 1);
	if (from !== undefined) query.updated_after = stampParam(from);
	let last = await readOnce(ctx, query, from, newestBefore);
	for (let attempt = 2; attempt <= PAGE_READ_ATTEMPTS; attempt++) {
		if (last.settled || !last.complete) return last;
		// No time to read it again: the unsettled read stands (the next poll reads from `from`).
		const again = await untilDeadline(readOnce(ctx, query, from, newestBefore));
		if (!again) return last;
		last = again;
	}
	return last;
}

async function readOnce(
	ctx: IPollFunctions,
	query: IDataObject,
	from: Stamp | undefined,
	newestBefore: Stamp | undefined,
): Promise<PageRead> {
	const first = await apiListPage<IDataObject>(ctx, PAGES_PATH, query, 1, MAX_PAGE_SIZE);
	const newest = first.data.length > 0 ? updatedOf(first.data[0]) : undefined;
	if (first.pagination.total_pages <= 1 || newest === undefined) {
		const rows = [...first.data].reverse();
		return { rows, pageOf: rows.map(() => 0), complete: true, settled: true, newest };
	}
	const headOnFirst = first.data.some((row) => updatedOf(row) !== newest);
	// T is over for the service once an earlier poll saw it as the newest: it can be read whole.
	const newestIsOver = !headOnFirst && newestBefore === newest;
	const head = headOnFirst ? first.data.filter((row) => updatedOf(row) === newest) : [];
	const upper = newestIsOver ? newest : justBefore(newest);

	let total: number;
	if (headOnFirst) total = first.pagination.total_count - head.length;
	else if (newestIsOver) total = first.pagination.total_count;
	else {
		const count = cutQuery(query, from, upper);
		total = (await apiListPage<IDataObject>(ctx, PAGES_PATH, count, 1, 1)).pagination.total_count;
	}

	const progress: PageProgress = { upper, total, page: Math.ceil(total / MAX_PAGE_SIZE) };
	if (from !== undefined) progress.from = from;
	if (!(headOnFirst || newestIsOver)) progress.unsettled = true;
	const read = await readCut(ctx, query, progress, head, newest);
	return headOnFirst || newestIsOver ? read : { ...read, waiting: true };
}

/** The query of a cut: the filters, and updated_at from `from` to `upper`, both inclusive. */
function cutQuery(query: IDataObject, from: Stamp | undefined, upper: Stamp): IDataObject {
	const cut: IDataObject = { ...query, updated_before: stampParam(upper) };
	if (from !== undefined) cut.updated_after = stampParam(from);
	else delete cut.updated_after;
	return cut;
}

/**
 * The cut's list pages from `progress.page` back to 1, then the rows at the newest timestamp (`head`,
 * from the first request). Stops at the poll's deadline with what it has and where to go on.
 */
async function readCut(
	ctx: IPollFunctions,
	query: IDataObject,
	progress: PageProgress,
	head: IDataObject[],
	newest: Stamp | undefined,
): Promise<PageRead> {
	const cut = cutQuery(query, progress.from, progress.upper);
	const rows: IDataObject[] = [];
	const pageOf: number[] = [];
	let unsettled = progress.unsettled === true;
	const at = (page: number): PageProgress => {
		const out: PageProgress = { ...progress, page };
		if (unsettled) out.unsettled = true;
		return out;
	};
	for (let page = progress.page; page >= 1; page--) {
		const next = await untilDeadline(
			apiListPage<IDataObject>(ctx, PAGES_PATH, cut, page, MAX_PAGE_SIZE),
		);
		if (!next) {
			const read = lastOccurrence(rows, pageOf);
			return { ...read, complete: false, settled: false, newest, cut: at(page) };
		}
		if (next.pagination.total_count !== progress.total) unsettled = true;
		for (const row of [...next.data].reverse()) {
			rows.push(row);
			pageOf.push(page);
		}
	}
	for (const row of [...head].reverse()) {
		rows.push(row);
		pageOf.push(0);
	}
	const read = lastOccurrence(rows, pageOf);
	return { ...read, complete: true, settled: !unsettled, newest, cut: at(0) };
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
		if (!moved) return lastOccurrence(rows).rows;
	}
	throw changedWhileReading(ctx, 'source');
}

/**
 * A read of the ready sources that a poll's deadline may stop between two list pages, kept in the
 * sources stream's state (state.ts) until read through. The API gives sources no time filter and no
 * order, so a read goes over the whole list; the row count, the same on every page, says no row slipped
 * between two pages, across polls as within one.
 */
export interface SourcesPass {
	/** The next list page to read. */
	page: number;
	/** The row count when the pass began (on its page 1). */
	total: number;
	/** The digest of its page 1 (`sourcesDigest`): the stream's digest once the pass is read through. */
	digest: string;
	/** The newest ready time read so far by the pass. */
	newest?: Stamp;
	/** The count changed on a later page: a row may have been passed over, so the next read starts again. */
	moved?: true;
}

/**
 * The ready sources of a pass: from its first page (`first`, a new pass) or from where an earlier poll
 * stopped (`pass`), to the last page or the poll's deadline. `complete` is false when the deadline
 * stopped it: `pass` then says where the next poll goes on. A deadline before the first page it reads
 * lets `OutOfTime` through for a new pass (nothing was gained) and returns no rows for a continued one.
 */
export async function readSourcesPass(
	ctx: IPollFunctions,
	filters: IDataObject,
	from: SourcesPass | ListPage<IDataObject>,
): Promise<{ rows: IDataObject[]; pass: SourcesPass; complete: boolean }> {
	const query: IDataObject = { ...filters, status: 'ready' };
	const rows: IDataObject[] = [];
	let pass: SourcesPass;
	if ('pagination' in from) {
		pass = { page: 2, total: from.pagination.total_count, digest: sourcesDigest(from) };
		rows.push(...from.data);
	} else pass = { ...from };
	const last = Math.max(1, Math.ceil(pass.total / MAX_PAGE_SIZE));
	for (let page = pass.page; page <= last; page++) {
		const next = await untilDeadline(
			apiListPage<IDataObject>(ctx, SOURCES_PATH, query, page, MAX_PAGE_SIZE),
		);
		if (!next) return { rows: lastOccurrence(rows).rows, pass: { ...pass, page }, complete: false };
		if (next.pagination.total_count !== pass.total) pass.moved = true;
		rows.push(...next.data);
	}
	return { rows: lastOccurrence(rows).rows, pass: { ...pass, page: last + 1 }, complete: true };
}

/**
 * One row per id, the last one read (rows are in order, so the latest state) in its place; `pageOf`
 * (each row's list page) filtered alike.
 */
function lastOccurrence(
	rows: IDataObject[],
	pageOf: number[] = [],
): { rows: IDataObject[]; pageOf: number[] } {
	const last = new Map<unknown, number>();
	rows.forEach((row, index) => last.set(row.id, index));
	const kept = (_: unknown, index: number) => last.get(rows[index].id) === index;
	return { rows: rows.filter(kept), pageOf: pageOf.filter(kept) };
}
