import type { IDataObject } from 'n8n-workflow';

import { matchFields, searchMethod, type SearchMethod } from './searchMethod';

/** Scenario pickers, matched on name and slug a page at a time; remixing takes the slug. */
function searchScenariosBy(
	valueOf: (row: IDataObject) => string,
	labelOf: (row: IDataObject) => string,
): SearchMethod {
	return searchMethod({
		path: '/scenarios',
		toItem: (row) => ({
			name: labelOf(row),
			value: valueOf(row),
			url: typeof row.url === 'string' ? row.url : undefined,
		}),
		matches: matchFields('name', 'slug'),
	});
}

export const searchScenarios = searchScenariosBy(
	(row) => String(row.id),
	(row) => String(row.name ?? row.slug ?? row.id),
);

export const searchScenarioSlugs = searchScenariosBy(
	(row) => String(row.slug),
	(row) => `${String(row.name ?? row.slug)} (${String(row.slug)})`,
);
