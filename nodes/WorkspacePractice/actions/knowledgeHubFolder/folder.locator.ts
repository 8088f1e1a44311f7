import type { INodeProperties } from 'n8n-workflow';

import type { UuidLocatorOptions } from './uuidLocator';
import { uuidLocator } from './uuidLocator';

/** A Knowledge Hub folder picked from a searchable list or given by its UUID. */
export function folderLocator(overrides: Partial<UuidLocatorOptions> = {}): INodeProperties {
	return uuidLocator({
		displayName: 'Folder',
		name: 'folderId',
		noun: 'folder',
		searchListMethod: 'searchFolders',
		description: 'The Knowledge Hub folder (also called a Space or Hub). Pick it from the list or give its UUID.',
		required: true,
		...overrides,
	});
}
