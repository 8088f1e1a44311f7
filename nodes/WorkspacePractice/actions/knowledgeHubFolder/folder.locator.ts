import { uuidLocatorWith } from '../../../shared/fields/locator';

/** A Knowledge Hub folder picked from a searchable list or given by its UUID. */
export const folderLocator = uuidLocatorWith({
	displayName: 'Folder ID',
	name: 'folderId',
	noun: 'folder',
	searchListMethod: 'searchFolders',
	description:
		'The Knowledge Hub folder (also called a Space or Hub). Pick it from the list or give its UUID.',
	required: true,
});
