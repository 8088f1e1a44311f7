import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matchFields, searchPages } from './searchPages';

/** Scenario picker: the list has no text search, so each fetched page is matched on name and slug. */
export async function searchScenarios(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPages(
		this,
		{
			path: '/scenarios',
			toItem: (row) => ({
				name: String(row.name ?? row.slug ?? row.id),
				value: String(row.id),
				url: typeof row.url === 'string' ? row.url : undefined,
			}),
			matches: matchFields('name', 'slug'),
		},
		filter,
		paginationToken,
	);
}
