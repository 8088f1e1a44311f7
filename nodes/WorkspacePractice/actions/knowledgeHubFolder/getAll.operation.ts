import type { QueryField } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from './folder.locator';
import { searchFilter, uuidFilter } from '../fields';

const filterFields: QueryField[] = [
	uuidFilter(folderLocator, {
		displayName: 'Parent Folder',
		name: 'parent_id',
		description:
			'Only the direct children of this folder. Leave out to list every folder in the workspace, nested ones included.',
	}),
	searchFilter('e.g. sales', 'folders whose name'),
];

export const { description, execute } = listOperation(
	'knowledgeHubFolder',
	'/knowledge-hub/folders',
	filterFields,
);
