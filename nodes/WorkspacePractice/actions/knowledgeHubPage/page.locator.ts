import { uuidPicker } from '../../../shared/fields/locator';

/** A Knowledge Hub page picked from a searchable list (titles) or given by its UUID. */
export const pageLocator = uuidPicker({
	displayName: 'Page ID',
	name: 'pageId',
	noun: 'page',
	searchListMethod: 'searchPages',
	description: 'The Knowledge Hub page. Pick it from the list (search by title) or give its UUID.',
	required: true,
});
