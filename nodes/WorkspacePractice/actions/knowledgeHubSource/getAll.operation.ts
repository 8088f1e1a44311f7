import { queryField, type QueryField } from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { pageLocator } from '../knowledgeHubPage/page.locator';
import { searchFilter, uuidFilter } from '../fields';

const filterFields: QueryField[] = [
	queryField('option', {
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
	}),
	uuidFilter(folderLocator, {
		displayName: 'Folder',
		name: 'folder_id',
		description: 'Only sources in this folder. Pick it from the list or give its UUID.',
	}),
	uuidFilter(pageLocator, {
		displayName: 'Attached to Page',
		name: 'page_id',
		description:
			'Only sources attached to this Knowledge Hub page. Pick it from the list or give its UUID.',
	}),
	searchFilter('e.g. pricing', 'sources whose title'),
	queryField('option', {
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
	}),
];

export const { description, execute } = listOperation(
	'knowledgeHubSource',
	'/knowledge-hub/sources',
	filterFields,
);
