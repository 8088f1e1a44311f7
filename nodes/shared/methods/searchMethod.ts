import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

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
}

/** A `listSearch` method as n8n calls it. */
export type SearchMethod = (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) => Promise<INodeListSearchResult>;

/**
 * A "From List" search, one API page per call. The pagination token is the next API page number, so
 * n8n's "load more" walks the list a page at a time.
 */
export function searchMethod(spec: SearchSpec): SearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = Number(paginationToken ?? 1) || 1;
		const needle = (filter ?? '').trim();
		const qs: IDataObject = spec.serverSearch && needle ? { query: needle } : {};
		const { data, pagination } = await apiListPage<IDataObject>(this, spec.path, qs, page, SEARCH_PAGE_SIZE);
		const lower = needle.toLowerCase();
		const rows = lower && spec.matches ? data.filter((row) => spec.matches!(row, lower)) : data;
		return {
			results: rows.map(spec.toItem),
			paginationToken: page < pagination.total_pages ? String(page + 1) : undefined,
		};
	};
}

/** Case-insensitive match on any of the given fields. */
export function matchFields(...fields: string[]): (row: IDataObject, needle: string) => boolean {
	return (row, needle) => fields.some((field) => String(row[field] ?? '').toLowerCase().includes(needle));
}
