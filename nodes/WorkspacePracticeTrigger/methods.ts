import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { getMemberIds } from '../WorkspacePractice/methods/loadOptions';
import { matchFields, searchPages } from '../WorkspacePractice/methods/searchPages';

/** Knowledge Hub folders; the API searches their names itself (`query`). */
export async function searchFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const qs: IDataObject = filter?.trim() ? { query: filter.trim() } : {};
	return await searchPages(
		this,
		{
			path: '/knowledge-hub/folders',
			qs,
			toItem: (row) => ({ name: `${row.emoji ? `${String(row.emoji)} ` : ''}${String(row.name)}`, value: String(row.id) }),
		},
		filter,
		paginationToken,
	);
}

/** Skills; the list has no search parameter, so each fetched page is matched by name here. */
export async function searchSkills(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPages(
		this,
		{
			path: '/skills',
			toItem: (row) => ({ name: String(row.name), value: String(row.id) }),
			matches: matchFields('name'),
		},
		filter,
		paginationToken,
	);
}

export const listSearch = { searchFolders, searchSkills };
export const loadOptions = { getMemberIds };
