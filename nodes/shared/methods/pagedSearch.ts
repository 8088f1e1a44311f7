import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { apiListPage } from '../transport';

/** Rows per request of a resource-locator search: one page of the API per "load more". */
const SEARCH_PAGE_SIZE = 50;

export interface SearchSpec {
	path: string;
	/** Query parameters for the API (e.g. its own title search `query`). */
	qs?: IDataObject;
	toItem: (row: IDataObject) => INodeListSearchItems;
	/**
	 * Client-side match for APIs without a search parameter: applied to the page fetched, so a search
	 * still reads one API page per request and never the whole list.
	 */
	matches?: (row: IDataObject, filter: string) => boolean;
}

/**
 * One page of a "From List" search. The pagination token is the next API page number, so n8n's
 * "load more" walks the list a page at a time.
 */
export async function pagedSearch(
	ctx: ILoadOptionsFunctions,
	spec: SearchSpec,
	filter: string | undefined,
	paginationToken: unknown,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const { data, pagination } = await apiListPage<IDataObject>(ctx, spec.path, spec.qs ?? {}, page, SEARCH_PAGE_SIZE);
	const needle = (filter ?? '').trim().toLowerCase();
	const rows = needle && spec.matches ? data.filter((row) => spec.matches!(row, needle)) : data;
	return {
		results: rows.map(spec.toItem),
		paginationToken: page < pagination.total_pages ? String(page + 1) : undefined,
	};
}

/** Case-insensitive match on any of the given fields. */
export function matchFields(...fields: string[]): (row: IDataObject, needle: string) => boolean {
	return (row, needle) => fields.some((field) => String(row[field] ?? '').toLowerCase().includes(needle));
}
