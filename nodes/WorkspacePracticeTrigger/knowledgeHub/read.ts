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
 * A read of the pages list cut below its newest timestamp, read from its last list page back to the
 * first (`readPageChanges`): where the next poll goes on when a deadline stopped it between two pages.
 */
export interface PageProgress {
	/** The cut's inclusive bounds on updated_at: `updated_after` (absent: from the start), `updated_before`. */
	from?: Stamp;
	upper: Stamp;
	/** A cut read after an earlier one: the first one's window start, which rows are judged against. */
	since?: Stamp;
	/** Its row count when its reading began: a different count on a later page means rows moved. */
	total: number;
	/** The next list page, counting down to 1; 0 once read through: the next read lists what came after. */
	page: number;
	/** Once read through, the next read starts again from `from` (`PageRead.settled` false). */
	unsettled?: true;
}

export interface PageRead {
	/** Rows oldest first (by updated_at; on equal timestamps, in the order the service changed them). */
	rows: IDataObject[];
	/** Per row, the cut's list page it came from; 0 for the rows at the newest timestamp (`head`). */
	pageOf: number[];
	/** False when the deadline stopped the read: `rows` are the oldest part, `cut` where to go on. */
	complete: boolean;
	/** False when a row may have slipped past (the list moved, or T was left for later): read again. */
	settled: boolean;
	/** The newest updated_at the list showed, read or not. */
	newest?: Stamp;
	/** More than a list page of rows share the newest timestamp: left for the next read. */
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
 * Every page updated on or after `from` (all when undefined), oldest first. The list is newest first,
 * both date filters inclusive, and a change made meanwhile moves its row to the front with a timestamp
 * at or after the newest shown (docs/triggers.md, "Exactly once"). So page 1 is one consistent
 * answer; more is cut below the newest timestamp T, a part no change can enter, read from its last
 * page back to the first (a row that leaves is read twice, never skipped), and the rows at T are taken
 * from page 1. A row count that moves meanwhile repeats the read once, then leaves it unsettled (the
 * next read starts from the same point). More than a page of rows at T wait until an earlier poll saw
 * T as the newest (`newestBefore`). A deadline between two pages of the cut returns what was read and
 * where to go on (`resume`); one before its first page lets `OutOfTime` through.
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

/** A digest of a first page of ready sources (count, ids, processed_at): unchanged, nothing to read. */
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
 * Every ready source matching the filters: sources have no time filter or order, so the whole list,
 * read again while its row count moves (`first`: the first attempt's page 1, already read).
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
 * A read of the whole ready-sources list that a deadline may stop between two pages, kept until read
 * through; the row count staying put on every page says no row slipped between two pages.
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
 * The ready sources of a pass, from its first page (a new pass) or where a poll stopped, to the last
 * page or the deadline (`complete` false, `pass` where to go on).
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

/** One row per id, the last read (the latest state), in its place; `pageOf` filtered alike. */
function lastOccurrence(
	rows: IDataObject[],
	pageOf: number[] = [],
): { rows: IDataObject[]; pageOf: number[] } {
	const last = new Map<unknown, number>();
	rows.forEach((row, index) => last.set(row.id, index));
	const kept = (_: unknown, index: number) => last.get(rows[index].id) === index;
	return { rows: rows.filter(kept), pageOf: pageOf.filter(kept) };
}
