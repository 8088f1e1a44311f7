import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matchFields, pagedSearch } from './pagedSearch';

/** Skill picker, matched on name and slug a page at a time. */
export async function searchSkills(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await pagedSearch(
		this,
		{
			path: '/skills',
			toItem: (row) => ({ name: String(row.name ?? row.id), value: String(row.id) }),
			matches: matchFields('name', 'slug'),
		},
		filter,
		paginationToken,
	);
}
