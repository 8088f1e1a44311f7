import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { readPages } from '../transport';

/** Rows per request of a resource-locator search: one page of the API per "load more". */
const SEARCH_PAGE_SIZE = 50;

export interface SearchSpec {
	path: string;
	toItem: (row: IDataObject) => INodeListSearchItems;
	/** The API searches itself: the filter goes out as its `query` parameter. */
	serverSearch?: boolean;
	/** Where the API cannot search: a match on the page read (never the whole list). */
	matches?: (row: IDataObject, filter: string) => boolean;
	pageSize?: number;
	/**
	 * With `matches`: more pages in the same call until this many match. With a search term typed, n8n
	 * loads more only when the user scrolls, which a list too short to scroll never allows.
	 */
	fill?: { minResults: number; maxPages: number };
}

export type SearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** A "From List" search; the pagination token is the next API page number. */
export function searchMethod(spec: SearchSpec): SearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = Number(paginationToken ?? 1) || 1;
		const needle = (filter ?? '').trim();
		const qs: IDataObject = spec.serverSearch && needle ? { query: needle } : {};
		const lower = needle.toLowerCase();
		const match = lower === '' ? undefined : spec.matches;
		const pagesAtMost = match && spec.fill ? spec.fill.maxPages : 1;
		const wanted = match && spec.fill ? spec.fill.minResults : 0;
		const results: INodeListSearchItems[] = [];
		let pages = 0;
		// Each row is shown as its page gives it: a search shows one reading, the latest page's.
		const { next } = await readPages<IDataObject>(this, spec.path, qs, {
			from: page,
			pageSize: spec.pageSize ?? SEARCH_PAGE_SIZE,
			until: ({ data }) => {
				results.push(...(match ? data.filter((row) => match(row, lower)) : data).map(spec.toItem));
				return ++pages >= pagesAtMost || results.length >= wanted;
			},
		});
		return next === undefined ? { results } : { results, paginationToken: String(next) };
	};
}

/** Whether any of `texts` holds `needle` (lower case). */
export function holds(texts: unknown[], needle: string): boolean {
	return texts.some((text) =>
		String(text ?? '')
			.toLowerCase()
			.includes(needle),
	);
}

export function matchFields(...fields: string[]): (row: IDataObject, needle: string) => boolean {
	return (row, needle) =>
		holds(
			fields.map((field) => row[field]),
			needle,
		);
}

/** "First Last", or '' when the person has no name. */
export function fullName(user: IDataObject | undefined): string {
	return [user?.first_name, user?.last_name].filter(Boolean).join(' ');
}
