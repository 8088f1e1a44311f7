import { folderLabel } from './labels';
import { searchMethod } from './searchMethod';

/**
 * "From List" searches for Knowledge Hub locators. All three endpoints search titles/names on the
 * server (`query`), so each "load more" reads one more API page of matches.
 */

export const searchPages = searchMethod({
	path: '/knowledge-hub/pages',
	serverSearch: true,
	toItem: (row) => ({
		name: `${String(row.title)} (${String(row.status)})`,
		value: String(row.id),
	}),
});

export const searchSources = searchMethod({
	path: '/knowledge-hub/sources',
	serverSearch: true,
	toItem: (row) => ({
		name: `${String(row.title)} (${String(row.source_type)})`,
		value: String(row.id),
		...(typeof row.external_url === 'string' && row.external_url ? { url: row.external_url } : {}),
	}),
});

export const searchFolders = searchMethod({
	path: '/knowledge-hub/folders',
	serverSearch: true,
	toItem: (row) => ({ name: folderLabel(row), value: String(row.id) }),
});
