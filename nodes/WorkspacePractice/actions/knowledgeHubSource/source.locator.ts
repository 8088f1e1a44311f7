import { uuidLocatorWith } from '../../../shared/fields/locator';

/** A Knowledge Hub source picked from a searchable list (titles) or given by its UUID. */
export const sourceLocator = uuidLocatorWith({
	displayName: 'Source ID',
	name: 'sourceId',
	noun: 'source',
	searchListMethod: 'searchSources',
	description:
		'The Knowledge Hub source. Pick it from the list (search by title) or give its UUID.',
	required: true,
});
