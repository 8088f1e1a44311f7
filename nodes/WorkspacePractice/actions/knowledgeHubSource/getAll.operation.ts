import type { QueryField } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { pageLocator } from '../knowledgeHubPage/page.locator';

const filterFields: QueryField[] = [
	{
		kind: 'option',
		property: {
			displayName: 'Extraction Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Failed', value: 'failed' },
				{ name: 'Pending', value: 'pending' },
				{ name: 'Processing', value: 'processing' },
				{ name: 'Ready', value: 'ready' },
			],
			default: 'ready',
			description: 'Only sources whose text extraction is in this state',
		},
	},
	{
		kind: 'uuidLocator',
		property: folderLocator({
			displayName: 'Folder',
			name: 'folder_id',
			required: false,
			description: 'Only sources in this folder. Pick it from the list or give its UUID.',
		}),
	},
	{
		kind: 'uuidLocator',
		property: pageLocator({
			displayName: 'Attached to Page',
			name: 'page_id',
			required: false,
			description:
				'Only sources attached to this Knowledge Hub page. Pick it from the list or give its UUID.',
		}),
	},
	{
		kind: 'text',
		property: {
			displayName: 'Search',
			name: 'query',
			type: 'string',
			default: '',
			placeholder: 'e.g. pricing',
			description: 'Only sources whose title contains this text (not case-sensitive)',
		},
	},
	{
		kind: 'option',
		property: {
			displayName: 'Type',
			name: 'type',
			type: 'options',
			options: [
				{ name: 'Google Drive', value: 'google_drive' },
				{ name: 'Guru', value: 'guru' },
				{ name: 'Integration', value: 'integration' },
				{ name: 'Notion', value: 'notion' },
				{ name: 'Page', value: 'page' },
				{ name: 'Upload', value: 'upload' },
				{ name: 'URL', value: 'url' },
			],
			default: 'url',
			description: 'Only sources of this kind',
		},
	},
];

export const { description, execute } = listOperation(
	'knowledgeHubSource',
	'/knowledge-hub/sources',
	filterFields,
);
