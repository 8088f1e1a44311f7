import { folderLabel } from './labels';
import { searchMethod } from './searchMethod';

/** Knowledge Hub searches: the API searches titles and names itself. */

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
