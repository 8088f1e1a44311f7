import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE, readPages } from '../../shared/transport';
import type { ListPage } from '../../shared/transport/paginate';
import type { PollRead } from '../family';
import type { Stamp } from './timestamps';
import { shiftStamp, stampParam, toStamp } from './timestamps';

export const PAGES_PATH = '/knowledge-hub/pages';
export const SOURCES_PATH = '/knowledge-hub/sources';

/** A list read again from the start at most this often when it changes under the reader. */
const READ_ATTEMPTS = 3;

/** A cut of the pages list below its newest timestamp, read last page first; kept across polls. */
export interface PageProgress {
	/** Inclusive bounds on updated_at (`from` absent: from the start). */
	from?: Stamp;
	upper: Stamp;
	/** A cut after an earlier one: the first one's window start, which rows are judged against. */
	since?: Stamp;
	/** Its row count when its reading began: a different count on a later page means rows moved. */
	total: number;
	/** The next list page, counting down to 1; 0 once read through. */
	page: number;
	/** Once read through, the next read starts again from `from` (`PageRead.settled` false). */
	unsettled?: true;
}

export interface PageRead {
	/** Oldest first; `pageOf`: each row's list page in the cut (0: the newest timestamp's rows). */
	rows: IDataObject[];
	pageOf: number[];
	/** False when the deadline stopped the read (`cut` says where to go on). */
	complete: boolean;
	/** False when a row may have slipped past: read again. */
	settled: boolean;
	newest?: Stamp;
	/** More than a list page of rows share the newest timestamp: left for the next read. */
	waiting?: true;
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

const updatedOf = (row: IDataObject): Stamp | undefined => toStamp(row.updated_at);

/** An inclusive upper bound that leaves `stamp` out (services write whole seconds or milliseconds). */
const justBefore = (stamp: Stamp): Stamp => shiftStamp(stamp, -1);

/**
 * Every page updated on or after `lowerBound`, oldest first. Below the newest timestamp no change can
 * enter, so that cut is read last page first: nothing skipped (docs/triggers.md, "Exactly once").
 */
export async function readPageChanges(
	ctx: IPollFunctions,
	run: PollRead,
	filters: IDataObject,
	lowerBound: Stamp | undefined,
	newestBefore?: Stamp,
	resume?: PageProgress,
): Promise<PageRead> {
	let from = lowerBound;
	const query: IDataObject = { ...filters, sort: 'updated_at' };
	if (resume && resume.page > 0) return await readCut(ctx, query, resume, [], newestBefore);
	if (resume) from = shiftStamp(resume.upper, 1);
	if (from !== undefined) query.updated_after = stampParam(from);
	const read = await readOnce(ctx, query, from, newestBefore);
	if (read.settled || !read.complete) return read;
	// The list moved under it: read once more. No time for it: the unsettled read stands (the next
	// poll reads from `from`).
	return (await run.optional(readOnce(ctx, query, from, newestBefore))) ?? read;
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
	// The newest timestamp is over once an earlier poll saw it as the newest: read it whole.
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

/** The cut's pages from `progress.page` back to 1, then `head`; stops at the deadline. */
async function readCut(
	ctx: IPollFunctions,
	query: IDataObject,
	progress: PageProgress,
	head: IDataObject[],
	newest: Stamp | undefined,
): Promise<PageRead> {
	const cut = cutQuery(query, progress.from, progress.upper);
	// A row read twice (updated meanwhile) is emitted as last read: its latest state.
	const { total } = progress;
	const walk = { from: progress.page, down: true, total, keep: 'last', resumable: true } as const;
	const read = await readPages<IDataObject>(ctx, PAGES_PATH, cut, walk);
	const unsettled = progress.unsettled === true || read.moved;
	const at = (page: number): PageProgress => {
		const out: PageProgress = { ...progress, page };
		if (unsettled) out.unsettled = true;
		return out;
	};
	// Oldest first: the list gives the newest first.
	const rows = [...read.rows].reverse();
	const pageOf = [...read.pageOf].reverse();
	if (read.cut)
		return { rows, pageOf, complete: false, settled: false, newest, cut: at(read.next ?? 0) };
	const heads = new Set(head.map((row) => row.id));
	const kept = (_: unknown, index: number) => !heads.has(rows[index].id);
	return {
		rows: [...rows.filter(kept), ...[...head].reverse()],
		pageOf: [...pageOf.filter(kept), ...head.map(() => 0)],
		complete: true,
		settled: !unsettled,
		newest,
		cut: at(0),
	};
}

/** The first list page of ready sources matching the filters. */
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

/** Every ready source (no time filter or order): the whole list, read again while its count moves. */
export async function readReadySources(
	ctx: IPollFunctions,
	filters: IDataObject,
	first?: ListPage<IDataObject>,
): Promise<IDataObject[]> {
	const query: IDataObject = { ...filters, status: 'ready' };
	for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
		const given = attempt === 1 ? first : undefined;
		// A moved list is read again; a row read twice in a steady one is emitted as last read.
		const until = (_: ListPage<IDataObject>, moved: boolean) => moved;
		const read = await readPages(ctx, SOURCES_PATH, query, { first: given, keep: 'last', until });
		if (!read.moved) return read.rows;
	}
	throw changedWhileReading(ctx, 'source');
}

/** A read of the whole ready-sources list, kept across polls; a steady count means nothing slipped. */
export interface SourcesPass {
	/** The next list page to read. */
	page: number;
	/** The row count on its page 1. */
	total: number;
	/** Its page 1's digest: the stream's once the pass is read through. */
	digest: string;
	newest?: Stamp;
	/** The count changed on a later page: the next read starts again. */
	moved?: true;
}

/** The ready sources of a pass, from its page 1 or where a poll stopped, to the end or the deadline. */
export async function readSourcesPass(
	ctx: IPollFunctions,
	filters: IDataObject,
	from: SourcesPass | ListPage<IDataObject>,
): Promise<{ rows: IDataObject[]; pass: SourcesPass; complete: boolean }> {
	const query: IDataObject = { ...filters, status: 'ready' };
	const given = 'pagination' in from ? from : undefined;
	const pass: SourcesPass = given
		? { page: 1, total: given.pagination.total_count, digest: sourcesDigest(given) }
		: { ...(from as SourcesPass) };
	const to = Math.max(1, Math.ceil(pass.total / MAX_PAGE_SIZE));
	const walk = { from: pass.page, to, first: given, total: pass.total, resumable: true };
	// As readReadySources: the last reading of a row is its latest state.
	const read = await readPages(ctx, SOURCES_PATH, query, { ...walk, keep: 'last' });
	if (read.moved) pass.moved = true;
	return { rows: read.rows, pass: { ...pass, page: read.next ?? to + 1 }, complete: !read.cut };
}
