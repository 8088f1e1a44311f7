import type { IDataObject } from 'n8n-workflow';

import type { ListEnvelope } from '../contract';
import type { TransportContext } from './context';
import { isOutOfTime, untilDeadline } from './deadline';
import { apiRequest } from './request';

/** The service's page size ceiling (spec 4.0). */
export const MAX_PAGE_SIZE = 100;

export type ListPage<T> = ListEnvelope<T>;

export interface ListOptions<T = IDataObject> {
	/** Everything there is; otherwise at most `limit` rows. */
	returnAll: boolean;
	limit?: number;
	/** Pages in flight at once after the first (4 unless given). */
	concurrency?: number;
	itemIndex?: number;
	/** Page 1, when the caller has already read it. */
	first?: ListPage<T>;
	/**
	 * Pages one at a time, stopping after the first page it is true of, a short page or the last page as
	 * the latest counts it (rows added meanwhile push rows down a page, never past the end).
	 */
	until?: (page: ListPage<T>) => boolean;
}

export async function apiListPage<T = IDataObject>(
	ctx: TransportContext,
	path: string,
	qs: IDataObject,
	page: number,
	pageSize: number,
	itemIndex?: number,
): Promise<ListPage<T>> {
	const { body } = await apiRequest<ListPage<T>>(ctx, {
		method: 'GET',
		path,
		qs: { ...qs, page, page_size: pageSize },
		itemIndex,
	});
	return {
		data: Array.isArray(body?.data) ? body.data : [],
		pagination: body?.pagination ?? { page, page_size: pageSize, total_count: 0, total_pages: 0 },
	};
}

/** How `readPages` walks a list. */
export interface PageWalk<T> {
	/** The page it starts at (1 unless given). */
	from?: number;
	/** From `from` back to page 1 (a list whose new rows come first: a row pushed down is read again). */
	down?: boolean;
	/** Going up: the last page to read, if the list has it. */
	to?: number;
	pageSize?: number;
	itemIndex?: number;
	/** Page `from`, when the caller has already read it. */
	first?: ListPage<T>;
	/** The row count the walk judges the pages by (its first page's unless given). */
	total?: number;
	/** Going up with no `until` to ask: pages in flight at once after the first (1 unless given). */
	concurrency?: number;
	/** A row read twice (the list moved between pages): its first reading kept or its last; else both. */
	keep?: 'first' | 'last';
	/** A row's identity for `keep` (its `id` unless given). */
	keyOf?: (row: T) => string;
	/** Each page as read, and whether the list moved so far: true stops the walk after it. */
	until?: (page: ListPage<T>, moved: boolean) => boolean;
	/**
	 * The poll's deadline ends the walk with what it read (`next`: where to go on). Otherwise the walk is
	 * all or nothing: `OutOfTime` goes to whoever resumes the whole read.
	 */
	resumable?: boolean;
}

export interface PagesRead<T> {
	/** In list order (page 1's first), each row's page in `pageOf`. */
	rows: T[];
	pageOf: number[];
	/** The page to go on from (the deadline or `until` stopped the walk); undefined at the list's end. */
	next?: number;
	/** The deadline stopped the walk before `next`. */
	cut: boolean;
	/** A page counted other than `total` rows: rows moved under the read. */
	moved: boolean;
	/** The first page read's row count and page count. */
	total: number;
	pages: number;
}

/**
 * The one page walk under every list read: pages of `path` one at a time (after the first, all at once
 * with `concurrency`), up to the list's end or down to page 1, until `until`, or the deadline.
 */
export async function readPages<T = IDataObject>(
	ctx: TransportContext,
	path: string,
	qs: IDataObject,
	walk: PageWalk<T>,
): Promise<PagesRead<T>> {
	const size = walk.pageSize ?? MAX_PAGE_SIZE;
	const up = walk.down !== true;
	const fetch = async (n: number) => await apiListPage<T>(ctx, path, qs, n, size, walk.itemIndex);
	const inTime = async (n: number) =>
		walk.resumable ? await untilDeadline(fetch(n)) : await fetch(n);
	const read: Array<{ n: number; page: ListPage<T> }> = [];
	let total = walk.total;
	let moved = false;
	let pages = 0;
	const take = (n: number, page: ListPage<T>): boolean => {
		if (read.length === 0) pages = page.pagination.total_pages;
		total ??= page.pagination.total_count;
		moved ||= page.pagination.total_count !== total;
		read.push({ n, page });
		return walk.until?.(page, moved) === true;
	};
	let n = walk.from ?? 1;
	let next: number | undefined = n;
	let cut = false;
	for (let first = true; ; first = false) {
		if (up ? n > (walk.to ?? Infinity) : n < 1) {
			next = undefined;
			break;
		}
		const page = first && walk.first ? walk.first : await inTime(n);
		if (page === undefined) {
			cut = true;
			break;
		}
		const stop = take(n, page);
		const last = Math.min(walk.to ?? Infinity, page.pagination.total_pages ?? n);
		if (up ? page.data.length < size || n >= last : n <= 1) {
			next = undefined;
			break;
		}
		next = n += up ? 1 : -1;
		if (stop) break;
		if (up && (walk.concurrency ?? 1) > 1) {
			const rest = Array.from({ length: last - n + 1 }, (_, i) => n + i);
			const answers = await mapWithConcurrency(rest, walk.concurrency ?? 1, fetch, {
				untilDeadline: walk.resumable,
			});
			answers.forEach((answer, i) => take(rest[i], answer));
			next = rest[answers.length];
			cut = next !== undefined;
			break;
		}
	}
	const inListOrder = up ? read : [...read].reverse();
	let rows = inListOrder.flatMap(({ n: at, page }) => page.data.map((row) => ({ at, row })));
	if (walk.keep) {
		const keyOf = walk.keyOf ?? ((row: T) => String((row as IDataObject).id));
		const kept = new Map<string, T>();
		for (const { page } of read)
			for (const row of page.data)
				if (walk.keep === 'last' || !kept.has(keyOf(row))) kept.set(keyOf(row), row);
		rows = rows.filter(({ row }) => kept.get(keyOf(row)) === row);
	}
	return {
		rows: rows.map(({ row }) => row),
		pageOf: rows.map(({ at }) => at),
		next,
		cut,
		moved,
		total: total ?? 0,
		pages,
	};
}

/** Rows of a list endpoint in server order: page 1 says how many pages exist, the rest needed follow. */
export async function apiList<T = IDataObject>(
	ctx: TransportContext,
	path: string,
	qs: IDataObject,
	options: ListOptions<T>,
): Promise<T[]> {
	const limit = options.returnAll ? Infinity : Math.max(1, Math.floor(options.limit ?? 50));
	const pageSize = Math.min(limit, MAX_PAGE_SIZE);
	const { until } = options;
	let count = 0;
	const { rows } = await readPages<T>(ctx, path, qs, {
		pageSize,
		itemIndex: options.itemIndex,
		first: options.first,
		to: Number.isFinite(limit) ? Math.ceil(limit / pageSize) : undefined,
		// `until` asks page by page; otherwise page 1's count says which pages to read together.
		concurrency: until ? 1 : (options.concurrency ?? 4),
		until: (page) => until?.(page) === true || (count += page.data.length) >= limit,
	});
	return rows.slice(0, limit);
}

/**
 * Runs `work` over `inputs`, `concurrency` at a time; results keep the input order. No input starts
 * after one failed; its error is thrown once the started ones end. With `untilDeadline`, `OutOfTime`
 * is a stop, not a failure: the results of the longest finished run from the first input, where a
 * read resumes.
 */
export async function mapWithConcurrency<I, O>(
	inputs: I[],
	concurrency: number,
	work: (input: I) => Promise<O>,
	options: { untilDeadline?: boolean } = {},
): Promise<O[]> {
	const results = new Array<O>(inputs.length);
	const done = new Array<boolean>(inputs.length).fill(false);
	let next = 0;
	let stopAt = inputs.length;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (next < stopAt && failure === undefined) {
			const index = next++;
			try {
				results[index] = await work(inputs[index]);
				done[index] = true;
			} catch (error) {
				if (options.untilDeadline === true && isOutOfTime(error)) stopAt = Math.min(stopAt, index);
				else failure ??= { error };
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(Math.max(1, concurrency), inputs.length) }, worker),
	);
	if (failure) throw failure.error;
	const finished = done.indexOf(false);
	return finished === -1 ? results : results.slice(0, finished);
}
