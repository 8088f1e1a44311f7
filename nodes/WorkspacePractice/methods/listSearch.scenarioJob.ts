import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { matchFields, searchPages } from './searchPages';

/** Scenario picker that yields slugs: Scenario Job → Create remixes a scenario named by its slug. */
export async function searchScenarioSlugs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchPages(
		this,
		{
			path: '/scenarios',
			toItem: (row) => ({
				name: `${String(row.name ?? row.slug)} (${String(row.slug)})`,
				value: String(row.slug),
				url: typeof row.url === 'string' ? row.url : undefined,
			}),
			matches: matchFields('name', 'slug'),
		},
		filter,
		paginationToken,
	);
}
