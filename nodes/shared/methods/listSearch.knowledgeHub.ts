import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { folderLabel } from './labels';
import { pagedSearch } from './pagedSearch';

/**
 * "From List" searches for Knowledge Hub locators. All three endpoints search titles/names on the
 * server (`query`), so each "load more" reads one more API page of matches.
 */

function withQuery(filter: string | undefined): IDataObject {
	const query = (filter ?? '').trim();
	return query ? { query } : {};
}

export async function searchPages(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await pagedSearch(
		this,
		{
			path: '/knowledge-hub/pages',
			qs: withQuery(filter),
			toItem: (row) => ({ name: `${String(row.title)} (${String(row.status)})`, value: String(row.id) }),
		},
		filter,
		paginationToken,
	);
}

export async function searchSources(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await pagedSearch(
		this,
		{
			path: '/knowledge-hub/sources',
			qs: withQuery(filter),
			toItem: (row) => ({
				name: `${String(row.title)} (${String(row.source_type)})`,
				value: String(row.id),
				...(typeof row.external_url === 'string' && row.external_url ? { url: row.external_url } : {}),
			}),
		},
		filter,
		paginationToken,
	);
}

export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await pagedSearch(
		this,
		{
			path: '/knowledge-hub/folders',
			qs: withQuery(filter),
			toItem: (row) => ({ name: folderLabel(row), value: String(row.id) }),
		},
		filter,
		paginationToken,
	);
}
