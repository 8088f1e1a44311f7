import type { IDataObject } from 'n8n-workflow';

import type { ListEnvelope } from '../contract';
import type { TransportContext } from './context';
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

/** Rows of a list endpoint in server order: page 1 says how many pages exist, the rest needed follow. */
export async function apiList<T = IDataObject>(
	ctx: TransportContext,
	path: string,
	qs: IDataObject,
	options: ListOptions<T>,
): Promise<T[]> {
	const limit = options.returnAll ? Infinity : Math.max(1, Math.floor(options.limit ?? 50));
	const pageSize = Math.min(limit, MAX_PAGE_SIZE);
	const first =
		options.first ?? (await apiListPage<T>(ctx, path, qs, 1, pageSize, options.itemIndex));
	const { until } = options;
	if (until) {
		const rows = [...first.data];
		for (let page = 1, at = first; !until(at) && at.data.length === pageSize; ) {
			if (++page > (at.pagination.total_pages ?? page) || rows.length >= limit) break;
			at = await apiListPage<T>(ctx, path, qs, page, pageSize, options.itemIndex);
			rows.push(...at.data);
		}
		return rows.slice(0, limit);
	}
	const pagesWanted = Number.isFinite(limit) ? Math.ceil(limit / pageSize) : Infinity;
	const lastPage = Math.min(first.pagination.total_pages, pagesWanted);
	if (first.data.length >= limit || lastPage <= 1 || first.data.length === 0) {
		return first.data.slice(0, limit);
	}

	const rest = await mapWithConcurrency(
		Array.from({ length: lastPage - 1 }, (_, i) => i + 2),
		options.concurrency ?? 4,
		async (page) => (await apiListPage<T>(ctx, path, qs, page, pageSize, options.itemIndex)).data,
	);
	return first.data.concat(...rest).slice(0, limit);
}

/** Runs `work` over `inputs` with at most `concurrency` at a time; results keep the input order. */
export async function mapWithConcurrency<I, O>(
	inputs: I[],
	concurrency: number,
	work: (input: I) => Promise<O>,
): Promise<O[]> {
	const results = new Array<O>(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await work(inputs[index]);
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(Math.max(1, concurrency), inputs.length) }, worker),
	);
	return results;
}
