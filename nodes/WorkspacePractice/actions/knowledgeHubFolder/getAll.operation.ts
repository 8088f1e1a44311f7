import type { QueryField } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from './folder.locator';

const filterFields: QueryField[] = [
	{
		kind: 'uuidLocator',
		property: folderLocator({
			displayName: 'Parent Folder',
			name: 'parent_id',
			required: false,
			description:
				'Only the direct children of this folder. Leave out to list every folder in the workspace, nested ones included.',
		}),
	},
	{
		kind: 'text',
		property: {
			displayName: 'Search',
			name: 'query',
			type: 'string',
			default: '',
			placeholder: 'e.g. sales',
			description: 'Only folders whose name contains this text (not case-sensitive)',
		},
	},
];

export const { description, execute } = listOperation(
	'knowledgeHubFolder',
	'/knowledge-hub/folders',
	filterFields,
);
