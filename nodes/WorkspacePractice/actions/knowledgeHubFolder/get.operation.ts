import { getByIdOperation } from '../../../shared/operations/byIdOperation';
import { folderLocator } from './folder.locator';

export const { description, execute } = getByIdOperation({
	resource: 'knowledgeHubFolder',
	operation: 'get',
	locator: folderLocator({
		description: 'The folder to get. Pick it from the list or give its UUID.',
	}),
	label: 'Folder',
	path: '/knowledge-hub/folders',
});
