import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matchFields, pagedSearch } from './pagedSearch';

/**
 * Scenario pickers. The list has no text search, so each fetched page is matched on name and slug.
 * Most operations take the scenario ID; remixing takes its slug.
 */
async function searchScenariosBy(
	ctx: ILoadOptionsFunctions,
	valueOf: (row: IDataObject) => string,
	labelOf: (row: IDataObject) => string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await pagedSearch(
		ctx,
		{
			path: '/scenarios',
			toItem: (row) => ({
				name: labelOf(row),
				value: valueOf(row),
				url: typeof row.url === 'string' ? row.url : undefined,
			}),
			matches: matchFields('name', 'slug'),
		},
		filter,
		paginationToken,
	);
}

export async function searchScenarios(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchScenariosBy(
		this,
		(row) => String(row.id),
		(row) => String(row.name ?? row.slug ?? row.id),
		filter,
		paginationToken,
	);
}

export async function searchScenarioSlugs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchScenariosBy(
		this,
		(row) => String(row.slug),
		(row) => `${String(row.name ?? row.slug)} (${String(row.slug)})`,
		filter,
		paginationToken,
	);
}
