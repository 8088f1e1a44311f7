import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiListPage } from '../transport';

/** Rows per request of a resource-locator search: one page of the API per "load more". */
const SEARCH_PAGE_SIZE = 50;

export interface SearchSpec {
	path: string;
	toItem: (row: IDataObject) => INodeListSearchItems;
	/** The API searches itself: the filter goes out as its `query` parameter. */
	serverSearch?: boolean;
	/**
	 * Client-side match for APIs without a search parameter: applied to the page fetched, so a search
	 * still reads one API page per request and never the whole list.
	 */
	matches?: (row: IDataObject, filter: string) => boolean;
	/** Rows per API page (default 50; the API allows up to 100). */
	pageSize?: number;
	/**
	 * With a client-side match: read further pages in the same call until this many rows match (or the
	 * list ends, or `maxPages` were read). n8n's list loads more on its own only while no search term is
	 * typed; with one, it waits for the user to scroll, which a list too short to scroll never lets
	 * happen. So a search answers with enough rows to scroll, or all there are.
	 */
	fill?: { minResults: number; maxPages: number };
}

/** A `listSearch` method as n8n calls it. */
export type SearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * A "From List" search. The pagination token is the next API page number, so n8n's "load more" walks
 * the list from where the last call stopped.
 */
export function searchMethod(spec: SearchSpec): SearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		let page = Number(paginationToken ?? 1) || 1;
		const needle = (filter ?? '').trim();
		const qs: IDataObject = spec.serverSearch && needle ? { query: needle } : {};
		const lower = needle.toLowerCase();
		const clientFilter = lower !== '' && spec.matches !== undefined;
		const pagesAtMost = clientFilter && spec.fill ? spec.fill.maxPages : 1;
		const wanted = clientFilter && spec.fill ? spec.fill.minResults : 0;
		const results: INodeListSearchItems[] = [];
		for (let read = 0; ; read++) {
			const { data, pagination } = await apiListPage<IDataObject>(
				this,
				spec.path,
				qs,
				page,
				spec.pageSize ?? SEARCH_PAGE_SIZE,
			);
			const rows = clientFilter ? data.filter((row) => spec.matches!(row, lower)) : data;
			results.push(...rows.map(spec.toItem));
			const more = page < pagination.total_pages;
			if (!more) return { results };
			page += 1;
			if (read + 1 >= pagesAtMost || results.length >= wanted)
				return { results, paginationToken: String(page) };
		}
	};
}

/** Case-insensitive match on any of the given fields. */
export function matchFields(...fields: string[]): (row: IDataObject, needle: string) => boolean {
	return (row, needle) =>
		fields.some((field) =>
			String(row[field] ?? '')
				.toLowerCase()
				.includes(needle),
		);
}
